// EndpointDO takes its time from an injected clock (`now`), like every service: what is due, when an
// attempt happened and when the endpoint was disabled all follow it.
import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LIMITS } from "../../src/config";
import type { EndpointDO } from "../../src/events/endpoint-do";
import { seedTenant } from "./support";
import { attemptsOf, consume, createEndpoint, deliveriesOf, endpointStub, insertEvent, mockReceiver } from "./webhooks-support";

afterEach(() => vi.restoreAllMocks());

describe("EndpointDO clock", () => {
  it("a retry due by the injected clock is attempted at that time; the disabling streak is stamped with it", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const receiver = mockReceiver(() => new Response("nope", { status: 500 }));
    const event = await insertEvent(tenant);
    await consume([{ eventId: event.id }]);
    const [first] = await deliveriesOf(endpoint.id);
    expect(first).toMatchObject({ status: "retrying", attempt_count: 1 });

    // An hour after the retry was due, by the object's clock; the real clock has not got there.
    const later = new Date(Date.parse(first!.next_attempt_at!) + 60 * 60 * 1000);
    await runInDurableObject(endpointStub(endpoint.id), async (instance: EndpointDO, state) => {
      instance.now = () => later;
      state.storage.kv.delete("alarmAt");
      // One failure short of disabling: in storage and in the copy the object keeps of it.
      state.storage.kv.put("streak", LIMITS.webhookDisableAfterConsecutiveFailures - 1);
      instance.kept.streak = LIMITS.webhookDisableAfterConsecutiveFailures - 1;
      await instance.alarm();
    });

    expect(receiver.received).toHaveLength(2);
    const attempts = await attemptsOf(first!.id);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.attempted_at).toBe(later.toISOString());
    const stored = await env.DB.prepare("SELECT enabled, disabled_reason, disabled_at FROM webhook_endpoints WHERE id = ?")
      .bind(endpoint.id)
      .first();
    expect(stored).toEqual({ enabled: 0, disabled_reason: "consecutive_failures", disabled_at: later.toISOString() });
  });

  it("without an injected clock it reads the real time: a retry not yet due is left alone", async () => {
    const tenant = await seedTenant();
    const endpoint = await createEndpoint(tenant);
    const receiver = mockReceiver(() => new Response("nope", { status: 500 }));
    const event = await insertEvent(tenant);
    await consume([{ eventId: event.id }]);
    await runInDurableObject(endpointStub(endpoint.id), async (instance: EndpointDO, state) => {
      state.storage.kv.delete("alarmAt");
      await instance.alarm();
    });
    expect(receiver.received).toHaveLength(1);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: "retrying", attempt_count: 1 });
  });
});
