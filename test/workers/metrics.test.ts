// Metrics end to end: charges made and paid through the API and the simulator move the daily rollups in
// the same batch as their events, exactly to the cent; the rebuild recomputes the same rows.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createCustomer, createPayment, seedBillingTenant, sim, testDeps, type BillingTenant } from "./billing-support";
import { call, type Envelope, expectError } from "./support";
import { localDay, addDays } from "../../src/lib/time-zones";
import { payments } from "../../src/db/schema";
import { transitionPayment } from "../../src/modules/payments/lifecycle";

interface SeriesBody {
  key: string;
  unit: string;
  interval: string;
  from: string;
  to: string;
  timeZone: string;
  points: { periodStart: string; value: string | null }[];
  total: string | null;
}

const today = () => localDay(new Date(), "America/Sao_Paulo");

async function series(t: BillingTenant, key: string, query = `from=${addDays(today(), -3)}&to=${addDays(today(), 3)}`) {
  const res = await call<Envelope<SeriesBody>>("GET", `/api/v1/metrics/${key}?${query}`, { key: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
const last = (s: SeriesBody) => s.points[s.points.length - 1]!.value;

/** The workspace's non-zero daily rows (a day whose changes cancel out may keep a zero row). */
async function rollupRows(t: BillingTenant) {
  const rows = await env.DB.prepare(
    "SELECT metric, day, value FROM metric_daily WHERE workspace_id = ? AND value <> 0 ORDER BY metric, day",
  )
    .bind(t.workspaceId)
    .all<{ metric: string; day: string; value: number }>();
  return rows.results;
}

describe("GET /metrics", () => {
  it("lists the catalogue with key, name, unit and description", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const res = await call<Envelope<{ key: string; name: string; unit: string; description: string }[]>>("GET", "/api/v1/metrics", {
      key: t.key,
    });
    expect(res.status).toBe(200);
    const keys = res.body.data.map((m) => m.key);
    for (const k of [
      "revenue",
      "billed",
      "refunds",
      "payment_fees",
      "net_revenue",
      "expenses",
      "aws_costs",
      "gross_profit",
      "mrr",
      "arr",
      "active_subscriptions",
      "new_subscriptions",
      "canceled_subscriptions",
      "churn_rate",
      "arpu",
      "new_customers",
      "pending_amount",
      "overdue_amount",
    ])
      expect(keys).toContain(k);
    expect(res.body.data.find((m) => m.key === "churn_rate")).toMatchObject({ unit: "PERCENT" });
    expect(res.body.data.every((m) => m.description.length > 10)).toBe(true);
  });
});

/** POST /metrics/rebuild recomputes, from the records alone, exactly the rows the incremental rollups wrote. */
async function expectRebuildToReproduce(t: BillingTenant, incremental: Awaited<ReturnType<typeof rollupRows>>) {
  const rebuilt = await call("POST", "/api/v1/metrics/rebuild", { key: t.key });
  expect(rebuilt.status, JSON.stringify(rebuilt.body)).toBe(200);
  expect(await rollupRows(t)).toEqual(incremental);
}

/** A fresh tenant's 250.00 PIX charge, as stored, and its creation day in São Paulo. */
async function pendingPaymentRow() {
  const t = await seedBillingTenant({ webhooks: false });
  const customer = await createCustomer(t);
  const payment = (await createPayment(t, customer.id, { value: "250.00" })).body.data;
  const row = await testDeps().db.select().from(payments).where(eq(payments.id, payment.id)).get();
  if (!row) throw new Error("payment row missing");
  return { t, row, createdOn: localDay(row.createdAt, "America/Sao_Paulo") };
}

describe("a received charge moves the metrics exactly", () => {
  it("250.00 created and confirmed in the sandbox: billed and revenue move by exactly 250.00, fees by value − netValue", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const created = await createPayment(t, customer.id, { value: "250.00" });
    expect(created.status).toBe(200);
    const payment = created.body.data;

    expect((await series(t, "billed")).total).toBe("250.00");
    expect(last(await series(t, "pending_amount"))).toBe("250.00");
    expect((await series(t, "revenue")).total).toBe("0.00");
    expect((await series(t, "new_customers")).total).toBe("1");

    expect((await sim("POST", `/v3/sandbox/payment/${payment.upstreamId}/confirm`, {}, t.upstreamKey)).status).toBe(200);
    const upstream = await sim<{ value: number; netValue: number }>("GET", `/v3/payments/${payment.upstreamId}`, undefined, t.upstreamKey);
    const fee = Math.round(upstream.body.value * 100) - Math.round(upstream.body.netValue * 100);
    expect(fee).toBeGreaterThan(0);

    const revenue = await series(t, "revenue");
    expect(revenue.total).toBe("250.00");
    expect(revenue.points.filter((p) => p.value !== "0.00")).toHaveLength(1);
    expect((await series(t, "billed")).total).toBe("250.00");
    expect((await series(t, "payment_fees")).total).toBe((fee / 100).toFixed(2));
    expect((await series(t, "net_revenue")).total).toBe(((25000 - fee) / 100).toFixed(2));
    expect(last(await series(t, "pending_amount"))).toBe("0.00");
    expect(last(await series(t, "overdue_amount"))).toBe("0.00");

    // A repeated webhook changes nothing (the event is recorded once, so is the rollup).
    const before = await rollupRows(t);
    expect((await sim("POST", `/v3/sandbox/payment/${payment.upstreamId}/confirm`, {}, t.upstreamKey)).status).toBeLessThan(500);
    expect(await rollupRows(t)).toEqual(before);

    // A partial refund moves refunds and net revenue, not revenue.
    const refund = await call("POST", `/api/v1/payments/${payment.id}/refund`, { key: t.key, body: { value: "40.10" } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect((await series(t, "refunds")).total).toBe("40.10");
    expect((await series(t, "revenue")).total).toBe("250.00");
    expect((await series(t, "net_revenue")).total).toBe(((25000 - fee - 4010) / 100).toFixed(2));

    // The rebuild recomputes the same rows from the records.
    const incremental = await rollupRows(t);
    const rebuilt = await call<Envelope<{ rows: number; records: { payments: number } }>>("POST", "/api/v1/metrics/rebuild", {
      key: t.key,
    });
    expect(rebuilt.status, JSON.stringify(rebuilt.body)).toBe(200);
    expect(rebuilt.body.data.records.payments).toBe(1);
    expect(await rollupRows(t)).toEqual(incremental);
  });

  it("paid at 21:50 in São Paulo with the next (UTC) day as payment date: pending leaves on the payment date, as the rebuild says", async () => {
    // Timestamps set explicitly, so this holds whatever the wall clock: the payment is received at 00:50
    // UTC the day after its (São Paulo) creation day, i.e. 21:50 that same day in São Paulo, and the
    // upstream reports the UTC date as its payment date.
    const { t, row, createdOn } = await pendingPaymentRow();
    const paymentDate = addDays(createdOn, 1);
    const paidAt = new Date(`${paymentDate}T00:50:00.000Z`);
    expect(localDay(paidAt, "America/Sao_Paulo")).toBe(createdOn);
    const moved = await transitionPayment(testDeps({ now: () => paidAt }), row, "RECEIVED", { paymentDate, netValueCents: 24901 });
    expect(moved.changed).toBe(true);

    const incremental = await rollupRows(t);
    expect(incremental).toEqual([
      { metric: "billed", day: createdOn, value: 25000 },
      { metric: "new_customers", day: createdOn, value: 1 },
      // Revenue by customer (the rankings' and profitability's rollup) is on the payment date too.
      { metric: `party.payment_fees.customer.${row.customerId}`, day: paymentDate, value: 99 },
      { metric: `party.received.customer.${row.customerId}`, day: paymentDate, value: 25000 },
      { metric: "payment_fees", day: paymentDate, value: 99 },
      { metric: "pending_amount", day: createdOn, value: 25000 },
      { metric: "pending_amount", day: paymentDate, value: -25000 },
      { metric: "revenue", day: paymentDate, value: 25000 },
    ]);
    await expectRebuildToReproduce(t, incremental);
  });

  it("marked OVERDUE at 21:50 in São Paulo with that day as due date: the open amounts move the next day, as the rebuild says", async () => {
    // Timestamps set explicitly (see above): the upstream says OVERDUE at 00:50 UTC the day after the
    // creation day, with the creation day as due date; a charge is overdue from the day after.
    const { t, row, createdOn } = await pendingPaymentRow();
    const overdueOn = addDays(createdOn, 1);
    const at = new Date(`${overdueOn}T00:50:00.000Z`);
    const moved = await transitionPayment(testDeps({ now: () => at }), row, "OVERDUE", { dueDate: createdOn });
    expect(moved.changed).toBe(true);

    const incremental = await rollupRows(t);
    expect(incremental).toEqual([
      { metric: "billed", day: createdOn, value: 25000 },
      { metric: "new_customers", day: createdOn, value: 1 },
      { metric: "overdue_amount", day: overdueOn, value: 25000 },
      { metric: "pending_amount", day: createdOn, value: 25000 },
      { metric: "pending_amount", day: overdueOn, value: -25000 },
    ]);
    await expectRebuildToReproduce(t, incremental);
  });

  it("a canceled pending charge leaves pending_amount; billed stays", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id, { value: "99.99" })).body.data;
    expect(last(await series(t, "pending_amount"))).toBe("99.99");
    expect((await call("DELETE", `/api/v1/payments/${payment.id}`, { key: t.key })).status).toBe(200);
    expect(last(await series(t, "pending_amount"))).toBe("0.00");
    expect((await series(t, "billed")).total).toBe("99.99");
  });
});

describe("subscriptions move mrr, counts, paying customers and churn", () => {
  it("two subscriptions of one customer, one canceled: exact MRR, ARPU over paying customers, churn", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const plan = async (value: string, cycle: string) =>
      (
        await call<Envelope<{ id: string }>>("POST", "/api/v1/plans", {
          key: t.key,
          body: { name: cycle, value, cycle, billingType: "PIX" },
        })
      ).body.data.id;
    const subscribe = async (planId: string) => {
      const res = await call<Envelope<{ id: string; status: string }>>("POST", "/api/v1/subscriptions", {
        key: t.key,
        body: { plan: planId, customer: customer.id, nextDueDate: addDays(today(), 5) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data;
    };
    const weekly = await subscribe(await plan("10.00", "WEEKLY")); // 10 × 52 / 12 = 43.333… → 43.33
    await subscribe(await plan("120.00", "YEARLY")); // 10.00 a month
    expect(last(await series(t, "mrr"))).toBe("53.33");
    expect(last(await series(t, "arr"))).toBe("639.96");
    expect(last(await series(t, "active_subscriptions"))).toBe("2");
    expect((await series(t, "new_subscriptions")).total).toBe("2");
    expect(last(await series(t, "arpu"))).toBe("53.33"); // one paying customer

    const canceled = await call("POST", `/api/v1/subscriptions/${weekly.id}/cancel`, { key: t.key });
    expect(canceled.status, JSON.stringify(canceled.body)).toBeLessThan(300);
    expect(last(await series(t, "mrr"))).toBe("10.00");
    expect(last(await series(t, "active_subscriptions"))).toBe("1");
    expect((await series(t, "canceled_subscriptions")).total).toBe("1");
    expect(last(await series(t, "arpu"))).toBe("10.00"); // still one paying customer
    // Both were created and one canceled today: active at the start of today was 0, so today's churn is null.
    expect(last(await series(t, "churn_rate", `from=${today()}&to=${today()}`))).toBeNull();
    const tomorrow = await series(t, "churn_rate", `from=${addDays(today(), 1)}&to=${addDays(today(), 1)}`);
    expect(tomorrow.points[0]!.value).toBe("0");

    const incremental = await rollupRows(t);
    expect((await call("POST", "/api/v1/metrics/rebuild", { key: t.key })).status).toBe(200);
    expect(await rollupRows(t)).toEqual(incremental);
  });
});

describe("series shape and validation", () => {
  it("buckets by week and month, the first period starting at `from`; levels have no total", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const month = await series(t, "revenue", "from=2026-01-15&to=2026-04-02&interval=month");
    expect(month.points.map((p) => p.periodStart)).toEqual(["2026-01-15", "2026-02-01", "2026-03-01", "2026-04-01"]);
    const week = await series(t, "revenue", "from=2026-03-04&to=2026-03-20&interval=week");
    expect(week.points.map((p) => p.periodStart)).toEqual(["2026-03-04", "2026-03-09", "2026-03-16"]);
    const mrr = await series(t, "mrr", "from=2026-03-04&to=2026-03-05");
    expect(mrr.total).toBeNull();
    expect(mrr.points).toEqual([
      { periodStart: "2026-03-04", value: "0.00" },
      { periodStart: "2026-03-05", value: "0.00" },
    ]);
    expect((await series(t, "churn_rate", "from=2026-03-04&to=2026-03-04")).points[0]!.value).toBeNull();
    const def = await series(t, "revenue", "");
    expect(def.points).toHaveLength(30);
    expect(def.to).toBe(today());
    expect(def.timeZone).toBe("America/Sao_Paulo");
  });

  it("refuses bad ranges and unknown keys", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const get = (path: string) => call("GET", path, { key: t.key });
    expectError(await get("/api/v1/metrics/revenue?from=2026-02-10&to=2026-02-01"), 400, "VALIDATION_FAILED");
    expectError(await get("/api/v1/metrics/revenue?from=2026-02-30"), 400, "VALIDATION_FAILED");
    expectError(await get("/api/v1/metrics/revenue?from=2010-01-01&to=2026-01-01"), 400, "VALIDATION_FAILED");
    expectError(await get("/api/v1/metrics/revenue?interval=hour"), 400, "VALIDATION_FAILED");
    expectError(await get("/api/v1/metrics/no_such_metric"), 404, "NOT_FOUND");
  });
});
