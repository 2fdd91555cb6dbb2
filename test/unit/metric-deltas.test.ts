import { describe, expect, it } from "vitest";
import {
  dayOf,
  expenseDeltas,
  metricDeltas,
  monthlyCents,
  overdueWhen,
  paidWhen,
  type PaymentFacts,
} from "../../src/events/metric-rollups";
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
  it("PENDING → RECEIVED: revenue and fees on the payment date, pending leaves on that same day", () => {
    const after = pay("RECEIVED", { paymentDate: "2026-11-23" });
    expect(metricDeltas("payment.received", { payment: { before: pay("PENDING"), after } }, AT)).toEqual([
      { metric: "revenue", value: 25000, day: "2026-11-23" },
      { metric: "payment_fees", value: 99, day: "2026-11-23" },
      { metric: "pending_amount", value: -25000, day: "2026-11-23" },
    ]);
  });
  it("paid just after 00:00 UTC (21:xx the day before in São Paulo) with a payment date of the UTC day: one day for every delta", () => {
    // The regression: pending_amount left on the event's local day (the 25th) while revenue landed on the
    // payment date (the 26th), and the rebuild (which only has the payment date) put both on the 26th.
    const created = "2026-11-26T00:40:00.000Z"; // 21:40 on the 25th in São Paulo
    const confirmed = "2026-11-26T00:50:00.000Z"; // 21:50 on the 25th in São Paulo
    const before = pay("PENDING", { createdAt: created });
    const after = pay("RECEIVED", { createdAt: created, paymentDate: "2026-11-26" });
    const zone = "America/Sao_Paulo";
    const days = (deltas: ReturnType<typeof metricDeltas>) => deltas.map((d) => [d.metric, dayOf(d, zone), d.value]);
    expect(days(metricDeltas("payment.created", { payment: { before: null, after: before } }, created))).toEqual([
      ["billed", "2026-11-25", 25000],
      ["pending_amount", "2026-11-25", 25000],
    ]);
    expect(days(metricDeltas("payment.received", { payment: { before, after } }, confirmed))).toEqual([
      ["revenue", "2026-11-26", 25000],
      ["payment_fees", "2026-11-26", 99],
      ["pending_amount", "2026-11-26", -25000],
    ]);
    // OVERDUE → RECEIVED IN CASH with a payment date in the past: overdue leaves on the payment date too.
    const cash = metricDeltas(
      "payment.received",
      { payment: { before: pay("OVERDUE"), after: pay("RECEIVED_IN_CASH", { paymentDate: "2026-11-20" }) } },
      confirmed,
    );
    expect(days(cash)).toEqual([
      ["revenue", "2026-11-20", 25000],
      ["payment_fees", "2026-11-20", 99],
      ["overdue_amount", "2026-11-20", -25000],
    ]);
  });
  it("paid without a payment date (a card CONFIRMED): every delta on the local day of when it happened", () => {
    const d = metricDeltas("payment.confirmed", { payment: { before: pay("PENDING"), after: pay("CONFIRMED") } }, AT);
    expect(d.map((x) => [x.metric, dayOf(x, "America/Sao_Paulo")])).toEqual([
      ["revenue", "2026-11-23"],
      ["payment_fees", "2026-11-23"],
      ["pending_amount", "2026-11-23"],
    ]);
  });
  it("PENDING → OVERDUE moves the open amounts on the day after the due date, whenever the webhook comes", () => {
    const due = { dueDate: "2026-11-25" };
    const justAfterMidnightUtc = "2026-11-26T00:05:00.000Z"; // 21:05 on the 25th in São Paulo
    const late = "2026-11-29T15:00:00.000Z";
    for (const at of [justAfterMidnightUtc, late]) {
      const d = metricDeltas("payment.overdue", { payment: { before: pay("PENDING", due), after: pay("OVERDUE", due) } }, at);
      expect(d).toEqual([
        { metric: "pending_amount", value: -25000, day: "2026-11-26" },
        { metric: "overdue_amount", value: 25000, day: "2026-11-26" },
      ]);
    }
    // Without a due date in the facts: when it happened.
    expect(metricDeltas("payment.overdue", { payment: { before: pay("PENDING"), after: pay("OVERDUE") } }, AT)).toEqual([
      { metric: "pending_amount", value: -25000, at: AT },
      { metric: "overdue_amount", value: 25000, at: AT },
    ]);
  });
  it("→ CANCELED leaves the open amount when it happens", () => {
    const due = { dueDate: "2026-11-25" };
    const canceled = metricDeltas("payment.canceled", { payment: { before: pay("PENDING", due), after: pay("CANCELED", due) } }, AT);
    expect(canceled).toEqual([{ metric: "pending_amount", value: -25000, at: AT }]);
    const fromOverdue = metricDeltas("payment.canceled", { payment: { before: pay("OVERDUE", due), after: pay("CANCELED", due) } }, AT);
    expect(fromOverdue).toEqual([{ metric: "overdue_amount", value: -25000, at: AT }]);
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
  it("dayOf: a carried local date wins; an instant is its day in the zone, not its UTC date", () => {
    const zone = "America/Sao_Paulo";
    expect(dayOf({ at: "2026-11-26T00:00:01.000Z" }, zone)).toBe("2026-11-25"); // 21:00:01 on the 25th
    expect(dayOf({ at: "2026-11-26T02:59:59.999Z" }, zone)).toBe("2026-11-25"); // 23:59:59 on the 25th
    expect(dayOf({ at: "2026-11-26T03:00:00.000Z" }, zone)).toBe("2026-11-26"); // midnight in São Paulo
    expect(dayOf({ at: "2026-11-26T00:00:01.000Z" }, "UTC")).toBe("2026-11-26");
    expect(dayOf({ day: "2026-11-26", at: "2026-11-26T00:00:01.000Z" }, zone)).toBe("2026-11-26");
    // The day the SQL write picks (localDays, by the organization's zone) is dayOf's.
    for (const at of ["2026-11-26T00:00:01.000Z", "2026-11-26T02:59:59.999Z", AT])
      for (const [z, day] of Object.entries(localDays(at))) expect(dayOf({ at }, z)).toBe(day);
  });
  it("paidWhen: the payment date when the charge has one, else the instant given", () => {
    expect(paidWhen({ paymentDate: "2026-11-26" }, AT)).toEqual({ day: "2026-11-26" });
    expect(paidWhen({ paymentDate: null }, AT)).toEqual({ at: AT });
  });
  it("overdueWhen: the day after the due date (across a month end), else the instant given", () => {
    expect(overdueWhen({ dueDate: "2026-11-30" }, AT)).toEqual({ day: "2026-12-01" });
    expect(overdueWhen({ dueDate: null }, AT)).toEqual({ at: AT });
  });
});
