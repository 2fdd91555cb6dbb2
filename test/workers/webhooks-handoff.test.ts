// Issue 15: the committing request hands its events to their endpoints itself (no queue hop), the queue
// is the fallback when that hand-off fails, and the sweeper still covers a crash between commit and
// hand-off. Exactly one delivery per endpoint and event on every path.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { backgroundDeps, type Deps } from "../../src/deps";
import { LIMITS } from "../../src/config";
import { fanOutEvents } from "../../src/events/fan-out";
import { dispatchEvents, recordEvent } from "../../src/events/outbox";
import { sweepOverdueDeliveries } from "../../src/events/sweeper";
import { createEndpoint, deliveriesOf, endpointStub, mockReceiver } from "./webhooks-support";
import { seedTenant, type TestTenant } from "./support";

afterEach(() => vi.restoreAllMocks());

/** Deps whose waitUntil work the test can await, with a queue that records what it is sent. */
function trackedDeps(overrides: Partial<Deps["env"]> = {}) {
  const pending: Promise<unknown>[] = [];
  const enqueued: unknown[] = [];
  const queue = {
    send: async (body: unknown) => void enqueued.push(body),
    sendBatch: async (messages: { body: unknown }[]) => void enqueued.push(...messages.map((m) => m.body)),
  } as unknown as Queue;
  const deps: Deps = {
    ...backgroundDeps({ ...env, EVENTS_QUEUE: queue, ...overrides }, (p) => pending.push(p)),
  };
  return { deps, enqueued, settled: () => Promise.all(pending) };
}

async function commitEvent(deps: Deps, tenant: TestTenant) {
  const { event, statement } = recordEvent(deps, tenant, "payment.received", { id: crypto.randomUUID(), value: "250.00" });
  await deps.db.batch([statement]);
  return event;
}

describe("event hand-off from the committing request", () => {
  it("delivers to every matching endpoint without the queue, once each", async () => {
    const tenant = await seedTenant();
    const [a, b] = [await createEndpoint(tenant), await createEndpoint(tenant, { url: "https://hooks.merchant.com.br/b" })];
    const receiver = mockReceiver();
    const { deps, enqueued, settled } = trackedDeps();
    const event = await commitEvent(deps, tenant);
    dispatchEvents(deps, [event]);
    await settled();
    expect(enqueued).toEqual([]);
    expect(receiver.received.map((r) => JSON.parse(r.body).id)).toEqual([event.id, event.id]);
    for (const endpoint of [a, b]) {
      const deliveries = await deliveriesOf(endpoint.id);
      expect(deliveries.map((d) => [d.event_id, d.status, d.attempt_count])).toEqual([[event.id, "succeeded", 1]]);
    }
  });

  it("falls back to the queue when the hand-off fails, and the queue's fan-out adds no second delivery", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const receiver = mockReceiver();
    const broken = { get: () => ({ deliverNow: () => Promise.reject(new Error("object unreachable")) }), idFromName: () => ({}) };
    const { deps, enqueued, settled } = trackedDeps({ ENDPOINT_DO: broken as unknown as Deps["env"]["ENDPOINT_DO"] });
    const event = await commitEvent(deps, tenant);
    dispatchEvents(deps, [event]);
    await settled();
    expect(enqueued).toEqual([{ eventId: event.id }]);
    expect(receiver.received).toHaveLength(0);
    // The queue consumer picks it up: the delivery written by the failed hand-off is reused, not doubled.
    const { consume } = await import("./webhooks-support");
    await consume(enqueued);
    expect(receiver.received.map((r) => JSON.parse(r.body).id)).toEqual([event.id]);
    expect((await deliveriesOf(endpoint.id)).map((d) => d.status)).toEqual(["succeeded"]);
  });

  it("two hand-offs of the same event racing (request and queue) send it once", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const receiver = mockReceiver(async () => {
      await gate;
      return new Response("ok");
    });
    const { deps, settled } = trackedDeps();
    const event = await commitEvent(deps, tenant);
    dispatchEvents(deps, [event]);
    const { consume } = await import("./webhooks-support");
    const queued = consume([{ eventId: event.id }]);
    await new Promise((r) => setTimeout(r, 50));
    release();
    await Promise.all([settled(), queued]);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveriesOf(endpoint.id)).map((d) => [d.status, d.attempt_count])).toEqual([["succeeded", 1]]);
  });

  it("the sweeper leaves a first attempt the committing request is still handing off, until its lease has run out", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const woken: string[] = [];
    const recording = { idFromName: (name: string) => name, get: (name: string) => ({ wake: async () => void woken.push(name) }) };
    const at = (date: Date) => ({
      ...backgroundDeps({ ...env, ENDPOINT_DO: recording as unknown as Deps["env"]["ENDPOINT_DO"] }),
      now: () => date,
    });
    const committedAt = new Date();
    const deps = at(committedAt);
    const event = await commitEvent(deps, tenant);
    // The request has fanned out and is about to hand the delivery to its endpoint.
    expect([...(await fanOutEvents(deps, [event.id])).keys()]).toEqual([endpoint.id]);
    const seconds = (n: number) => new Date(committedAt.getTime() + n * 1000);

    // The sweeper's grace has passed since the commit, but not the hand-off's lease on top of it.
    const withinLease = LIMITS.webhookSweepGraceSeconds + LIMITS.webhookHandOffLeaseSeconds - 1;
    await sweepOverdueDeliveries(at(seconds(withinLease)));
    expect(woken).not.toContain(endpoint.id);
    expect((await deliveriesOf(endpoint.id)).map((d) => [d.status, d.attempt_count])).toEqual([["pending", 0]]);

    // A hand-off that never came: once the lease and the grace are over, the sweeper wakes the endpoint.
    await sweepOverdueDeliveries(at(seconds(withinLease + 2)));
    expect(woken).toContain(endpoint.id);
  });
});

describe("the endpoint's cap on requests in flight", () => {
  it("two runs at once on one endpoint never have more than 10 requests in flight together, and send each delivery once", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    let inFlight = 0;
    let most = 0;
    const receiver = mockReceiver(async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      // Held over a turn of the event loop, so every sender that can start a request does so meanwhile.
      await new Promise((r) => setTimeout(r, 1));
      inFlight -= 1;
      return new Response("ok");
    });
    const { deps } = trackedDeps();
    const events = [];
    for (let i = 0; i < 30; i++) events.push(await commitEvent(deps, tenant));
    const ids =
      (
        await fanOutEvents(
          deps,
          events.map((e) => e.id),
        )
      ).get(endpoint.id) ?? [];
    expect(ids).toHaveLength(30);
    // Two hand-offs to the same object at once (a request's and the queue's, say), 15 deliveries each.
    const stub = endpointStub(endpoint.id);
    await Promise.all([stub.deliverNow(endpoint.id, ids.slice(0, 15)), stub.deliverNow(endpoint.id, ids.slice(15))]);
    expect(most).toBe(10);
    expect(receiver.received.map((r) => r.headers["x-service-delivery"]).sort()).toEqual([...ids].sort());
    const deliveries = await deliveriesOf(endpoint.id);
    expect(deliveries.map((d) => [d.status, d.attempt_count])).toEqual(ids.map(() => ["succeeded", 1]));
  });
});
