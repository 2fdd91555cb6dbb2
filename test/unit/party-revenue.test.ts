// Revenue by party (issue 29): what a charge's change writes to the party rollups, and that its statement stays within
// D1's 100 bound parameters when every row looks its plan up (test/workers/revenue-rollups.test.ts holds the answers
// to the charge-based computation through the API).
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { bySubscription, partyContributions } from "../../src/events/metric-contributions";
import {
  dayIn,
  type MetricDelta,
  metricDeltas,
  type PaymentFacts,
  rollupStatement,
  withinParameterBudget,
} from "../../src/events/metric-rollups";

const AT = "2026-11-24T02:30:00.000Z"; // 23:30 on the 23rd in São Paulo
const charge = (status: string, extra: Partial<PaymentFacts> = {}): PaymentFacts => ({
  status,
  valueCents: 25000,
  refundedCents: 0,
  netValueCents: 24901,
  paymentDate: null,
  dueDate: "2026-11-30",
  createdAt: AT,
  updatedAt: AT,
  upstreamId: "pay_1",
  customerId: "cus-1",
  subscriptionId: "sub-1",
  ...extra,
});
/** The party deltas of a change, as [metric, day in São Paulo, value], sorted. */
const partyDeltas = (before: PaymentFacts | null, after: PaymentFacts) =>
  metricDeltas({ payment: { before, after } })
    .filter((d) => d.metric.startsWith("party."))
    .map((d) => [d.metric, dayIn(d, "America/Sao_Paulo"), d.value] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));

describe("partyContributions: a paid charge with a payment date, on it, by customer and by its subscription", () => {
  it("PENDING → RECEIVED: value and fee on the payment date in every zone (a local date), under the customer and the subscription", () => {
    const paid = charge("RECEIVED", { paymentDate: "2026-11-24" });
    expect(partyDeltas(charge("PENDING"), paid)).toEqual([
      ["party.payment_fees.customer.cus-1", "2026-11-24", 99],
      ["party.payment_fees.subscription.sub-1", "2026-11-24", 99],
      ["party.received.customer.cus-1", "2026-11-24", 25000],
      ["party.received.subscription.sub-1", "2026-11-24", 25000],
    ]);
    for (const d of metricDeltas({ payment: { before: null, after: paid } }).filter((x) => x.metric.startsWith("party.")))
      expect(d.day).toBe("2026-11-24");
  });

  it("counts nothing without a payment date, unknown upstream, or unpaid; REFUNDED stays received; undone takes it back", () => {
    expect(partyContributions(charge("CONFIRMED"))).toEqual([]);
    expect(partyContributions(charge("RECEIVED", { paymentDate: "2026-11-24", upstreamId: null }))).toEqual([]);
    expect(partyContributions(charge("PENDING", { paymentDate: "2026-11-24" }))).toEqual([]);
    expect(partyContributions(charge("CANCELED", { paymentDate: "2026-11-24" }))).toEqual([]);
    const cash = charge("RECEIVED_IN_CASH", { paymentDate: "2026-11-20", netValueCents: null, subscriptionId: null });
    expect(partyContributions(cash)).toEqual([{ metric: "party.received.customer.cus-1", day: "2026-11-20", value: 25000 }]);
    expect(partyDeltas(cash, charge("PENDING"))).toEqual([["party.received.customer.cus-1", "2026-11-20", -25000]]);
    const received = charge("RECEIVED", { paymentDate: "2026-11-24" });
    expect(partyDeltas(received, { ...received, status: "REFUNDED", refundedCents: 25000 })).toEqual([]);
  });

  it("bySubscription names the subscription of a by-plan row, and nothing else", () => {
    expect(bySubscription("party.received.subscription.sub-1")).toEqual({ metric: "received", subscriptionId: "sub-1" });
    expect(bySubscription("party.payment_fees.subscription.s")).toEqual({ metric: "payment_fees", subscriptionId: "s" });
    expect(bySubscription("party.received.customer.cus-1")).toBeNull();
    expect(bySubscription("revenue")).toBeNull();
  });
});

describe("D1's parameter limit with the plan looked up per row", () => {
  it("every statement of a change with many by-plan rows binds at most 100 parameters", () => {
    const db = createDb({} as D1Database);
    const tenant = { organizationId: "org", workspaceId: "ws" };
    const many: MetricDelta[] = Array.from({ length: 60 }, (_, i) => ({
      metric: i % 2 ? `party.received.subscription.sub-${i}` : "revenue",
      value: i + 1,
      day: "2026-11-01",
    }));
    const groups = withinParameterBudget(many);
    expect(groups.length).toBeGreaterThan(1);
    const bound = groups.map((g) => rollupStatement(db, tenant, g, sql`1 = 1`)?.toSQL().params.length ?? 0);
    expect(Math.max(...bound)).toBeLessThanOrEqual(100);
    expect(Math.max(...bound)).toBeGreaterThan(80);
  });
});
