// Nothing lost and nothing stuck: timeouts, the cron sweepers (lost enqueue, lost alarm), secret
// rotation overlap, redeliver and recover.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { createDb } from "../../src/db/client";
import { webhookDeliveries, webhookEndpoints } from "../../src/db/schema";
import { LIMITS } from "../../src/config";
import { attemptHttpDelivery } from "../../src/events/deliver";
import worker from "../../src/index";
import { call, seedTenant } from "./support";
import { alarmOf, attemptsOf, consume, createEndpoint, deliveriesOf, hmacHex, insertEvent, mockReceiver } from "./webhooks-support";
import type { AttemptResult, RecoverResult, Reply, WebhookEndpoint, WebhookEndpointWithSecret } from "./bodies";

afterEach(() => vi.restoreAllMocks());

/** Runs the worker's scheduled() with a queue that records what the sweeper enqueues. */
async function runCron() {
  const sent: unknown[] = [];
  const queue = {
    send: async (b: unknown) => void sent.push(b),
    sendBatch: async (ms: { body: unknown }[]) => void sent.push(...ms.map((m) => m.body)),
  } as unknown as Queue<unknown>;
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ cron: "* * * * *" }), { ...env, EVENTS_QUEUE: queue }, ctx);
  await waitOnExecutionContext(ctx);
  return sent;
}

describe("timeouts", () => {
  it("an attempt that gets no answer in time is a timeout (the fetch is aborted)", async () => {
    let aborted = false;
    const never = (_url: string, init: RequestInit) =>
      new Promise<Response>((_, reject) =>
        init.signal?.addEventListener("abort", () => {
          aborted = true;
          reject(init.signal?.reason);
        }),
      );
    const outcome = await attemptHttpDelivery("https://hooks.merchant.com.br/x", {}, "{}", { fetcher: never, timeoutMs: 30 });
    expect(outcome).toMatchObject({ succeeded: false, statusCode: null, errorKind: "timeout" });
    expect(aborted).toBe(true);
    expect(LIMITS.webhookDeliveryTimeoutMs).toBe(10_000);
  });

  it("a fetcher that ignores the abort still times out, and a slow body counts against the same limit", async () => {
    const ignores = () => new Promise<Response>(() => undefined);
    expect((await attemptHttpDelivery("https://a.merchant.com.br/", {}, "{}", { fetcher: ignores, timeoutMs: 20 })).errorKind).toBe(
      "timeout",
    );
    const slowBody = async () =>
      new Response(
        new ReadableStream({
          start() {
            /* never enqueues */
          },
        }),
        { status: 200 },
      );
    expect((await attemptHttpDelivery("https://a.merchant.com.br/", {}, "{}", { fetcher: slowBody, timeoutMs: 20 })).errorKind).toBe(
      "timeout",
    );
  });

  it("keeps only the first 1 KiB of the response body", async () => {
    const big = async () => new Response("a".repeat(5000), { status: 200 });
    const outcome = await attemptHttpDelivery("https://a.merchant.com.br/", {}, "{}", { fetcher: big });
    expect(outcome.succeeded).toBe(true);
    expect(outcome.responseExcerpt).toBe("a".repeat(1024));
  });

  it("keeps the first 1 KiB of a body sent in chunks without a length, and the whole of a short one", async () => {
    const chunked = (parts: string[]) => async () =>
      new Response(
        new ReadableStream({
          type: "bytes",
          pull(controller) {
            const part = parts.shift();
            if (part === undefined) controller.close();
            else controller.enqueue(new TextEncoder().encode(part));
          },
        }),
        { status: 200 },
      );
    const long = await attemptHttpDelivery("https://a.merchant.com.br/", {}, "{}", {
      fetcher: chunked(["a".repeat(400), "b".repeat(400), "c".repeat(400), "d".repeat(400)]),
    });
    expect(long.responseExcerpt).toBe(`${"a".repeat(400)}${"b".repeat(400)}${"c".repeat(224)}`);
    const short = await attemptHttpDelivery("https://a.merchant.com.br/", {}, "{}", { fetcher: chunked(["o", "k"]) });
    expect(short).toMatchObject({ succeeded: true, responseExcerpt: "ok" });
    const empty = await attemptHttpDelivery("https://a.merchant.com.br/", {}, "{}", { fetcher: chunked([]) });
    expect(empty).toMatchObject({ succeeded: true, responseExcerpt: "" });
  });
});

describe("the cron sweepers", () => {
  it("re-enqueue an event whose enqueue was lost, and its delivery follows", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const receiver = mockReceiver();
    const lost = await insertEvent(tenant, "payment.created", { id: "p1" }, new Date(Date.now() - 2 * 60_000));
    const fresh = await insertEvent(tenant, "payment.created", { id: "p2" }); // inside the grace period: left alone
    const sent = await runCron();
    expect(sent).toContainEqual({ eventId: lost.id });
    expect(sent).not.toContainEqual({ eventId: fresh.id });

    await consume(sent.filter((b) => (b as { eventId: string }).eventId === lost.id));
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ event_id: lost.id, status: "succeeded" });
    expect(JSON.parse(receiver.received[0]!.body).id).toBe(lost.id);
    // Fanned out now, so the next sweep leaves it alone.
    expect(await runCron()).not.toContainEqual({ eventId: lost.id });
  });

  it("wake the EndpointDO of a delivery whose retry is overdue (a lost alarm)", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const receiver = mockReceiver(() => new Response("x", { status: 500 }));
    await consume([{ eventId: (await insertEvent(tenant)).id }]);
    const [delivery] = await deliveriesOf(endpoint.id);
    // Simulate the lost alarm: the retry is long overdue and no alarm is set.
    await createDb(env.DB)
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(Date.now() - 5 * 60_000).toISOString() })
      .where(eq(webhookDeliveries.id, delivery!.id));
    const { runInDurableObject } = await import("cloudflare:test");
    const { endpointStub } = await import("./webhooks-support");
    await runInDurableObject(endpointStub(endpoint.id), (_i, state) => state.storage.deleteAlarm());
    expect(await alarmOf(endpoint.id)).toBeNull();

    receiver.answer(() => new Response("ok"));
    await runCron();
    // Woken: the alarm is due now and delivers.
    await vi.waitFor(async () => expect((await deliveriesOf(endpoint.id))[0]!.status).toBe("succeeded"), { timeout: 2000, interval: 20 });
    expect(receiver.received).toHaveLength(2);
  });
});

describe("secret rotation", () => {
  it("signs with new and old secret (t=…,v1=new,v1=old) for 24 h, then with the new one only", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const rotated = await call<Reply<WebhookEndpointWithSecret>>("POST", `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      key: tenant.key,
    });
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.data.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.body.data.previousSecretExpiresAt ?? "") - Date.parse(rotated.body.data.secretRotatedAt ?? "")).toBe(
      24 * 3600 * 1000,
    );

    const receiver = mockReceiver();
    await consume([{ eventId: (await insertEvent(tenant)).id }]);
    const first = receiver.received[0]!;
    const parts = first.headers["x-service-signature"]!.split(",");
    expect(parts).toHaveLength(3);
    const t = parts[0]!.slice(2);
    expect(parts[1]).toBe(`v1=${await hmacHex(newSecret, `${t}.${first.body}`)}`);
    expect(parts[2]).toBe(`v1=${await hmacHex(endpoint.secret, `${t}.${first.body}`)}`);

    // 24 h later (moved by rewriting the stored expiry), only the new secret signs.
    await createDb(env.DB)
      .update(webhookEndpoints)
      .set({ previousSecretExpiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await consume([{ eventId: (await insertEvent(tenant)).id }]);
    const second = receiver.received[1]!;
    const [t2, v1, ...rest] = second.headers["x-service-signature"]!.split(",");
    expect(rest).toEqual([]);
    expect(v1).toBe(`v1=${await hmacHex(newSecret, `${t2!.slice(2)}.${second.body}`)}`);
  });
});

describe("signing keys kept by the endpoint's object", () => {
  it("a rotation signs the very next delivery: the object's kept keys give way to the new secret at once", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const receiver = mockReceiver();
    const signatureOf = (n: number) => {
      const got = receiver.received[n]!;
      const [t, ...v1s] = got.headers["x-service-signature"]!.split(",");
      return { message: `${t!.slice(2)}.${got.body}`, v1s };
    };
    // Before the rotation: the old secret alone (the object now keeps its imported key).
    await consume([{ eventId: (await insertEvent(tenant)).id }]);
    const before = signatureOf(0);
    expect(before.v1s).toEqual([`v1=${await hmacHex(endpoint.secret, before.message)}`]);

    const rotated = await call<Reply<WebhookEndpointWithSecret>>("POST", `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      key: tenant.key,
    });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.data.secret;
    // The next delivery, same object: the new secret first, the old one beside it for the overlap.
    await consume([{ eventId: (await insertEvent(tenant)).id }]);
    const after = signatureOf(1);
    expect(after.v1s).toEqual([`v1=${await hmacHex(newSecret, after.message)}`, `v1=${await hmacHex(endpoint.secret, after.message)}`]);

    // A second rotation at once: the first new secret is now the previous one, the first secret no longer signs.
    const again = await call<Reply<WebhookEndpointWithSecret>>("POST", `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      key: tenant.key,
    });
    await consume([{ eventId: (await insertEvent(tenant)).id }]);
    const third = signatureOf(2);
    expect(third.v1s).toEqual([
      `v1=${await hmacHex(again.body.data.secret, third.message)}`,
      `v1=${await hmacHex(newSecret, third.message)}`,
    ]);
    expect(receiver.received).toHaveLength(3);
  });
});

describe("redeliver and recover", () => {
  it("redeliver attempts a failed delivery now, with the same delivery id, and records the attempt", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const receiver = mockReceiver(() => new Response("no", { status: 500 }));
    await consume([{ eventId: (await insertEvent(tenant)).id }]);
    const [delivery] = await deliveriesOf(endpoint.id);
    receiver.answer(() => new Response("thanks", { status: 200 }));
    const res = await call<Reply<AttemptResult>>("POST", `/api/v1/webhook-logs/${delivery!.id}/redeliver`, { key: tenant.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      deliveryId: delivery!.id,
      trigger: "manual",
      succeeded: true,
      statusCode: 200,
      errorKind: null,
      responseExcerpt: "thanks",
    });
    expect(receiver.received.map((r) => r.headers["x-service-delivery"])).toEqual([delivery!.id, delivery!.id]);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: "succeeded", attempt_count: 2, next_attempt_at: null });
    expect(await attemptsOf(delivery!.id)).toHaveLength(2);
  });

  it("recover re-queues the endpoint's failed deliveries since the given time; a disabled endpoint must be enabled first", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    mockReceiver(() => new Response("no", { status: 500 }));
    const since = new Date().toISOString();
    await consume([{ eventId: (await insertEvent(tenant)).id }, { eventId: (await insertEvent(tenant)).id }]);
    await createDb(env.DB)
      .update(webhookDeliveries)
      .set({ status: "failed", nextAttemptAt: null })
      .where(eq(webhookDeliveries.endpointId, endpoint.id));

    const receiver = mockReceiver();
    const res = await call<Reply<RecoverResult>>("POST", `/api/v1/webhook-endpoints/${endpoint.id}/recover`, {
      key: tenant.key,
      body: { since },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ object: "webhook_recovery", endpointId: endpoint.id, requeued: 2 });
    await vi.waitFor(async () => expect((await deliveriesOf(endpoint.id)).map((d) => d.status)).toEqual(["succeeded", "succeeded"]), {
      timeout: 2000,
      interval: 20,
    });
    expect(receiver.received).toHaveLength(2);

    await call<Reply<WebhookEndpoint>>("PATCH", `/api/v1/webhook-endpoints/${endpoint.id}`, { key: tenant.key, body: { enabled: false } });
    const refused = await call<Reply<RecoverResult>>("POST", `/api/v1/webhook-endpoints/${endpoint.id}/recover`, {
      key: tenant.key,
      body: { since },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("INVALID_STATE");
    const bad = await call<Reply<RecoverResult>>("POST", `/api/v1/webhook-endpoints/${endpoint.id}/recover`, {
      key: tenant.key,
      body: { since: "yesterday" },
    });
    expect(bad.status).toBe(400);
  });
});
