// Delivery: envelope, exact headers, signatures (checked by an independent HMAC), fan-out, retries on
// the 10/20/40/80/160 s schedule via EndpointDO alarms, the failure streak and auto-disable, redirects,
// and per-message acks in the queue consumer.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { createDb } from "../../src/db/client";
import { events, webhookEndpoints } from "../../src/db/schema";
import { RETRY_DELAYS_SECONDS } from "../../src/events/retry-schedule";
import { call, seedTenant } from "./support";
import {
  alarmOf,
  attemptsOf,
  consume,
  createEndpoint,
  deliveriesOf,
  endpointStub,
  hmacHex,
  insertEvent,
  mockReceiver,
} from "./webhooks-support";
import type { Reply, WebhookDeliveryDetail, WebhookEndpoint } from "./bodies";

afterEach(() => vi.restoreAllMocks());

describe("the URL policy at delivery time", () => {
  it("an endpoint whose stored URL names a private address is not fetched: the attempt fails with url_policy", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant, { eventKinds: ["payment.received"] });
    // A URL saved before the rule existed (or written around the API).
    await createDb(env.DB)
      .update(webhookEndpoints)
      .set({ url: "https://127.0.0.1.nip.io/hooks" })
      .where(eq(webhookEndpoints.id, endpoint.id));
    const receiver = mockReceiver();
    const event = await insertEvent(tenant, "payment.received");
    await consume([{ eventId: event.id }]);
    expect(receiver.received).toHaveLength(0);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "retrying", attempt_count: 1, last_error_kind: "url_policy", last_status_code: null });
    const [attempt] = await attemptsOf(delivery!.id);
    expect(attempt).toMatchObject({ error_kind: "url_policy" });
    expect(attempt!.error_message).toMatch(/127\.0\.0\.1/);
    const logs = await call<Reply<WebhookDeliveryDetail>>("GET", `/api/v1/webhook-logs/${delivery!.id}`, { key: tenant.key });
    expect(logs.status).toBe(200);
    expect(JSON.stringify(logs.body)).toContain("url_policy");
  });
});

describe("a delivered event", () => {
  it("POSTs the envelope with exactly the spec's headers and a valid v1 signature", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant, { url: "https://hooks.merchant.com.br/ponte?x=1", eventKinds: ["payment.received"] });
    const receiver = mockReceiver();
    const event = await insertEvent(tenant, "payment.received", { paymentId: "p1", value: "129.90" });
    const { ids, result } = await consume([{ eventId: event.id }]);
    expect(result.explicitAcks).toEqual(ids);

    expect(receiver.received).toHaveLength(1);
    const req = receiver.received[0]!;
    expect(req.url).toBe("https://hooks.merchant.com.br/ponte?x=1");
    expect(req.redirect).toBe("manual");
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(Object.keys(req.headers).sort()).toEqual([
      "content-type",
      "user-agent",
      "x-service-delivery",
      "x-service-environment",
      "x-service-event",
      "x-service-signature",
    ]);
    expect(req.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "Service-Webhooks/1.0",
      "x-service-event": "payment.received",
      "x-service-delivery": delivery!.id,
      "x-service-environment": "SANDBOX",
    });
    expect(JSON.parse(req.body)).toEqual({
      id: event.id,
      type: "payment.received",
      createdAt: event.createdAt,
      environment: "local",
      apiVersion: "1.0",
      data: { paymentId: "p1", value: "129.90" },
    });

    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(req.headers["x-service-signature"]!);
    expect(match).not.toBeNull();
    expect(Math.abs(Number(match![1]) - Date.now() / 1000)).toBeLessThan(5);
    expect(match![2]).toBe(await hmacHex(endpoint.secret, `${match![1]}.${req.body}`));

    expect(delivery).toMatchObject({ status: "succeeded", attempt_count: 1, next_attempt_at: null, last_status_code: 200 });
    const fanned = await env.DB.prepare("SELECT fanned_out_at FROM events WHERE id = ?").bind(event.id).first<{ fanned_out_at: string }>();
    expect(fanned?.fanned_out_at).not.toBeNull();
    expect(await alarmOf(endpoint.id)).toBeNull();
  });

  it("fans out one delivery per matching enabled endpoint of the event's workspace, once even if redelivered", async () => {
    const tenant = await seedTenant();
    const other = await seedTenant();
    const all = await createEndpoint(tenant, { eventKinds: ["*"] });
    const exact = await createEndpoint(tenant, { eventKinds: ["payment.received"] });
    const upstream = await createEndpoint(tenant, { eventKinds: ["upstream.*"] });
    const disabled = await createEndpoint(tenant, { eventKinds: ["*"], enabled: false });
    const foreign = await createEndpoint(other, { eventKinds: ["*"] });
    const receiver = mockReceiver();
    const event = await insertEvent(tenant, "payment.received");
    await consume([{ eventId: event.id }]);
    await consume([{ eventId: event.id }]); // the queue redelivers: nothing new
    expect((await deliveriesOf(all.id)).length).toBe(1);
    expect((await deliveriesOf(exact.id)).length).toBe(1);
    expect((await deliveriesOf(upstream.id)).length).toBe(0);
    expect((await deliveriesOf(disabled.id)).length).toBe(0);
    expect((await deliveriesOf(foreign.id)).length).toBe(0);
    expect(receiver.received).toHaveLength(2);

    const up = await insertEvent(tenant, "upstream.PAYMENT_SPLIT_CANCELLED");
    await consume([{ eventId: up.id }]);
    expect((await deliveriesOf(upstream.id)).map((d) => d.event_type)).toEqual(["upstream.PAYMENT_SPLIT_CANCELLED"]);
  });

  it("says PRODUCTION in production", async () => {
    const { environmentHeader } = await import("../../src/events/event-body");
    expect(environmentHeader("production")).toBe("PRODUCTION");
    expect(environmentHeader("sandbox")).toBe("SANDBOX");
  });
});

describe("retries", () => {
  it("makes six attempts in all, 10, 20, 40, 80 and 160 s apart (EndpointDO alarms), then fails the delivery", async () => {
    expect(RETRY_DELAYS_SECONDS).toEqual([10, 20, 40, 80, 160]);
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const receiver = mockReceiver(() => new Response("nope", { status: 500 }));
    const event = await insertEvent(tenant);
    await consume([{ eventId: event.id }]);

    const stub = endpointStub(endpoint.id);
    for (const delay of RETRY_DELAYS_SECONDS) {
      const [delivery] = await deliveriesOf(endpoint.id);
      const attempts = await attemptsOf(delivery!.id);
      const last = attempts[attempts.length - 1]!;
      const expected = Date.parse(last.attempted_at) + last.duration_ms + delay * 1000;
      expect(delivery).toMatchObject({ status: "retrying", next_attempt_at: new Date(expected).toISOString() });
      expect(await alarmOf(endpoint.id)).toBe(expected);
      expect(await runDurableObjectAlarm(stub)).toBe(true);
    }
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({
      status: "failed",
      attempt_count: 6,
      next_attempt_at: null,
      last_status_code: 500,
      last_error_kind: "http_status",
    });
    expect(receiver.received).toHaveLength(6);
    // Same delivery id on every attempt.
    expect(new Set(receiver.received.map((r) => r.headers["x-service-delivery"]))).toEqual(new Set([delivery!.id]));
    expect(await alarmOf(endpoint.id)).toBeNull();
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map((a) => a.response_excerpt)).toEqual(Array(6).fill("nope"));
  });

  it("a retry that succeeds settles the delivery and resets the failure streak", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const receiver = mockReceiver(() => new Response("down", { status: 503 }));
    for (let i = 0; i < 3; i++) await consume([{ eventId: (await insertEvent(tenant)).id }]);
    const stub = endpointStub(endpoint.id);
    expect(await stub.streak()).toBe(3);
    expect(
      (await call<Reply<WebhookEndpoint>>("GET", `/api/v1/webhook-endpoints/${endpoint.id}`, { key: tenant.key })).body.data
        .consecutiveFailures,
    ).toBe(3);

    receiver.answer(() => new Response(null, { status: 204 }));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await stub.streak()).toBe(0);
    // The other two retries are due later; run their alarms too.
    while (await runDurableObjectAlarm(stub));
    expect((await deliveriesOf(endpoint.id)).map((d) => d.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(
      (await call<Reply<WebhookEndpoint>>("GET", `/api/v1/webhook-endpoints/${endpoint.id}`, { key: tenant.key })).body.data
        .consecutiveFailures,
    ).toBe(0);
  });

  it("a 3xx is not followed and counts as a failure", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const receiver = mockReceiver(() => new Response(null, { status: 302, headers: { Location: "https://elsewhere.example.org/" } }));
    await consume([{ eventId: (await insertEvent(tenant)).id }]);
    expect(receiver.received).toHaveLength(1);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "retrying", last_status_code: 302, last_error_kind: "redirect" });
  });

  it("a network error is a failure with kind network", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    mockReceiver(() => Promise.reject(new TypeError("connection refused")));
    await consume([{ eventId: (await insertEvent(tenant)).id }]);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "retrying", last_status_code: null, last_error_kind: "network" });
  });
});

describe("auto-disable", () => {
  it("disables the endpoint at 15 consecutive failures; no more attempts, open deliveries fail, enable resets", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const receiver = mockReceiver(() => new Response("err", { status: 500 }));
    for (let i = 0; i < 14; i++) await consume([{ eventId: (await insertEvent(tenant)).id }]);
    let got = (await call<Reply<WebhookEndpoint>>("GET", `/api/v1/webhook-endpoints/${endpoint.id}`, { key: tenant.key })).body.data;
    expect(got).toMatchObject({ enabled: true, consecutiveFailures: 14 });

    await consume([{ eventId: (await insertEvent(tenant)).id }]);
    got = (await call<Reply<WebhookEndpoint>>("GET", `/api/v1/webhook-endpoints/${endpoint.id}`, { key: tenant.key })).body.data;
    expect(got).toMatchObject({ enabled: false, disabledReason: "consecutive_failures", consecutiveFailures: 15 });
    expect(receiver.received).toHaveLength(15);
    expect(new Set((await deliveriesOf(endpoint.id)).map((d) => d.status))).toEqual(new Set(["failed"]));
    expect(await alarmOf(endpoint.id)).toBeNull();

    // A new event is not fanned out to it, and no attempt is made.
    await consume([{ eventId: (await insertEvent(tenant)).id }]);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(15);
    expect(receiver.received).toHaveLength(15);

    const enabled = await call<Reply<WebhookEndpoint>>("POST", `/api/v1/webhook-endpoints/${endpoint.id}/enable`, { key: tenant.key });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0 });
    expect(await endpointStub(endpoint.id).streak()).toBe(0);
  });
});

describe("the queue consumer", () => {
  it("acks each message on its own: one that throws mid-batch is retried, the others are acked", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const receiver = mockReceiver();
    const good1 = await insertEvent(tenant);
    const broken = await insertEvent(tenant);
    const good2 = await insertEvent(tenant);
    // Corrupt the stored payload so reading this event throws: raw SQL, since drizzle's json mode cannot store invalid JSON.
    await env.DB.prepare("UPDATE events SET data = '{not json' WHERE id = ?").bind(broken.id).run();
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { ids, result } = await consume([{ eventId: good1.id }, { eventId: broken.id }, { eventId: good2.id }]);
    expect(result.explicitAcks.sort()).toEqual([ids[0], ids[2]].sort());
    expect(result.retryMessages.map((m) => m.msgId)).toEqual([ids[1]]);
    expect(receiver.received.map((r) => JSON.parse(r.body).id).sort()).toEqual([good1.id, good2.id].sort());

    // Nothing lost: once readable, the retried message delivers it.
    await createDb(env.DB).update(events).set({ data: {} }).where(eq(events.id, broken.id));
    const again = await consume([{ eventId: broken.id }]);
    expect(again.result.explicitAcks).toEqual(again.ids);
    expect((await deliveriesOf(endpoint.id)).map((d) => d.event_id).sort()).toEqual([good1.id, broken.id, good2.id].sort());
  });
});
