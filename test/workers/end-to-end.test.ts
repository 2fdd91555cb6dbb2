// The whole loop a merchant relies on, through public routes only: create a payment, confirm it with
// the sandbox action (passthrough, native id translated), the simulator's webhook updates the payment,
// and the outbox delivers signed events to the merchant's endpoint through the real queue.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createCustomer, dueDate, eventsOf, seedBillingTenant } from "./billing-support";
import { call, type Envelope } from "./support";
import { createEndpoint, hmacHex, mockReceiver } from "./webhooks-support";
import type { JsonObject, Payment, Reply, UpstreamMeta } from "./bodies";

afterEach(() => vi.restoreAllMocks());

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("payment → sandbox confirm → inbound webhook → outbound delivery", () => {
  it.each([
    // The simulator's overdue also moves the due date into the past: Ponte mirrors it (payment.updated).
    ["PIX", "confirm", "RECEIVED", "payment.received", ["payment.created", "payment.received"]],
    ["BOLETO", "overdue", "OVERDUE", "payment.overdue", ["payment.created", "payment.updated", "payment.overdue"]],
  ])("%s payment, sandbox %s → %s, and %s reaches the merchant signed", async (billingType, action, status, kind, recorded) => {
    const t = await seedBillingTenant();
    const endpoint = await createEndpoint(t, { eventKinds: ["payment.created", kind] });
    const receiver = mockReceiver();

    const customer = await createCustomer(t);
    const created = await call<Reply<Payment>>("POST", "/api/v1/payments", {
      key: t.key,
      body: { customer: customer.id, billingType, value: "129.90", dueDate: dueDate() },
    });
    expect(created.status).toBe(200);
    const payment = created.body.data;

    const sandbox = await call<Envelope<JsonObject> & { meta: UpstreamMeta }>("POST", `/api/v1/sandbox/payment/${payment.id}/${action}`, {
      key: t.key,
      body: {},
    });
    expect(sandbox.status).toBe(200);
    expect(sandbox.body.data).toMatchObject({ id: payment.id, upstreamId: payment.upstreamId, status }); // Ponte's vocabulary
    expect(sandbox.body.meta.upstream.status).toBe(200);

    const after = await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key });
    expect(after.body.data.status).toBe(status);
    expect((await eventsOf(t)).map((e: { type: string }) => e.type)).toEqual(recorded);

    const deliveries = await until(async () => {
      const mine = receiver.received.filter((r) => r.url === "https://hooks.merchant.com.br/ponte");
      return mine.length >= 2 ? mine : undefined;
    });
    const types = deliveries.map((d) => d.headers["x-service-event"]).sort();
    expect(types).toEqual(["payment.created", kind].sort());
    for (const d of deliveries) {
      const [, t0, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(d.headers["x-service-signature"]!)!;
      expect(v1).toBe(await hmacHex(endpoint.secret, `${t0}.${d.body}`));
      const envelope = JSON.parse(d.body);
      expect(envelope.data.id).toBe(payment.id);
      expect(envelope.data.value).toBe("129.90");
    }
  });
});
