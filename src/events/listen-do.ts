// ListenDO: one per `ponte-listen://` webhook endpoint (named by the endpoint's id). It holds the WebSocket of the
// `npm run listen --transport ws` CLI with the hibernation API (ctx.acceptWebSocket), so an idle stream costs
// nothing, and turns each delivery attempt into one message on it: the attempt's answer is the status the CLI
// reports back after re-posting the delivery to the developer's machine. The endpoint row, and so its workspace,
// decides which events reach it; the GET /api/v1/listen route lets only that workspace's keys attach.
// Each socket is tagged with the API key that opened it: revoking or rotating that key closes it at once (POST
// /close from src/modules/api-keys), and as a safety net every delivery first re-checks the key in D1, so a
// socket whose key stopped holding (revoked, lost the permission, workspace archived) gets close code 4001 and
// never another event.
import { DurableObject } from "cloudflare:workers";
import { credentialProblem, type HeldCredential } from "../access/credential-recheck";
import { LIMITS, type Env } from "../config";
import {
  CLOSE_PATH,
  CREDENTIAL_CLOSE_CODE,
  DELIVER_PATH,
  keyTag,
  LISTEN_KEY_HEADER,
  LISTEN_PERMISSION,
  LISTEN_WORKSPACE_HEADER,
} from "./listen-stub";

/** Server → CLI. */
export interface ListenDeliveryMessage {
  type: "delivery";
  /** Correlates the CLI's `result`. */
  id: string;
  headers: Record<string, string>;
  body: string;
}
/** CLI → server: the local receiver's status (502 when it was unreachable). */
export interface ListenResultMessage {
  type: "result";
  id: string;
  status: number;
}

/** Leave the attempt's own 10 s timeout room to record the CLI's answer. */
const REPLY_WAIT_MS = LIMITS.webhookDeliveryTimeoutMs - 500;

export class ListenDO extends DurableObject<Env> {
  /** Attempts waiting for the CLI's `result`. In memory: while one waits, the object is awake. */
  private readonly pending = new Map<string, (status: number) => void>();

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() === "websocket") return this.attach(request);
    const path = request.method === "POST" ? new URL(request.url).pathname : null;
    if (path === DELIVER_PATH) return this.deliver(request);
    if (path === CLOSE_PATH) return this.closeKeySockets(request);
    return new Response("not found", { status: 404 });
  }

  /** A new CLI connection replaces any earlier one (one listener per endpoint). */
  private attach(request: Request): Response {
    const apiKeyId = request.headers.get(LISTEN_KEY_HEADER);
    const workspaceId = request.headers.get(LISTEN_WORKSPACE_HEADER);
    if (!apiKeyId || !workspaceId) return new Response("the upgrade names no credential", { status: 400 });
    for (const old of this.ctx.getWebSockets()) old.close(4000, "replaced by a newer listen connection");
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [keyTag(apiKeyId)]);
    const held: HeldCredential = { apiKeyId, workspaceId, permission: LISTEN_PERMISSION };
    server.serializeAttachment(held);
    server.send(JSON.stringify({ type: "ready" }));
    return new Response(null, { status: 101, webSocket: client });
  }

  /** `{apiKeyId, reason}`: closes the sockets that key opened (it was revoked or rotated). */
  private async closeKeySockets(request: Request): Promise<Response> {
    const { apiKeyId, reason } = (await request.json()) as { apiKeyId: string; reason: string };
    const sockets = this.ctx.getWebSockets(keyTag(apiKeyId));
    for (const ws of sockets) closeForCredential(ws, reason);
    return Response.json({ closed: sockets.length });
  }

  private async deliver(request: Request): Promise<Response> {
    const socket = this.ctx.getWebSockets()[0];
    if (!socket) return new Response("no listen CLI is connected", { status: 503 });
    const problem = await credentialProblem(this.env.DB, socket.deserializeAttachment() as HeldCredential);
    if (problem) {
      closeForCredential(socket, problem);
      return new Response(`the listen stream was closed: ${problem}`, { status: 503 });
    }
    const id = crypto.randomUUID();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const message: ListenDeliveryMessage = { type: "delivery", id, headers, body: await request.text() };
    let timer: number | null = null;
    const status = await new Promise<number>((resolve) => {
      this.pending.set(id, resolve);
      timer = setTimeout(() => resolve(504), REPLY_WAIT_MS) as unknown as number;
      socket.send(JSON.stringify(message));
    });
    clearTimeout(timer);
    this.pending.delete(id);
    const text = status === 504 ? "the listen CLI did not answer in time" : `forwarded by listen: ${status}`;
    return new Response(status === 204 || status === 205 || status === 304 ? null : text, { status });
  }

  override async webSocketMessage(_ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    let message: Partial<ListenResultMessage>;
    try {
      message = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw)) as Partial<ListenResultMessage>;
    } catch {
      return;
    }
    if (message.type !== "result" || typeof message.id !== "string") return;
    const reported = message.status;
    const status = typeof reported === "number" && Number.isInteger(reported) && reported >= 200 && reported <= 599 ? reported : 502;
    this.pending.get(message.id)?.(status);
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    // Answer the close handshake (code 1005/1006 cannot be sent back).
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {}
  }
}

/** Close code 4001 with the reason (a close reason is at most 123 bytes). */
function closeForCredential(ws: WebSocket, reason: string): void {
  try {
    ws.close(CREDENTIAL_CLOSE_CODE, reason.slice(0, 120));
  } catch {}
}
