import { describe, expect, it } from "vitest";
import {
  dayIn,
  expenseDeltas,
  type MetricDelta,
  metricDeltas,
  monthlyCents,
  type PaymentFacts,
  type SubscriptionFacts,
} from "../../src/events/metric-rollups";
import { paidDay } from "../../src/events/metric-contributions";
import { localDay, TIME_ZONES, type TimeZone } from "../../src/lib/time-zones";

const AT = "2026-11-24T02:30:00.000Z"; // 23:30 on the 23rd in São Paulo
const SP = "America/Sao_Paulo";
const pay = (status: string, extra: Partial<PaymentFacts> = {}): PaymentFacts => ({
  status,
  valueCents: 25000,
  refundedCents: 0,
  netValueCents: 24901,
  paymentDate: null,
  dueDate: "2026-11-30",
  createdAt: AT,
  updatedAt: AT,
  upstreamId: "pay_1",
  ...extra,
});
const ORDER = ["billed", "revenue", "payment_fees", "refunds", "pending_amount", "overdue_amount"];
const rank = (metric: string) => (ORDER.includes(metric) ? ORDER.indexOf(metric) : ORDER.length);
/** [metric, day, value] of each delta that lands in `zone`; payment metrics in a fixed order. */
const inZone = (deltas: readonly MetricDelta[], zone = SP) =>
  deltas
    .flatMap((d) => {
      const day = dayIn(d, zone);
      return day ? [[d.metric, day, d.value] as const] : [];
    })
    .sort((a, b) => rank(a[0]) - rank(b[0]));
const payment = (before: PaymentFacts | null, after: PaymentFacts) => metricDeltas({ payment: { before, after } });

describe("metricDeltas (payments): contributions(after) − contributions(before)", () => {
  it("created: billed and pending, by creation", () => {
    expect(inZone(payment(null, pay("PENDING")))).toEqual([
      ["billed", "2026-11-23", 25000],
      ["pending_amount", "2026-11-23", 25000],
    ]);
  });
  it("a charge the upstream never knew (a refused card) moves nothing, whatever its status (issue 27)", () => {
    const unlinked = pay("PENDING", { upstreamId: null });
    expect(payment(unlinked, { ...unlinked, status: "FAILED" })).toEqual([]);
    expect(payment(null, unlinked)).toEqual([]);
    // Linked and then refused: it leaves pending on the day it failed.
    expect(inZone(payment(pay("PENDING"), pay("FAILED", { updatedAt: "2026-11-25T15:00:00.000Z" })))).toEqual([
      ["pending_amount", "2026-11-25", -25000],
    ]);
  });
  it("PENDING → RECEIVED: revenue and fees on the payment date, pending leaves on that same day", () => {
    expect(inZone(payment(pay("PENDING"), pay("RECEIVED", { paymentDate: "2026-11-23" })))).toEqual([
      ["revenue", "2026-11-23", 25000],
      ["payment_fees", "2026-11-23", 99],
      ["pending_amount", "2026-11-23", -25000],
    ]);
  });
  it("created at midday UTC (the same day in every zone): one row per amount carrying that day; near midnight: the day of each zone", () => {
    const midday = "2026-11-27T15:00:00.000Z";
    expect(payment(null, pay("PENDING", { createdAt: midday, updatedAt: midday }))).toEqual([
      { metric: "billed", value: 25000, day: "2026-11-27" },
      { metric: "pending_amount", value: 25000, day: "2026-11-27" },
    ]);
    const nearMidnight = payment(null, pay("PENDING"));
    expect(nearMidnight.map((d) => [d.metric, d.day, d.days?.[SP], d.days?.UTC])).toEqual([
      ["billed", undefined, "2026-11-23", "2026-11-24"],
      ["pending_amount", undefined, "2026-11-23", "2026-11-24"],
    ]);
  });
  it("paid just after 00:00 UTC (21:xx the day before in São Paulo) with a payment date of the UTC day: one day for every delta", () => {
    const created = "2026-11-26T00:40:00.000Z"; // 21:40 on the 25th in São Paulo
    const before = pay("PENDING", { createdAt: created, updatedAt: created });
    const after = pay("RECEIVED", { createdAt: created, paymentDate: "2026-11-26", updatedAt: "2026-11-26T00:50:00.000Z" });
    expect(inZone(payment(null, before))).toEqual([
      ["billed", "2026-11-25", 25000],
      ["pending_amount", "2026-11-25", 25000],
    ]);
    expect(inZone(payment(before, after))).toEqual([
      ["revenue", "2026-11-26", 25000],
      ["payment_fees", "2026-11-26", 99],
      ["pending_amount", "2026-11-26", -25000],
    ]);
  });
  it("paid without a payment date (a card CONFIRMED): every delta on the local day of its last change", () => {
    expect(inZone(payment(pay("PENDING"), pay("CONFIRMED")))).toEqual([
      ["revenue", "2026-11-23", 25000],
      ["payment_fees", "2026-11-23", 99],
      ["pending_amount", "2026-11-23", -25000],
    ]);
    expect(paidDay({ paymentDate: null, updatedAt: AT }, "UTC")).toBe("2026-11-24");
  });
  it("PENDING → OVERDUE moves the open amounts on the day after the due date, whenever the webhook comes", () => {
    const due = { dueDate: "2026-11-25" };
    for (const updatedAt of ["2026-11-26T00:05:00.000Z", "2026-11-29T15:00:00.000Z"])
      expect(inZone(payment(pay("PENDING", due), pay("OVERDUE", { ...due, updatedAt })))).toEqual([
        ["pending_amount", "2026-11-26", -25000],
        ["overdue_amount", "2026-11-26", 25000],
      ]);
    // Due before it was created (adopted late): overdue from its creation day, never a negative pending.
    expect(inZone(payment(pay("PENDING", { dueDate: "2026-11-01" }), pay("OVERDUE", { dueDate: "2026-11-01" })))).toEqual([
      ["pending_amount", "2026-11-23", -25000],
      ["overdue_amount", "2026-11-23", 25000],
    ]);
  });
  it("OVERDUE → RECEIVED IN CASH with a payment date: overdue leaves on the payment date", () => {
    const due = { dueDate: "2026-11-25" };
    expect(inZone(payment(pay("OVERDUE", due), pay("RECEIVED_IN_CASH", { ...due, paymentDate: "2026-11-28" })))).toEqual([
      ["revenue", "2026-11-28", 25000],
      ["payment_fees", "2026-11-28", 99],
      ["overdue_amount", "2026-11-28", -25000],
    ]);
  });
  it("RECEIVED_IN_CASH → PENDING (cash receipt undone): the paid day's figures come back, pending again (issue 25)", () => {
    const paid = pay("RECEIVED_IN_CASH", { paymentDate: "2026-11-27" });
    const undone = pay("PENDING", { updatedAt: "2026-11-28T12:00:00.000Z" });
    expect(inZone(payment(paid, undone))).toEqual([
      ["revenue", "2026-11-27", -25000],
      ["payment_fees", "2026-11-27", -99],
      ["pending_amount", "2026-11-27", 25000],
    ]);
  });
  it("→ CANCELED leaves the open amount on the day it happened", () => {
    const canceledAt = { updatedAt: "2026-11-25T15:00:00.000Z" };
    expect(inZone(payment(pay("PENDING"), pay("CANCELED", canceledAt)))).toEqual([["pending_amount", "2026-11-25", -25000]]);
    const due = { dueDate: "2026-11-20", createdAt: "2026-11-10T12:00:00.000Z" };
    expect(inZone(payment(pay("OVERDUE", due), pay("CANCELED", { ...due, ...canceledAt })))).toEqual([
      ["overdue_amount", "2026-11-25", -25000],
    ]);
  });
  it("CONFIRMED → RECEIVED on the same day counts nothing twice", () => {
    expect(inZone(payment(pay("CONFIRMED"), pay("RECEIVED", { paymentDate: "2026-11-23" })))).toEqual([]);
  });
  it("a refund record done: its amount on its day", () => {
    const refund = { valueCents: 4010, status: "done", updatedAt: "2026-11-25T12:00:00.000Z" };
    expect(inZone(metricDeltas({ payment: { before: pay("RECEIVED"), after: pay("RECEIVED"), refund } }))).toEqual([
      ["refunds", "2026-11-25", 4010],
    ]);
  });
  it("an instant near midnight lands on its day in each zone, and only where the contributions say", () => {
    const at = "2026-11-26T02:30:00.000Z"; // the 25th in São Paulo, the 26th in UTC
    const deltas = payment(null, pay("PENDING", { createdAt: at, updatedAt: at }));
    for (const zone of TIME_ZONES) expect(inZone(deltas, zone).map((d) => d[1])).toEqual([localDay(at, zone), localDay(at, zone)]);
  });
});

describe("subscriptions and expenses", () => {
  const sub = (status: string, extra: Partial<SubscriptionFacts> = {}): SubscriptionFacts => ({
    id: "s1",
    customerId: "c1",
    status,
    valueCents: 1000,
    cycle: "WEEKLY",
    createdAt: AT,
    updatedAt: AT,
    upstreamId: "sub_1",
    ...extra,
  });
  it("created and canceled: counts, mrr, paying customers (conditional)", () => {
    const created = metricDeltas({ subscription: { before: null, after: sub("ACTIVE") } });
    expect(created.map((x) => [x.metric, x.value])).toEqual([
      ["new_subscriptions", 1],
      ["active_subscriptions", 1],
      ["mrr", 4333],
      ["paying_customers", 1],
    ]);
    expect(created[3]?.unlessOtherActive).toEqual({ customerId: "c1", subscriptionId: "s1" });
    const canceledAt = "2026-11-25T15:00:00.000Z";
    const canceled = metricDeltas({
      subscription: { before: sub("ACTIVE"), after: sub("CANCELED", { canceledAt, updatedAt: canceledAt }) },
    });
    expect(inZone(canceled)).toEqual([
      ["canceled_subscriptions", "2026-11-25", 1],
      ["active_subscriptions", "2026-11-25", -1],
      ["mrr", "2026-11-25", -4333],
      ["paying_customers", "2026-11-25", -1],
    ]);
  });
  it("a value change restates MRR from the subscription's start (what a rebuild would say)", () => {
    const changed = metricDeltas({ subscription: { before: sub("ACTIVE"), after: sub("ACTIVE", { valueCents: 2000 }) } });
    expect(inZone(changed)).toEqual([["mrr", "2026-11-23", 4334]]);
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
    expect(localDay(AT, SP)).toBe("2026-11-23");
    expect(localDay(AT, "UTC")).toBe("2026-11-24");
    expect(localDay(AT, "Europe/Lisbon")).toBe("2026-11-24");
  });
  it("dayIn: a carried local date wins; zone days are the instant's day there, not its UTC date; an unknown zone reads the default", () => {
    expect(dayIn({ day: "2026-11-26" }, SP)).toBe("2026-11-26");
    const days = Object.fromEntries(TIME_ZONES.map((z) => [z, localDay("2026-11-26T00:00:01.000Z", z)])) as Record<TimeZone, string>;
    expect(dayIn({ days }, SP)).toBe("2026-11-25");
    expect(dayIn({ days }, "UTC")).toBe("2026-11-26");
    expect(dayIn({ days }, "Mars/Olympus")).toBe("2026-11-25");
    expect(dayIn({ days: { UTC: "2026-11-26" } }, SP)).toBeNull();
  });
});

describe("D1's parameter limit", () => {
  it("a change with many deltas is split into statements of at most 90 row parameters", async () => {
    const { withinParameterBudget } = await import("../../src/events/metric-rollups");
    const many: MetricDelta[] = Array.from({ length: 30 }, (_, i) => ({ metric: "billed", value: i + 1, day: "2026-11-01" }));
    const groups = withinParameterBudget(many);
    expect(groups.map((g) => g.length)).toEqual([22, 8]);
    expect(groups.flat()).toEqual(many);
    const paying: MetricDelta = { ...many[0]!, metric: "paying_customers", unlessOtherActive: { customerId: "c", subscriptionId: "s" } };
    expect(withinParameterBudget(Array.from({ length: 12 }, () => paying)).map((g) => g.length)).toEqual([11, 1]);
  });
});
