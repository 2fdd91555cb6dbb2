// `npm run listen` (scripts/lib/listen.mjs): argument rules, event patterns, signing compatible with the worker's
// verifier, and a whole http-transport run: register → forward a signed delivery → one log line → delete on close.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  expandEventPatterns,
  forwardDelivery,
  formatDeliveryLine,
  parseListenArgs,
  signatureHeader,
  signatureValid,
  startHttpListen,
  UsageError,
} from "../../scripts/lib/listen.mjs";
import { deliveryHeaders, envelopeBody } from "../../src/events/event-body";
import { EVENT_KINDS as WORKER_EVENT_KINDS } from "../../src/events/kinds";
import { generateSigningSecret, verifyWebhookSignature } from "../../src/events/signature";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function serve(handler: (req: IncomingMessage, body: string) => { status: number; json?: unknown }): Promise<string> {
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const out = handler(req, body);
    res.writeHead(out.status, { "content-type": "application/json" }).end(out.json === undefined ? "" : JSON.stringify(out.json));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("parseListenArgs", () => {
  it("needs --forward-to and a key; defaults to every event on the local API over http", () => {
    expect(() => parseListenArgs([], { PONTE_API_KEY: "k" })).toThrow(/--forward-to is required/);
    expect(() => parseListenArgs(["--forward-to", "http://localhost:3000/hooks"], {})).toThrow(/API key is required/);
    expect(parseListenArgs(["--forward-to", "http://localhost:3000/hooks"], { PONTE_API_KEY: "ponte_test_x", PORT: "9000" })).toEqual({
      forwardTo: "http://localhost:3000/hooks",
      api: "http://localhost:9000",
      key: "ponte_test_x",
      events: ["*"],
      transport: "http",
      organizationId: undefined,
      workspaceId: undefined,
    });
  });

  it("reads --name value and --name=value, splits --events, picks ws for a remote API", () => {
    const o = parseListenArgs(
      [
        "--forward-to=http://localhost:3000/",
        "--events",
        "payment.*,subscription.created",
        "--api",
        "https://sandbox.example.com/",
        "--key",
        "k",
      ],
      {},
    );
    expect(o.events).toEqual(["payment.*", "subscription.created"]);
    expect(o.api).toBe("https://sandbox.example.com");
    expect(o.transport).toBe("ws");
  });

  it("refuses unknown options, bad URLs, unknown kinds and transports", () => {
    const base = ["--forward-to", "http://localhost:3000/", "--key", "k"];
    expect(() => parseListenArgs([...base, "--nope", "1"])).toThrow(UsageError);
    expect(() => parseListenArgs(["--forward-to", "ftp://x/", "--key", "k"])).toThrow(/http\(s\) URL/);
    expect(() => parseListenArgs([...base, "--events", "payment.paid"])).toThrow(/not an event kind/);
    expect(() => parseListenArgs([...base, "--events", "refund.*"])).toThrow(/matches no event kind/);
    expect(() => parseListenArgs([...base, "--transport", "smtp"])).toThrow(/http or ws/);
  });
});

describe("event patterns", () => {
  it("expands payment.* to the payment kinds; * and upstream.* pass as the API knows them", () => {
    expect(expandEventPatterns(["payment.*"])).toEqual(WORKER_EVENT_KINDS.filter((k) => k.startsWith("payment.")));
    expect(expandEventPatterns(["subscription.*", "upstream.*", "payment.received"])).toEqual([
      "subscription.created",
      "subscription.canceled",
      "subscription.updated",
      "upstream.*",
      "payment.received",
    ]);
    expect(expandEventPatterns(["payment.*", "*"])).toEqual(["*"]);
  });
});

describe("signing", () => {
  const secret = generateSigningSecret();
  const body = '{"id":"e1","type":"payment.received","data":{"value":"10.00"}}';

  it("signs so the worker's verifier accepts it, and only for these bytes and this secret", async () => {
    const header = signatureHeader(secret, body);
    expect(await verifyWebhookSignature(body, header, secret)).toEqual({ ok: true, timestamp: expect.any(Number) });
    expect((await verifyWebhookSignature(`${body} `, header, secret)).ok).toBe(false);
    expect((await verifyWebhookSignature(body, header, generateSigningSecret())).ok).toBe(false);
  });

  it("checks a worker-made header: valid, tampered, stale", async () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = await deliveryHeaders({
      eventType: "payment.received",
      deliveryId: "d",
      environment: "local",
      secrets: [secret],
      timestamp: now,
      body,
    });
    const header = headers["X-Service-Signature"];
    expect(signatureValid(secret, body, header)).toBe(true);
    expect(signatureValid(secret, body.replace("10.00", "99.00"), header)).toBe(false);
    expect(signatureValid(secret, body, header, now + 301)).toBe(false);
    expect(signatureValid(secret, body, undefined)).toBe(false);
  });
});

describe("forwardDelivery", () => {
  it("reports an unreachable local URL as status 0 with the error, and prints it", async () => {
    const r = await forwardDelivery({
      rawBody: '{"id":"e9","type":"ping"}',
      headers: {},
      secret: "whsec_x",
      forwardTo: "http://127.0.0.1:9/",
    });
    expect(r).toMatchObject({ kind: "ping", eventId: "e9", status: 0 });
    expect(formatDeliveryLine(r)).toMatch(/ping +e9 {2}→ ERR .+ \d+ ms$/);
  });
});

describe("startHttpListen (transport http)", () => {
  it("registers the receiver, forwards a worker-signed delivery re-signed, mirrors the local status, deletes on close", async () => {
    const secret = generateSigningSecret();
    const api: { method: string; url: string; auth: string | undefined; workspace: string | undefined; body: string }[] = [];
    const apiBase = await serve((req, body) => {
      api.push({
        method: req.method ?? "",
        url: req.url ?? "",
        auth: req.headers.authorization,
        workspace: req.headers["x-workspace-id"] as string,
        body,
      });
      if (req.method === "POST") {
        const input = JSON.parse(body) as { url: string; eventKinds: string[] };
        return {
          status: 201,
          json: { data: { id: "ep-1", object: "webhook_endpoint", url: input.url, eventKinds: input.eventKinds, secret } },
        };
      }
      return { status: 200, json: { data: { id: "ep-1", object: "webhook_endpoint", deleted: true } } };
    });
    const received: { headers: IncomingMessage["headers"]; body: string; verified: boolean }[] = [];
    let localStatus = 204;
    const forwardTo = await serve((req, body) => {
      received.push({ headers: req.headers, body, verified: false });
      return { status: localStatus };
    });

    const lines: string[] = [];
    const session = await startHttpListen({
      api: apiBase,
      key: "ponte_test_abc",
      workspaceId: "ws-1",
      events: ["payment.*"],
      forwardTo: `${forwardTo}/webhooks`,
      log: (l) => lines.push(l),
    });
    expect(session.secret).toBe(secret);
    expect(session.receiverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(api[0]).toMatchObject({ method: "POST", url: "/api/v1/webhook-endpoints", auth: "Bearer ponte_test_abc", workspace: "ws-1" });
    expect(JSON.parse(api[0]?.body ?? "{}")).toMatchObject({
      url: session.receiverUrl,
      eventKinds: WORKER_EVENT_KINDS.filter((k) => k.startsWith("payment.")),
    });

    // What the worker's delivery path sends (src/events/event-body.ts), signed with the endpoint's secret.
    const body = envelopeBody(
      { id: "evt-1", type: "payment.received", createdAt: "2026-11-25T00:00:00.000Z", data: { id: "pay_1" } },
      "local",
    );
    const headers = await deliveryHeaders({
      eventType: "payment.received",
      deliveryId: "del-1",
      environment: "local",
      secrets: [secret],
      timestamp: Math.floor(Date.now() / 1000),
      body,
    });
    const first = await fetch(session.receiverUrl, { method: "POST", headers, body });
    expect(first.status).toBe(204);
    expect(received).toHaveLength(1);
    const got = received[0];
    expect(got?.body).toBe(body);
    expect(got?.headers["x-service-event"]).toBe("payment.received");
    expect(got?.headers["x-service-delivery"]).toBe("del-1");
    expect(got?.headers["x-service-environment"]).toBe("SANDBOX");
    expect(await verifyWebhookSignature(got?.body ?? "", got?.headers["x-service-signature"] as string, secret)).toMatchObject({
      ok: true,
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/payment\.received +evt-1 {2}→ 204 {2}\d+ ms$/);

    // A failing local handler fails the delivery, so the worker retries it.
    localStatus = 500;
    expect((await fetch(session.receiverUrl, { method: "POST", headers, body })).status).toBe(500);
    expect(lines[1]).toMatch(/→ 500 /);

    // Anyone else posting to the receiver port is refused and nothing is forwarded.
    const forged = await fetch(session.receiverUrl, {
      method: "POST",
      headers: { ...headers, "X-Service-Signature": signatureHeader(generateSigningSecret(), body) },
      body,
    });
    expect(forged.status).toBe(401);
    expect(received).toHaveLength(2);

    await session.close();
    expect(api.at(-1)).toMatchObject({ method: "DELETE", url: "/api/v1/webhook-endpoints/ep-1" });
    await expect(fetch(session.receiverUrl, { method: "POST", headers, body })).rejects.toThrow();
  });

  it("surfaces the API's error and leaves no receiver running", async () => {
    const apiBase = await serve(() => ({ status: 403, json: { error: { code: "FORBIDDEN", message: "needs webhook_endpoints.manage" } } }));
    await expect(startHttpListen({ api: apiBase, key: "k", events: ["*"], forwardTo: "http://127.0.0.1:9/" })).rejects.toThrow(
      /403 FORBIDDEN needs webhook_endpoints\.manage/,
    );
  });
});
