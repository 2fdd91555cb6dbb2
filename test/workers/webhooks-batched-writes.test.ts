// A delivery wave's writes are batched (fan-out: one batch of three statements; attempt outcomes: one
// statement per run): what each receiver, delivery row and attempt log shows must be what one write per
// row gave — per delivery its own outcome, a failure never overwriting a success recorded meanwhile.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { countingD1 } from "../../src/db/query-counter";
import { backgroundDeps } from "../../src/deps";
import { attemptHttpDelivery } from "../../src/events/deliver";
import { fanOutEvents } from "../../src/events/fan-out";
import { recordEvent } from "../../src/events/outbox";
import { seedTenant } from "./support";
import { attemptsOf, consume, createEndpoint, deliveriesOf, insertEvent, mockReceiver } from "./webhooks-support";

afterEach(() => vi.restoreAllMocks());

describe("batched delivery writes", () => {
  it("a batch of events to a healthy and a failing endpoint: each delivery gets its own state and one logged attempt", async () => {
    const tenant = await seedTenant();
    const healthy = await createEndpoint(tenant, { url: "https://ok.merchant.com.br/hooks" });
    const failing = await createEndpoint(tenant, { url: "https://down.merchant.com.br/hooks" });
    const receiver = mockReceiver((req) =>
      req.url.startsWith("https://ok.") ? new Response("ok") : new Response("maintenance", { status: 503 }),
    );
    const sent = [await insertEvent(tenant), await insertEvent(tenant, "payment.created"), await insertEvent(tenant)];
    await consume(sent.map((e) => ({ eventId: e.id })));
    expect(receiver.received).toHaveLength(6);

    const good = await deliveriesOf(healthy.id);
    expect(good.map((d) => d.event_id).sort()).toEqual(sent.map((e) => e.id).sort());
    for (const d of good)
      expect(d).toMatchObject({
        status: "succeeded",
        attempt_count: 1,
        scheduled_attempts: 1,
        next_attempt_at: null,
        last_status_code: 200,
      });
    const bad = await deliveriesOf(failing.id);
    expect(bad).toHaveLength(3);
    for (const d of bad) {
      expect(d).toMatchObject({
        status: "retrying",
        attempt_count: 1,
        scheduled_attempts: 1,
        last_status_code: 503,
        last_error_kind: "http_status",
      });
      // The first retry is 10 s after the attempt.
      expect(Date.parse(d.next_attempt_at!) - Date.parse(d.last_attempt_at!)).toBeGreaterThanOrEqual(10_000);
    }
    for (const d of [...good, ...bad]) {
      const attempts = await attemptsOf(d.id);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ trigger: "automatic", status_code: d.last_status_code, attempted_at: d.last_attempt_at });
    }
    const fannedOut = await env.DB.prepare("SELECT count(*) AS n FROM events WHERE id IN (?, ?, ?) AND fanned_out_at IS NOT NULL")
      .bind(...sent.map((e) => e.id))
      .first<{ n: number }>();
    expect(fannedOut?.n).toBe(3);
  });

  it("fan-out of 150 events over two tenants costs one D1 round trip and makes exactly the matching deliveries, each with its own id", async () => {
    const [a, b] = [await seedTenant(), await seedTenant()];
    const everything = await createEndpoint(a);
    const createdOnly = await createEndpoint(a, { url: "https://created.merchant.com.br/hooks", eventKinds: ["payment.created"] });
    const disabled = await createEndpoint(a, { url: "https://off.merchant.com.br/hooks" });
    await env.DB.prepare("UPDATE webhook_endpoints SET enabled = 0 WHERE id = ?").bind(disabled.id).run();
    const other = await createEndpoint(b);
    const ofA = [];
    for (let i = 0; i < 100; i++) ofA.push(await insertEvent(a, i % 4 === 0 ? "payment.created" : "payment.received"));
    const ofB = [];
    for (let i = 0; i < 50; i++) ofB.push(await insertEvent(b));

    let roundTrips = 0;
    const deps = backgroundDeps({ ...env, DB: countingD1(env.DB, () => roundTrips++) });
    const open = await fanOutEvents(
      deps,
      [...ofA, ...ofB].map((e) => e.id),
    );
    expect(roundTrips).toBe(1);
    expect(open.get(everything.id)).toHaveLength(100);
    expect(open.get(createdOnly.id)).toHaveLength(25);
    expect(open.get(other.id)).toHaveLength(50);
    expect(open.has(disabled.id)).toBe(false);
    expect((await deliveriesOf(createdOnly.id)).every((d) => d.event_type === "payment.created")).toBe(true);
    expect(await deliveriesOf(disabled.id)).toEqual([]);
    const made = [...open.values()].flat();
    expect(new Set(made).size).toBe(175);
    for (const id of made) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    // A second fan-out of the same events adds no delivery; their first attempts, not made yet, are read back open.
    roundTrips = 0;
    const again = await fanOutEvents(
      deps,
      [...ofA, ...ofB].map((e) => e.id),
    );
    expect(roundTrips).toBe(1);
    expect(again.get(everything.id)).toHaveLength(100);
    expect((await deliveriesOf(everything.id)).length).toBe(100);
  });

  it("more than two waves to one endpoint: each delivery sent once, its state and attempt row written, at most 10 requests at a time", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    let open = 0;
    let most = 0;
    const receiver = mockReceiver(async () => {
      most = Math.max(most, ++open);
      await new Promise((r) => setTimeout(r, 1));
      open--;
      return new Response("ok");
    });
    const deps = backgroundDeps(env);
    const made = Array.from({ length: 120 }, (_, i) => recordEvent(deps, tenant, "payment.received", { id: `p${i}` }));
    const [first, ...rest] = made.map((m) => m.statement);
    await deps.db.batch([first!, ...rest]);
    await consume(made.map((m) => ({ eventId: m.event.id })));

    expect(receiver.received).toHaveLength(120);
    expect(new Set(receiver.received.map((r) => r.headers["x-service-delivery"])).size).toBe(120);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(10);
    const stored = await deliveriesOf(endpoint.id);
    expect(stored).toHaveLength(120);
    for (const d of stored) expect(d).toMatchObject({ status: "succeeded", attempt_count: 1, last_status_code: 200 });
    const logged = await Promise.all(stored.map((d) => attemptsOf(d.id)));
    for (const attempts of logged) expect(attempts).toHaveLength(1);
  });

  it("a failed automatic attempt does not overwrite a success recorded while it was in flight", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    // While the automatic attempt waits for its answer, a manual redeliver succeeds and settles the delivery.
    mockReceiver(async (req) => {
      await env.DB.prepare("UPDATE webhook_deliveries SET status = 'succeeded', attempt_count = 1, next_attempt_at = NULL WHERE id = ?")
        .bind(req.headers["x-service-delivery"])
        .run();
      return new Response("nope", { status: 500 });
    });
    const event = await insertEvent(tenant);
    await consume([{ eventId: event.id }]);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempt_count: 1, next_attempt_at: null });
    // The failed attempt still happened and is in the log.
    expect((await attemptsOf(delivery!.id)).map((a) => a.status_code)).toEqual([500]);
  });

  it("a short body is read whole when its length is declared; a declared body that never arrives still times out", async () => {
    const short = async () => new Response("ok", { status: 200, headers: { "Content-Length": "2" } });
    expect((await attemptHttpDelivery("https://a.merchant.com.br/", {}, "{}", { fetcher: short })).responseExcerpt).toBe("ok");
    const stalled = async () => new Response(new ReadableStream({ start() {} }), { status: 200, headers: { "Content-Length": "10" } });
    const outcome = await attemptHttpDelivery("https://a.merchant.com.br/", {}, "{}", { fetcher: stalled, timeoutMs: 20 });
    expect(outcome).toMatchObject({ succeeded: false, errorKind: "timeout" });
  });
});
