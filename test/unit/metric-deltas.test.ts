import { describe, expect, it } from "vitest";
import { expenseDeltas, metricDeltas, monthlyCents, type PaymentFacts } from "../../src/events/metric-rollups";
import { localDay, localDays } from "../../src/lib/time-zones";

const AT = "2026-11-24T02:30:00.000Z"; // 23:30 on the 23rd in São Paulo
const pay = (status: string, extra: Partial<PaymentFacts> = {}): PaymentFacts => ({
  status,
  valueCents: 25000,
  refundedCents: 0,
  netValueCents: 24901,
  paymentDate: null,
  createdAt: AT,
  ...extra,
});

describe("metricDeltas (payments)", () => {
  it("created: billed and pending, by creation", () => {
    expect(metricDeltas("payment.created", { payment: { before: null, after: pay("PENDING") } }, AT)).toEqual([
      { metric: "billed", value: 25000, at: AT },
      { metric: "pending_amount", value: 25000, at: AT },
    ]);
  });
  it("PENDING → RECEIVED: revenue and fees on the payment date, pending leaves", () => {
    const after = pay("RECEIVED", { paymentDate: "2026-11-23" });
    expect(metricDeltas("payment.received", { payment: { before: pay("PENDING"), after } }, AT)).toEqual([
      { metric: "revenue", value: 25000, day: "2026-11-23" },
      { metric: "payment_fees", value: 99, day: "2026-11-23" },
      { metric: "pending_amount", value: -25000, at: AT },
    ]);
  });
  it("CONFIRMED → RECEIVED counts nothing twice; OVERDUE → RECEIVED moves overdue", () => {
    expect(metricDeltas("payment.received", { payment: { before: pay("CONFIRMED"), after: pay("RECEIVED") } }, AT)).toEqual([]);
    const d = metricDeltas("payment.received", { payment: { before: pay("OVERDUE"), after: pay("RECEIVED") } }, AT);
    expect(d.map((x) => [x.metric, x.value])).toEqual([
      ["revenue", 25000],
      ["payment_fees", 99],
      ["overdue_amount", -25000],
    ]);
  });
  it("refunds: the amount given, or the change in refunded value", () => {
    expect(
      metricDeltas("payment.refunded", { payment: { before: pay("RECEIVED"), after: pay("RECEIVED"), refundCents: 4010 } }, AT),
    ).toEqual([{ metric: "refunds", value: 4010, at: AT }]);
    const d = metricDeltas(
      "payment.refunded",
      { payment: { before: pay("RECEIVED"), after: pay("REFUNDED", { refundedCents: 25000 }) } },
      AT,
    );
    expect(d).toEqual([{ metric: "refunds", value: 25000, at: AT }]);
  });
});

describe("subscriptions and expenses", () => {
  const sub = (status: string) => ({ id: "s1", customerId: "c1", status, valueCents: 1000, cycle: "WEEKLY", createdAt: AT });
  it("created and canceled: counts, mrr, paying customers (conditional)", () => {
    const created = metricDeltas("subscription.created", { subscription: { before: null, after: sub("ACTIVE") } }, AT);
    expect(created.map((x) => [x.metric, x.value])).toEqual([
      ["new_subscriptions", 1],
      ["active_subscriptions", 1],
      ["mrr", 4333],
      ["paying_customers", 1],
    ]);
    expect(created[3]!.unlessOtherActive).toEqual({ customerId: "c1", subscriptionId: "s1" });
    const canceled = metricDeltas("subscription.canceled", { subscription: { before: sub("ACTIVE"), after: sub("CANCELED") } }, AT);
    expect(canceled.map((x) => [x.metric, x.value])).toEqual([
      ["canceled_subscriptions", 1],
      ["active_subscriptions", -1],
      ["mrr", -4333],
      ["paying_customers", -1],
    ]);
  });
  it("monthlyCents rounds half-even once per subscription", () => {
    expect(monthlyCents(1000, "WEEKLY")).toBe(4333);
    expect(monthlyCents(12000, "YEARLY")).toBe(1000);
    expect(monthlyCents(6, "YEARLY")).toBe(0); // 0.5 → 0 (even)
    expect(monthlyCents(18, "YEARLY")).toBe(2); // 1.5 → 2 (even)
    expect(monthlyCents(999, "MONTHLY")).toBe(999);
  });
  it("an expense update moves the difference; CANCELED counts nothing", () => {
    const e = { amountBrlCents: 1000, incurredOn: "2026-05-02", status: "PAID", source: "AWS", costCategoryId: "k" };
    expect(expenseDeltas(null, e).map((x) => [x.metric, x.value])).toEqual([
      ["expenses", 1000],
      ["expenses.category.k", 1000],
      ["aws_costs", 1000],
    ]);
    expect(expenseDeltas(e, { ...e, amountBrlCents: 1500 }).map((x) => x.value)).toEqual([500, 500, 500]);
    expect(expenseDeltas(e, { ...e, status: "CANCELED" }).map((x) => x.value)).toEqual([-1000, -1000, -1000]);
    expect(expenseDeltas(e, e)).toEqual([]);
  });
});

describe("local days", () => {
  it("buckets an instant in the organization's zone", () => {
    expect(localDay(AT, "America/Sao_Paulo")).toBe("2026-11-23");
    expect(localDay(AT, "UTC")).toBe("2026-11-24");
    expect(localDays(AT)["Europe/Lisbon"]).toBe("2026-11-24");
  });
});
