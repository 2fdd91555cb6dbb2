// eventRollupStatements (the rollups compiled once per shape of deltas, bound per call: the PIX create's link
// batch) sends exactly the SQL and values eventRollups (drizzle, built per call) sends, for every shape a
// recorded change gives: a day the same in every zone, days per zone, a plan looked up by subscription, the
// paying-customer check, and groups split at D1's parameter limit — the second call of a shape bound from the cache.
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { eventRollupStatements, eventRollups, type MetricFacts } from "../../src/events/metric-rollups";

const TENANT = { organizationId: "org_a", workspaceId: "ws_a" };
const payment = (over: Record<string, unknown>) => ({
  id: "pay_1",
  customerId: "cus_1",
  subscriptionId: null as string | null,
  status: "PENDING",
  valueCents: 12990,
  refundedCents: 0,
  netValueCents: null as number | null,
  paymentDate: null as string | null,
  dueDate: "2026-12-04",
  createdAt: "2026-11-24T02:30:00.000Z", // 23:30 on the 23rd in São Paulo: days differ by zone
  updatedAt: "2026-11-27T12:00:00.000Z",
  upstreamId: "pay_up_1",
  ...over,
});
const subscription = (status: string) => ({
  id: "sub_1",
  customerId: "cus_1",
  status,
  valueCents: 9990,
  cycle: "MONTHLY",
  createdAt: "2026-11-27T12:00:00.000Z",
  updatedAt: "2026-11-27T12:00:00.000Z",
  canceledAt: null,
  upstreamId: "sub_up_1",
});

const CASES: [string, MetricFacts][] = [
  ["a charge created (days per zone)", { payment: { before: null, after: payment({ createdAt: "2026-11-27T15:00:00.000Z" }) } }],
  ["a charge created near midnight (days per zone)", { payment: { before: null, after: payment({}) } }],
  [
    "a subscription's charge paid (plan looked up by subscription)",
    {
      payment: {
        before: payment({ subscriptionId: "sub_1" }),
        after: payment({ subscriptionId: "sub_1", status: "RECEIVED", paymentDate: "2026-11-27", netValueCents: 12500 }),
      },
    },
  ],
  ["a subscription started (the paying-customer check)", { subscription: { before: null, after: subscription("ACTIVE") } }],
];

function recorder() {
  const sent: { sql: string; params: unknown[] }[] = [];
  const d1 = {
    prepare: (sql: string) => ({ bind: (...params: unknown[]) => sent.push({ sql, params }) }),
  } as unknown as D1Database;
  return { d1, sent };
}

describe("eventRollupStatements", () => {
  it.each(CASES)("%s: drizzle's SQL and values, twice (compiled, then from the cache)", (_, facts) => {
    const expected = eventRollups(drizzle({} as D1Database), TENANT, "evt_1", facts).map((q) => q.toSQL());
    expect(expected.length).toBeGreaterThan(0);
    for (let round = 0; round < 2; round++) {
      const { d1, sent } = recorder();
      eventRollupStatements(d1, TENANT, "evt_1", facts);
      expect(sent).toEqual(expected.map(({ sql, params }) => ({ sql, params })));
    }
    const { d1, sent } = recorder();
    eventRollupStatements(d1, { organizationId: "org_b", workspaceId: "ws_b" }, "evt_2", facts);
    expect(sent[0]?.params).toContain("org_b");
    expect(sent[0]?.params).toContain("evt_2");
    expect(sent[0]?.params).not.toContain("org_a");
  });

  it("nothing without facts", () => {
    const { d1, sent } = recorder();
    expect(eventRollupStatements(d1, TENANT, "evt_1", undefined)).toEqual([]);
    expect(sent).toEqual([]);
  });
});
