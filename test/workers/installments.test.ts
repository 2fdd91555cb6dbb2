// Installment plans on POST /payments (issue 12, point 3): one Ponte charge per instalment with the
// same `installment` id, listed with ?installment=, refunded and canceled one by one.
import { describe, expect, it } from "vitest";
import type { Payment, Reply } from "./bodies";
import { createCustomer, dueDate, eventsOf, seedBillingTenant, sim, type BillingTenant } from "./billing-support";
import { call, expectError } from "./support";

async function createPlan(t: BillingTenant, body: Record<string, unknown>) {
  const customer = await createCustomer(t);
  return call<Reply<Payment>>("POST", "/api/v1/payments", {
    key: t.key,
    body: { customer: customer.id, billingType: "PIX", dueDate: dueDate(5), description: "Curso", ...body },
  });
}
const planOf = async (t: BillingTenant, installment: string | null) =>
  (await call<Reply<Payment[]>>("GET", `/api/v1/payments?installment=${installment}&limit=100`, { key: t.key })).body.data.sort(
    (a, b) => (a.installmentNumber ?? 0) - (b.installmentNumber ?? 0),
  );

describe("installment plans", () => {
  it("totalValue 100.00 in 3: one charge per instalment (33.34 + 33.33 + 33.33), a month apart, payment.created each", async () => {
    const t = await seedBillingTenant();
    const res = await createPlan(t, { installmentCount: 3, totalValue: "100.00" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ installmentNumber: 1, value: "33.34", origin: "api", status: "PENDING" });
    const plan = await planOf(t, res.body.data.installment);
    expect(plan.map((p) => [p.installmentNumber, p.value])).toEqual([
      [1, "33.34"],
      [2, "33.33"],
      [3, "33.33"],
    ]);
    expect(new Set(plan.map((p) => p.installment))).toEqual(new Set([res.body.data.installment]));
    expect(plan.map((p) => p.dueDate)).toEqual([dueDate(5), expect.any(String), expect.any(String)]);
    expect(plan[1]!.dueDate > plan[0]!.dueDate && plan[2]!.dueDate > plan[1]!.dueDate).toBe(true);
    expect(plan.every((p) => p.origin === "api")).toBe(true);
    // The plan's own webhooks and the answer together: one record and one payment.created per instalment.
    expect((await eventsOf(t, "payment.created")).map((e) => e.data.id).sort()).toEqual(plan.map((p) => p.id).sort());
    expect((await call<Reply<Payment[]>>("GET", "/api/v1/payments", { key: t.key })).body.data).toHaveLength(3);
  });

  it("installmentValue each; every instalment is refunded or canceled on its own", async () => {
    const t = await seedBillingTenant();
    const res = await createPlan(t, { installmentCount: 2, installmentValue: 49.9 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [first, second] = await planOf(t, res.body.data.installment);
    expect([first?.value, second?.value]).toEqual(["49.90", "49.90"]);
    await sim("POST", `/v3/sandbox/payment/${first?.upstreamId}/confirm`, {}, t.upstreamKey);
    const refunded = await call<Reply<Payment>>("POST", `/api/v1/payments/${first?.id}/refund`, { key: t.key, body: {} });
    expect(refunded.body.data).toMatchObject({ status: "REFUNDED", refundedValue: "49.90" });
    const canceled = await call<Reply<Payment>>("DELETE", `/api/v1/payments/${second?.id}`, { key: t.key });
    expect(canceled.body.data.status).toBe("CANCELED");
    expect((await planOf(t, res.body.data.installment)).map((p) => p.status)).toEqual(["REFUNDED", "CANCELED"]);
  });

  it("refuses a plan without exactly one of installmentValue/totalValue, with value, or past the limits, and stores nothing", async () => {
    const t = await seedBillingTenant();
    for (const [body, field] of [
      [{ installmentCount: 3 }, "body.installmentValue"],
      [{ installmentCount: 3, installmentValue: "10.00", totalValue: "30.00" }, "body.installmentValue"],
      [{ installmentCount: 3, value: "10.00", totalValue: "30.00" }, "body.value"],
      [{ installmentCount: 1, totalValue: "30.00" }, "body.installmentCount"],
      [{ installmentCount: 61, totalValue: "300.00" }, "body.installmentCount"],
      [{ installmentCount: 22, totalValue: "300.00", billingType: "CREDIT_CARD", creditCardToken: "tok" }, "body.installmentCount"],
      [{ totalValue: "30.00", value: "30.00" }, "body.totalValue"],
      [{}, "body.value"],
    ] as const) {
      const err = expectError(await createPlan(t, body), 400, "VALIDATION_FAILED");
      expect(
        err.details.fields.map((f) => f.path),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect((await call<Reply<Payment[]>>("GET", "/api/v1/payments", { key: t.key })).body.data).toEqual([]);
    expectError(await call("GET", "/api/v1/payments?installment=ins_1", { key: t.key }), 400, "VALIDATION_FAILED");
  });
});
