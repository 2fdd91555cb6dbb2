// `npm run listen --transport ws`: for a deployed sandbox, which cannot reach this machine. Registers a
// ponte-listen://<session> endpoint, holds GET /api/v1/listen?endpointId= as a WebSocket (the worker's ListenDO),
// and answers each `delivery` message with the local status after re-posting it (scripts/lib/listen.mjs).
import { randomUUID } from "node:crypto";
import WebSocket from "ws";
import { apiClient, expandEventPatterns, forwardDelivery, formatDeliveryLine, signatureValid, upstreamStatus } from "./listen.mjs";

/** src/events/listen-stub.ts: the credential that opened the stream no longer holds. */
const CREDENTIAL_CLOSE_CODE = 4001;

export async function startWsListen({ api, key, organizationId, workspaceId, events, forwardTo, log = console.log, fetchImpl = fetch }) {
  const client = apiClient({ api, key, organizationId, workspaceId, fetchImpl });
  const endpoint = await client.createEndpoint(`ponte-listen://${randomUUID()}`, expandEventPatterns(events));
  const streamUrl = `${api.replace(/^http/, "ws")}/api/v1/listen?endpointId=${endpoint.id}`;
  let socket;
  let closed = false;

  const connect = () =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(streamUrl, { headers: client.headers });
      ws.once("unexpected-response", (_req, res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => reject(new Error(`GET /api/v1/listen → ${res.statusCode} ${text.slice(0, 300)}`)));
      });
      ws.once("error", reject);
      ws.on("message", async (raw) => {
        let msg;
        try {
          msg = JSON.parse(raw.toString("utf8"));
        } catch {
          return;
        }
        if (msg.type === "ready") return resolve(ws);
        if (msg.type !== "delivery") return;
        const rawBody = Buffer.from(msg.body, "utf8");
        if (!signatureValid(endpoint.secret, rawBody, msg.headers["x-service-signature"])) {
          ws.send(JSON.stringify({ type: "result", id: msg.id, status: 401 }));
          return;
        }
        const result = await forwardDelivery({ rawBody, headers: msg.headers, secret: endpoint.secret, forwardTo, fetchImpl });
        log(formatDeliveryLine(result));
        ws.send(JSON.stringify({ type: "result", id: msg.id, status: upstreamStatus(result) }));
      });
      ws.on("close", (code, reason) => {
        if (closed) return;
        if (code === CREDENTIAL_CLOSE_CODE) {
          // The key was revoked or rotated (or lost the permission): reconnecting would only be refused.
          closed = true;
          log(`stream closed by the server: ${reason}. Not reconnecting; restart listen with a valid key.`);
          return;
        }
        log(`stream closed (${code} ${reason}); reconnecting in 2 s…`);
        setTimeout(() => {
          if (!closed)
            connect().then(
              (next) => (socket = next),
              (err) => log(`reconnect failed: ${err.message}`),
            );
        }, 2000);
      });
    });

  try {
    socket = await connect();
  } catch (err) {
    await client.deleteEndpoint(endpoint.id).catch(() => undefined);
    throw err;
  }
  return {
    endpointId: endpoint.id,
    secret: endpoint.secret,
    receiverUrl: streamUrl,
    eventKinds: endpoint.eventKinds,
    async close() {
      if (closed) return;
      closed = true;
      socket?.close(1000, "listen stopped");
      await client.deleteEndpoint(endpoint.id);
    },
  };
}
