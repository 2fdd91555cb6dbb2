// The webhook-endpoints and webhook-logs API: CRUD, validation (event kinds, SSRF URL policy), the
// secret shown once, the Test action, log filters, permissions, and tenant isolation on every route.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, expectError, seedApiKey, seedTenant, seedWorkspace } from "./support";
import { consume, createEndpoint, deliveriesOf, hmacHex, insertEvent, mockReceiver } from "./webhooks-support";
import type { AttemptResult, Reply, WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint, WebhookEndpointWithSecret } from "./bodies";
import { auditTrail } from "./audit-support";

afterEach(() => vi.restoreAllMocks());

describe("webhook endpoints", () => {
  it("create returns the secret once; reads never show it; the stored secret is sealed", async () => {
    const tenant = await seedTenant();
    const res = await call<Reply<WebhookEndpointWithSecret>>("POST", "/api/v1/webhook-endpoints", {
      key: tenant.key,
      body: { url: "https://hooks.merchant.com.br/ponte", description: "prod", eventKinds: ["payment.received", "upstream.*"] },
    });
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(created).toMatchObject({
      object: "webhook_endpoint",
      url: "https://hooks.merchant.com.br/ponte",
      description: "prod",
      eventKinds: ["payment.received", "upstream.*"],
      enabled: true,
      disabledReason: null,
      consecutiveFailures: 0,
      secretRotatedAt: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const got = await call<Reply<WebhookEndpoint>>("GET", `/api/v1/webhook-endpoints/${created.id}`, { key: tenant.key });
    const listed = await call<Reply<WebhookEndpoint[]>>("GET", "/api/v1/webhook-endpoints", { key: tenant.key });
    for (const body of [got.body, listed.body]) expect(JSON.stringify(body)).not.toContain(created.secret);
    expect(listed.body.meta.pagination.totalCount).toBe(1);
    const row = await env.DB.prepare("SELECT secret_sealed FROM webhook_endpoints WHERE id = ?")
      .bind(created.id)
      .first<{ secret_sealed: string }>();
    expect(row!.secret_sealed).toMatch(/^v2\.[A-Za-z0-9_-]{8}\./);
    expect(row!.secret_sealed).not.toContain(created.secret);
  });

  it("the 16-endpoint cap holds under 30 concurrent creates: exactly 16 exist, the rest are 409 naming the limit, each kept one audited", async () => {
    const tenant = await seedTenant();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call<Reply<WebhookEndpointWithSecret>>("POST", "/api/v1/webhook-endpoints", {
          key: tenant.key,
          body: { url: `https://hooks.merchant.com.br/${i}`, eventKinds: ["payment.received"] },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(16);
    for (const r of results.filter((r) => r.status !== 201)) expect(expectError(r, 409, "INVALID_STATE").details.limit).toBe(16);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM webhook_endpoints WHERE workspace_id = ?")
      .bind(tenant.workspaceId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(16);
    expect(await auditTrail(tenant.organizationId, { action: "webhook_endpoint.created" })).toHaveLength(16);
  });

  it("patch changes fields; disabling fails open deliveries; delete removes it but keeps the log", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const patched = await call<Reply<WebhookEndpoint>>("PATCH", `/api/v1/webhook-endpoints/${endpoint.id}`, {
      key: tenant.key,
      body: { description: "new", eventKinds: ["payment.created"], enabled: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      description: "new",
      eventKinds: ["payment.created"],
      enabled: false,
      disabledReason: "manual",
    });

    mockReceiver();
    await call<Reply<AttemptResult>>("POST", `/api/v1/webhook-endpoints/${endpoint.id}/test`, { key: tenant.key });
    const deleted = await call<Reply<WebhookEndpoint>>("DELETE", `/api/v1/webhook-endpoints/${endpoint.id}`, { key: tenant.key });
    expect(deleted.body.data).toEqual({ id: endpoint.id, object: "webhook_endpoint", deleted: true });
    expectError(
      await call<Reply<WebhookEndpoint>>("GET", `/api/v1/webhook-endpoints/${endpoint.id}`, { key: tenant.key }),
      404,
      "NOT_FOUND",
    );
    expect(
      (await call<Reply<WebhookDelivery[]>>("GET", `/api/v1/webhook-logs?endpointId=${endpoint.id}`, { key: tenant.key })).body.data,
    ).toHaveLength(1);
  });

  it.each([
    ["http://hooks.merchant.com.br/x", "https"],
    ["https://10.0.0.1/hook", "IP address"],
    ["https://169.254.169.254/latest/meta-data", "IP address"],
    ["https://127.0.0.1.nip.io/hooks", "127.0.0.1"],
    ["https://app-10-0-0-1.sslip.io/hooks", "10.0.0.1"],
    ["https://localtest.me/hooks", "loopback"],
    ["https://shop.lvh.me/hooks", "loopback"],
    ["https://hooks.localhost/hooks", "localhost"],
    ["https://api.localhost/hook", "localhost"],
    ["http://127.1:8787/hook", "https"],
    ["https://printer.internal/hook", ".internal"],
    ["https://user:pw@hooks.merchant.com.br/", "username"],
    ["https://0177.0.0.1.nip.io/hooks", "127.0.0.1"],
    ["https://2130706433.nip.io/hooks", "127.0.0.1"],
    ["https://localhost.direct/hooks", "loopback"],
    ["https://payments.default.svc/hooks", ".svc"],
    ["https://hooks.merchant.com.br:8443/hooks", "port"],
  ])("rejects %s (SSRF policy) naming body.url", async (url, reason) => {
    const tenant = await seedTenant();
    const error = expectError(
      await call<Reply<WebhookEndpointWithSecret>>("POST", "/api/v1/webhook-endpoints", {
        key: tenant.key,
        body: { url, eventKinds: ["*"] },
      }),
      400,
      "VALIDATION_FAILED",
    );
    expect(error.details.fields[0]?.path).toBe("body.url");
    expect(error.details.fields[0]?.message).toContain(reason);
    const endpoint = await createEndpoint(tenant);
    expectError(
      await call<Reply<WebhookEndpoint>>("PATCH", `/api/v1/webhook-endpoints/${endpoint.id}`, { key: tenant.key, body: { url } }),
      400,
      "VALIDATION_FAILED",
    );
  });

  it("allows http://127.0.0.1 in the local environment only", async () => {
    const tenant = await seedTenant();
    expect(
      (
        await call<Reply<WebhookEndpointWithSecret>>("POST", "/api/v1/webhook-endpoints", {
          key: tenant.key,
          body: { url: "http://127.0.0.1:8787/hook", eventKinds: ["*"] },
        })
      ).status,
    ).toBe(201);
  });

  it("validates every event kind", async () => {
    const tenant = await seedTenant();
    const error = expectError(
      await call<Reply<WebhookEndpointWithSecret>>("POST", "/api/v1/webhook-endpoints", {
        key: tenant.key,
        body: { url: "https://a.merchant.com.br/", eventKinds: ["payment.received", "payment.exploded", "ping"] },
      }),
      400,
      "VALIDATION_FAILED",
    );
    expect(error.details.fields.map((f: { path: string }) => f.path)).toEqual(["body.eventKinds.1", "body.eventKinds.2"]);
    expectError(
      await call<Reply<WebhookEndpointWithSecret>>("POST", "/api/v1/webhook-endpoints", {
        key: tenant.key,
        body: { url: "https://a.merchant.com.br/", eventKinds: [] },
      }),
      400,
      "VALIDATION_FAILED",
    );
  });
});

describe("the Test action", () => {
  it("sends a signed ping now, returns the attempt, and logs it", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant, { eventKinds: ["payment.received"] });
    const receiver = mockReceiver(() => new Response("pong", { status: 200 }));
    const res = await call<Reply<AttemptResult>>("POST", `/api/v1/webhook-endpoints/${endpoint.id}/test`, { key: tenant.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      object: "webhook_attempt",
      trigger: "test",
      succeeded: true,
      statusCode: 200,
      errorKind: null,
      responseExcerpt: "pong",
    });
    expect(typeof res.body.data.durationMs).toBe("number");
    const req = receiver.received[0]!;
    expect(req.headers["x-service-event"]).toBe("ping");
    expect(req.headers["x-service-delivery"]).toBe(res.body.data.deliveryId);
    const [t, v1] = req.headers["x-service-signature"]!.split(",");
    expect(v1).toBe(`v1=${await hmacHex(endpoint.secret, `${t!.slice(2)}.${req.body}`)}`);
    expect(JSON.parse(req.body)).toMatchObject({ type: "ping", data: { endpointId: endpoint.id } });

    const log = await call<Reply<WebhookDeliveryDetail>>("GET", `/api/v1/webhook-logs/${res.body.data.deliveryId}`, { key: tenant.key });
    expect(log.body.data).toMatchObject({ status: "succeeded", eventType: "ping", attemptCount: 1, payload: JSON.parse(req.body) });
    expect(log.body.data.attempts).toHaveLength(1);
    // A ping is never fanned out to other endpoints by the sweeper.
    expect(
      (await env.DB.prepare("SELECT fanned_out_at FROM events WHERE id = ?")
        .bind(log.body.data.eventId)
        .first<{ fanned_out_at: string | null }>())!.fanned_out_at,
    ).not.toBeNull();
  });

  it("reports a failing receiver: status, error kind and excerpt", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    mockReceiver(() => new Response("bad gateway", { status: 502 }));
    const res = await call<Reply<AttemptResult>>("POST", `/api/v1/webhook-endpoints/${endpoint.id}/test`, { key: tenant.key });
    expect(res.body.data).toMatchObject({ succeeded: false, statusCode: 502, errorKind: "http_status", responseExcerpt: "bad gateway" });
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: "failed" });
  });
});

describe("webhook logs", () => {
  it("lists deliveries with filters endpointId, eventType, status, from/to", async () => {
    const tenant = await seedTenant();
    const a = await createEndpoint(tenant);
    const b = await createEndpoint(tenant);
    const receiver = mockReceiver();
    await consume([{ eventId: (await insertEvent(tenant, "payment.received")).id }]);
    receiver.answer(() => new Response("x", { status: 500 }));
    await consume([{ eventId: (await insertEvent(tenant, "payment.created")).id }]);
    const list = (q: string) => call<Reply<WebhookDelivery[]>>("GET", `/api/v1/webhook-logs?${q}`, { key: tenant.key }).then((r) => r.body);
    expect((await list("")).meta.pagination.totalCount).toBe(4);
    expect((await list(`endpointId=${a.id}`)).data.map((d: { endpointId: unknown }) => d.endpointId)).toEqual([a.id, a.id]);
    expect((await list("eventType=payment.created")).data.map((d: { status: unknown }) => d.status)).toEqual(["retrying", "retrying"]);
    expect((await list("status=succeeded")).data.map((d: { eventType: unknown }) => d.eventType)).toEqual([
      "payment.received",
      "payment.received",
    ]);
    expect((await list(`status=retrying&endpointId=${b.id}`)).data).toHaveLength(1);
    expect((await list(`from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).data).toHaveLength(0);
    expect((await list(`to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).data).toHaveLength(4);
    expectError(
      await call<Reply<WebhookDelivery[]>>("GET", "/api/v1/webhook-logs?status=lost", { key: tenant.key }),
      400,
      "VALIDATION_FAILED",
    );

    const failed = (await list("status=retrying")).data[0];
    const detail = (await call<Reply<WebhookDeliveryDetail>>("GET", `/api/v1/webhook-logs/${failed!.id}`, { key: tenant.key })).body.data;
    expect(detail.attempts[0]).toMatchObject({ statusCode: 500, errorKind: "http_status", responseExcerpt: "x", succeeded: false });
    expect(Date.parse(detail.attempts[0]!.attemptedAt)).not.toBeNaN();
  });
});

describe("security", () => {
  it("needs a credential, and names the missing permission", async () => {
    expectError(await call<Reply<WebhookEndpoint[]>>("GET", "/api/v1/webhook-endpoints"), 401, "UNAUTHORIZED");
    const tenant = await seedTenant({ permissions: ["webhook_endpoints.read"] });
    const error = expectError(
      await call<Reply<WebhookEndpointWithSecret>>("POST", "/api/v1/webhook-endpoints", {
        key: tenant.key,
        body: { url: "https://a.merchant.com.br/", eventKinds: ["*"] },
      }),
      403,
      "FORBIDDEN",
    );
    expect(error.details.requiredPermission).toBe("webhook_endpoints.manage");
    const none = await seedTenant({ permissions: ["payments.read"] });
    expect(
      expectError(await call<Reply<WebhookDelivery[]>>("GET", "/api/v1/webhook-logs", { key: none.key }), 403, "FORBIDDEN").details
        .requiredPermission,
    ).toBe("webhook_endpoints.read");
  });

  it("another tenant's endpoint or delivery is a 404 on every route", async () => {
    const owner = await seedTenant();
    const stranger = await seedTenant();
    const endpoint = await createEndpoint(owner);
    mockReceiver();
    const ping = await call<Reply<AttemptResult>>("POST", `/api/v1/webhook-endpoints/${endpoint.id}/test`, { key: owner.key });
    const deliveryId = ping.body.data.deliveryId;
    const since = "2000-01-01T00:00:00.000Z"; // the date floor (src/http/dates.ts)
    const routes: [string, string, unknown?][] = [
      ["GET", `/api/v1/webhook-endpoints/${endpoint.id}`],
      ["PATCH", `/api/v1/webhook-endpoints/${endpoint.id}`, { description: "x" }],
      ["DELETE", `/api/v1/webhook-endpoints/${endpoint.id}`],
      ["POST", `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`],
      ["POST", `/api/v1/webhook-endpoints/${endpoint.id}/test`],
      ["POST", `/api/v1/webhook-endpoints/${endpoint.id}/enable`],
      ["POST", `/api/v1/webhook-endpoints/${endpoint.id}/recover`, { since }],
      ["GET", `/api/v1/webhook-logs/${deliveryId}`],
      ["POST", `/api/v1/webhook-logs/${deliveryId}/redeliver`],
    ];
    for (const [method, path, body] of routes) expectError(await call(method, path, { key: stranger.key, body }), 404, "NOT_FOUND");
    expect((await call<Reply<WebhookEndpoint[]>>("GET", "/api/v1/webhook-endpoints", { key: stranger.key })).body.data).toEqual([]);
    expect((await call<Reply<WebhookDelivery[]>>("GET", "/api/v1/webhook-logs", { key: stranger.key })).body.data).toEqual([]);
    // Untouched for its owner.
    expect(
      (await call<Reply<WebhookEndpoint>>("GET", `/api/v1/webhook-endpoints/${endpoint.id}`, { key: owner.key })).body.data.description,
    ).toBeNull();
  });

  it("endpoints belong to a workspace: another workspace of the same organization does not see them", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const second = await seedWorkspace(tenant.organizationId);
    const { key } = await seedApiKey(tenant.organizationId, second);
    expectError(await call<Reply<WebhookEndpoint>>("GET", `/api/v1/webhook-endpoints/${endpoint.id}`, { key }), 404, "NOT_FOUND");
    // Events of the second workspace do not reach the first workspace's endpoint.
    const receiver = mockReceiver();
    await consume([{ eventId: (await insertEvent({ ...tenant, workspaceId: second })).id }]);
    expect(receiver.received).toHaveLength(0);
  });
});
