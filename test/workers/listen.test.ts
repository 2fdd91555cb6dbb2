// `npm run listen --transport ws` on the server side: GET /api/v1/listen upgrades to a WebSocket held by the endpoint's
// ListenDO; every attempt of a ponte-listen:// endpoint is one message on it, answered by the CLI's local status; only
// the endpoint's own workspace can attach, and another workspace's events never reach the stream.
import { SELF } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { verifyWebhookSignature } from "../../src/events/signature";
import type { AttemptResult, Reply } from "./bodies";
import { BASE, call, expectError, seedApiKey, seedTenant, type TestTenant } from "./support";
import { attemptsOf, consume, createEndpoint, deliveriesOf, insertEvent } from "./webhooks-support";

interface DeliveryMessage {
  type: "delivery";
  id: string;
  headers: Record<string, string>;
  body: string;
}

const sockets: WebSocket[] = [];
afterEach(() => {
  for (const ws of sockets.splice(0)) ws.close(1000, "test done");
});

/** Opens the stream as the CLI does; returns the socket and a queue of the messages it receives. */
async function listen(tenant: TestTenant, endpointId: string) {
  const res = await SELF.fetch(`${BASE}/api/v1/listen?endpointId=${endpointId}`, {
    headers: { Upgrade: "websocket", Authorization: `Bearer ${tenant.key}` },
  });
  expect(res.status).toBe(101);
  const ws = res.webSocket;
  if (!ws) throw new Error("no WebSocket in the 101 response");
  ws.accept();
  sockets.push(ws);
  const inbox: unknown[] = [];
  const waiters: ((m: unknown) => void)[] = [];
  ws.addEventListener("message", (e) => {
    const m = JSON.parse(e.data as string);
    const w = waiters.shift();
    if (w) w(m);
    else inbox.push(m);
  });
  const next = () => (inbox.length > 0 ? Promise.resolve(inbox.shift()) : new Promise<unknown>((resolve) => waiters.push(resolve)));
  return { ws, next, inbox };
}

const listenEndpoint = (tenant: TestTenant, eventKinds = ["*"]) =>
  createEndpoint(tenant, { url: `ponte-listen://${crypto.randomUUID()}`, eventKinds });

describe("GET /api/v1/listen", () => {
  it("relays a test ping over the socket, signed, and records the CLI's status as the attempt's", async () => {
    const tenant = await seedTenant();
    const endpoint = await listenEndpoint(tenant);
    expect(endpoint.url).toMatch(/^ponte-listen:\/\//);
    const stream = await listen(tenant, endpoint.id);
    expect(await stream.next()).toEqual({ type: "ready" });

    const ping = call<Reply<AttemptResult>>("POST", `/api/v1/webhook-endpoints/${endpoint.id}/test`, { key: tenant.key });
    const msg = (await stream.next()) as DeliveryMessage;
    expect(msg.type).toBe("delivery");
    expect(msg.headers["x-service-event"]).toBe("ping");
    expect(JSON.parse(msg.body)).toMatchObject({ type: "ping" });
    expect(await verifyWebhookSignature(msg.body, msg.headers["x-service-signature"], endpoint.secret)).toMatchObject({ ok: true });
    stream.ws.send(JSON.stringify({ type: "result", id: msg.id, status: 204 }));
    const res = await ping;
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ succeeded: true, statusCode: 204, errorKind: null });

    // The local receiver failed: the attempt fails with its status.
    const again = call<Reply<AttemptResult>>("POST", `/api/v1/webhook-endpoints/${endpoint.id}/test`, { key: tenant.key });
    const second = (await stream.next()) as DeliveryMessage;
    stream.ws.send(JSON.stringify({ type: "result", id: second.id, status: 500 }));
    expect((await again).body.data).toMatchObject({ succeeded: false, statusCode: 500, errorKind: "http_status" });
  });

  it("delivers the workspace's events from the queue, and nothing of another workspace", async () => {
    const tenant = await seedTenant();
    const other = await seedTenant();
    const endpoint = await listenEndpoint(tenant, ["payment.received"]);
    // The other workspace registers a listen endpoint too (even the same URL would be its own session).
    const foreign = await createEndpoint(other, { url: endpoint.url, eventKinds: ["*"] });
    const stream = await listen(tenant, endpoint.id);
    expect(await stream.next()).toEqual({ type: "ready" });

    const foreignEvent = await insertEvent(other, "payment.received");
    await consume([{ eventId: foreignEvent.id }]);
    // Nobody listens to the other endpoint: its attempt fails (503) and our socket got nothing.
    const [foreignDelivery] = await deliveriesOf(foreign.id);
    expect((await attemptsOf(foreignDelivery?.id ?? ""))[0]).toMatchObject({ status_code: 503 });
    expect(stream.inbox).toEqual([]);

    const event = await insertEvent(tenant, "payment.received");
    const consumed = consume([{ eventId: event.id }]);
    const msg = (await stream.next()) as DeliveryMessage;
    expect(JSON.parse(msg.body)).toMatchObject({ id: event.id, type: "payment.received" });
    stream.ws.send(JSON.stringify({ type: "result", id: msg.id, status: 200 }));
    await consumed;
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ event_id: event.id, status: "succeeded" });
  });

  it("a new connection replaces the old one", async () => {
    const tenant = await seedTenant();
    const endpoint = await listenEndpoint(tenant);
    const first = await listen(tenant, endpoint.id);
    await first.next();
    const closed = new Promise<number>((resolve) => first.ws.addEventListener("close", (e) => resolve(e.code)));
    const second = await listen(tenant, endpoint.id);
    expect(await second.next()).toEqual({ type: "ready" });
    expect(await closed).toBe(4000);
  });

  it("only the endpoint's workspace may attach, with webhook_endpoints.manage, to a listen endpoint, as a WebSocket", async () => {
    const tenant = await seedTenant();
    const endpoint = await listenEndpoint(tenant);
    const upgrade = { Upgrade: "websocket" };
    const path = `/api/v1/listen?endpointId=${endpoint.id}`;

    expectError(await call("GET", path, { headers: upgrade }), 401, "UNAUTHORIZED");
    const stranger = await seedTenant();
    expectError(await call("GET", path, { key: stranger.key, headers: upgrade }), 404, "NOT_FOUND");
    const reader = await seedApiKey(tenant.organizationId, null, { permissions: ["webhook_endpoints.read"] });
    expectError(await call("GET", path, { key: reader.key, headers: upgrade }), 403, "FORBIDDEN");
    expectError(await call("GET", path, { key: tenant.key }), 400, "BAD_REQUEST");
    const ordinary = await createEndpoint(tenant);
    expectError(await call("GET", `/api/v1/listen?endpointId=${ordinary.id}`, { key: tenant.key, headers: upgrade }), 409, "INVALID_STATE");
  });

  it("refuses a malformed listen URL like any other bad URL", async () => {
    const tenant = await seedTenant();
    const res = await call("POST", "/api/v1/webhook-endpoints", {
      key: tenant.key,
      body: { url: "ponte-listen://not-a-session", eventKinds: ["*"] },
    });
    expectError(res, 400, "VALIDATION_FAILED");
  });
});
