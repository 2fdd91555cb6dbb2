// `npm run listen --transport ws` on the server side: GET /api/v1/listen upgrades to a WebSocket held by the endpoint's
// ListenDO; every attempt of a ponte-listen:// endpoint is one message on it, answered by the CLI's local status; only
// the endpoint's own workspace can attach, and another workspace's events never reach the stream.
import { env, SELF } from "cloudflare:test";
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
async function listen(tenant: Pick<TestTenant, "key">, endpointId: string) {
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
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason })),
  );
  return { ws, next, inbox, closed };
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

  describe("the credential that opened a stream", () => {
    /** A stream opened with its own key (not the tenant's, which the test keeps using), past its ready message. */
    async function streamOfOwnKey(tenant: TestTenant, permissions?: string[]) {
      const listener = await seedApiKey(tenant.organizationId, null, permissions ? { permissions } : {});
      const endpoint = await listenEndpoint(tenant);
      const stream = await listen(listener, endpoint.id);
      expect(await stream.next()).toEqual({ type: "ready" });
      return { listener, endpoint, stream };
    }

    const ping = (tenant: TestTenant, endpointId: string) =>
      call<Reply<AttemptResult>>("POST", `/api/v1/webhook-endpoints/${endpointId}/test`, { key: tenant.key });

    it("revoking the key closes its stream at once (4001) and nothing more reaches it; another key's stream stays", async () => {
      const tenant = await seedTenant();
      const revoked = await streamOfOwnKey(tenant);
      const kept = await streamOfOwnKey(tenant);

      const res = await call("POST", `/api/v1/api-keys/${revoked.listener.apiKeyId}/revoke`, { key: tenant.key });
      expect(res.status).toBe(200);
      expect(await revoked.stream.closed).toEqual({ code: 4001, reason: "the API key has been revoked" });

      const after = await ping(tenant, revoked.endpoint.id);
      expect(after.body.data).toMatchObject({ succeeded: false, statusCode: 503 });
      expect(revoked.stream.inbox).toEqual([]);

      // The other key's stream still relays.
      const pending = ping(tenant, kept.endpoint.id);
      const msg = (await kept.stream.next()) as DeliveryMessage;
      kept.stream.ws.send(JSON.stringify({ type: "result", id: msg.id, status: 204 }));
      expect((await pending).body.data).toMatchObject({ succeeded: true, statusCode: 204 });
      // And the revoked key cannot open a new one.
      const reopen = await call("GET", `/api/v1/listen?endpointId=${revoked.endpoint.id}`, {
        key: revoked.listener.key,
        headers: { Upgrade: "websocket" },
      });
      expectError(reopen, 401, "UNAUTHORIZED");
    });

    it("rotating the key closes its stream at once (4001)", async () => {
      const tenant = await seedTenant();
      const { listener, stream } = await streamOfOwnKey(tenant);
      const res = await call("POST", `/api/v1/api-keys/${listener.apiKeyId}/rotate`, { key: tenant.key });
      expect(res.status).toBe(201);
      expect(await stream.closed).toEqual({ code: 4001, reason: "the API key has been rotated" });
    });

    it("a key revoked behind the stream's back (no close call) is caught by the re-check before the next delivery", async () => {
      const tenant = await seedTenant();
      const { listener, endpoint, stream } = await streamOfOwnKey(tenant);
      await env.DB.prepare("UPDATE api_keys SET revoked_at = ?1 WHERE id = ?2").bind(new Date().toISOString(), listener.apiKeyId).run();

      const res = await ping(tenant, endpoint.id);
      expect(res.body.data).toMatchObject({ succeeded: false, statusCode: 503 });
      expect(await stream.closed).toEqual({ code: 4001, reason: "the API key has been revoked" });
      expect(stream.inbox).toEqual([]);
    });

    it("a key that lost webhook_endpoints.manage, or whose workspace was archived, gets no delivery either", async () => {
      const tenant = await seedTenant();
      const demoted = await streamOfOwnKey(tenant);
      await env.DB.prepare("UPDATE api_keys SET permissions = ?1 WHERE id = ?2")
        .bind(JSON.stringify(["webhook_endpoints.read"]), demoted.listener.apiKeyId)
        .run();
      expect((await ping(tenant, demoted.endpoint.id)).body.data).toMatchObject({ succeeded: false, statusCode: 503 });
      expect(await demoted.stream.closed).toEqual({ code: 4001, reason: "the API key lacks 'webhook_endpoints.manage'" });

      const archived = await streamOfOwnKey(tenant);
      await env.DB.prepare("UPDATE workspaces SET archived_at = ?1 WHERE id = ?2").bind(new Date().toISOString(), tenant.workspaceId).run();
      // The tenant's own key is refused now too (once its cached lookup expires): drive an attempt from the queue.
      const event = await insertEvent(tenant, "payment.received");
      await consume([{ eventId: event.id }]);
      expect(await archived.stream.closed).toEqual({ code: 4001, reason: "the workspace is archived" });
      expect(archived.stream.inbox).toEqual([]);
    });
  });
});
