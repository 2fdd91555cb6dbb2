// Issue 29: the dashboard's rankings and profitability by customer and plan read the revenue-by-party rollups
// (metric_daily party.received.<party>.<id>, party.payment_fees.<party>.<id>), not the charges. Their answers must equal the
// charge-based computation (./received-revenue-oracle.ts) after every status move a charge can make: received,
// confirmed, refunded partially and fully, received in cash and undone, deleted and restored; a rebuild and the
// migration's back-fill write the very rows the live writes left.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { formatMoney } from "../../src/lib/money";
import { addDays, localDay } from "../../src/lib/time-zones";
import { type BillingTenant, card, createCustomer, createPayment, dueDate, HOLDER, seedBillingTenant, sim } from "./billing-support";
import { oracleByParty, oracleTop } from "./received-revenue-oracle";
import { call, type Envelope } from "./support";

interface Entry {
  id: string;
  revenue: string;
}
interface Dashboard {
  timeZone: string;
  topCustomers: Entry[];
  topPlans: Entry[];
}
interface ProfitabilityRow {
  key: string | null;
  revenue: string;
  paymentFees: string;
  refunds: string;
}

const today = () => localDay(new Date(), "America/Sao_Paulo");

async function get<T>(t: BillingTenant, path: string) {
  const res = await call<Envelope<T>>("GET", path, { key: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function post(t: BillingTenant, path: string, body: unknown = {}) {
  const res = await call<Envelope<{ status: string }>>("POST", path, { key: t.key, body });
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.data;
}

/** The rankings (both orders) and profitability by customer and plan over [from, to] equal the charge-based answer. */
async function expectChargeBasedAnswers(t: BillingTenant, from: string, to: string) {
  const range = `period=custom&from=${from}&to=${to}`;
  const byRevenue = await get<Dashboard>(t, `/api/v1/dashboard?${range}`);
  const byMrr = await get<Dashboard>(t, `/api/v1/dashboard?${range}&rankBy=mrr`);
  for (const [by, top] of [
    ["customer", "topCustomers"],
    ["plan", "topPlans"],
  ] as const) {
    const oracle = await oracleByParty(t, by, from, to, byRevenue.timeZone);
    const ranked = byRevenue[top].map(({ id, revenue }) => ({ id, revenue }));
    expect(ranked, `${top} by revenue`).toEqual(oracleTop(oracle).map(([id, f]) => ({ id, revenue: formatMoney(f.revenue) })));
    for (const e of byMrr[top]) expect(e.revenue, `${top} by MRR: ${e.id}`).toBe(formatMoney(oracle.get(e.id)?.revenue ?? 0));
    const report = await get<{ rows: ProfitabilityRow[] }>(t, `/api/v1/profitability?groupBy=${by}&from=${from}&to=${to}`);
    const rows = report.rows
      .filter((r) => r.key !== null)
      .map((r) => ({ key: r.key, revenue: r.revenue, paymentFees: r.paymentFees, refunds: r.refunds }))
      .sort((a, b) => ((a.key ?? "") < (b.key ?? "") ? -1 : 1));
    const expected = [...oracle]
      .map(([key, f]) => ({ key, revenue: formatMoney(f.revenue), paymentFees: formatMoney(f.fees), refunds: formatMoney(f.refunds) }))
      .sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(rows, `profitability by ${by}`).toEqual(expected);
  }
  return byRevenue;
}

/** The workspace's revenue-by-party rows (non-zero), as the live writes left them. */
async function partyRows(t: BillingTenant) {
  const rows = await env.DB.prepare(
    `SELECT metric, day, value FROM metric_daily WHERE workspace_id = ? AND value <> 0
       AND metric LIKE 'party.%' ORDER BY metric, day`,
  )
    .bind(t.workspaceId)
    .all<{ metric: string; day: string; value: number }>();
  return rows.results;
}

const confirm = (t: BillingTenant, upstreamId: string | null | undefined) =>
  sim("POST", `/v3/sandbox/payment/${upstreamId}/confirm`, {}, t.upstreamKey);

describe("revenue by customer and plan from the rollups equals the charge-based answer (issue 29)", () => {
  it("after every status move: received, confirmed, refunded in part and in full, cash receipt and undo, deleted and restored; rebuild and back-fill agree", async () => {
    const t = await seedBillingTenant();
    const ana = await createCustomer(t, { name: "Ana" });
    const bia = await createCustomer(t, { name: "Bia" });
    const from = addDays(today(), -30);
    const to = addDays(today(), 30);
    const check = () => expectChargeBasedAnswers(t, from, to);

    // A plan's subscription: its first charge arrives by webhook, `advance` adds the next; both received.
    const plan = await call<Envelope<{ id: string }>>("POST", "/api/v1/plans", {
      key: t.key,
      body: { name: "Pro", value: "49.90", cycle: "MONTHLY", billingType: "PIX" },
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const sub = await call<Envelope<{ id: string; upstreamId: string }>>("POST", "/api/v1/subscriptions", {
      key: t.key,
      body: { plan: plan.body.data.id, customer: ana.id, nextDueDate: dueDate(3) },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    await sim("POST", `/__sim/subscriptions/${sub.body.data.upstreamId}/advance?token=${encodeURIComponent(t.upstreamKey)}`);
    const subCharges = await get<{ id: string; upstreamId: string }[]>(t, `/api/v1/payments?subscription=${sub.body.data.id}`);
    expect(subCharges).toHaveLength(2);
    for (const c of subCharges) await confirm(t, c.upstreamId);
    const first = await check();
    expect(first.topPlans.map((p) => [p.id, p.revenue])).toEqual([[plan.body.data.id, "99.80"]]);

    // One-off PIX for Bia: received, refunded 30.00, then the rest (REFUNDED stays revenue; the refunds move).
    const pix = (await createPayment(t, bia.id, { value: "100.00" })).body.data;
    await confirm(t, pix.upstreamId);
    await check();
    await post(t, `/api/v1/payments/${pix.id}/refund`, { value: "30.00" });
    await check();
    expect((await post(t, `/api/v1/payments/${pix.id}/refund`)).status).toBe("REFUNDED");
    await check();

    // A card charge: CONFIRMED.
    const cardCharge = await createPayment(t, bia.id, {
      billingType: "CREDIT_CARD",
      value: "20.00",
      creditCard: card(),
      creditCardHolderInfo: HOLDER,
    });
    expect(cardCharge.body.data.status).toBe("CONFIRMED");
    await check();

    // A boleto received in cash, then undone: counted, then not.
    const boleto = (await createPayment(t, ana.id, { billingType: "BOLETO", value: "75.00" })).body.data;
    expect((await post(t, `/api/v1/payments/${boleto.id}/receiveInCash`, { paymentDate: today(), value: 75 })).status).toBe(
      "RECEIVED_IN_CASH",
    );
    await check();
    expect((await post(t, `/api/v1/payments/${boleto.id}/undoReceivedInCash`)).status).toBe("PENDING");
    await check();

    // Deleted, restored, then received in cash.
    const later = (await createPayment(t, ana.id, { billingType: "BOLETO", value: "12.34" })).body.data;
    expect((await call("DELETE", `/api/v1/payments/${later.id}`, { key: t.key })).status).toBe(200);
    expect((await post(t, `/api/v1/payments/${later.id}/restore`)).status).toBe("PENDING");
    await post(t, `/api/v1/payments/${later.id}/receiveInCash`, { paymentDate: today(), value: 12.34 });
    // The subscription's second charge refunded in full: still the plan's revenue, now its refund too.
    await post(t, `/api/v1/payments/${subCharges[1]?.id}/refund`);
    const last = await check();
    expect(last.topCustomers.map((c) => c.id).sort()).toEqual([ana.id, bia.id].sort());

    // A range without the payment dates ranks nobody.
    const empty = await get<Dashboard>(t, `/api/v1/dashboard?period=custom&from=${addDays(today(), 1)}&to=${to}`);
    expect([empty.topCustomers, empty.topPlans]).toEqual([[], []]);

    // The rebuild and the migration's back-fill (run again over what the live writes left) write the same rows.
    const live = await partyRows(t);
    expect(live.length).toBeGreaterThan(0);
    expect((await call("POST", "/api/v1/metrics/rebuild", { key: t.key })).status).toBe(200);
    expect(await partyRows(t)).toEqual(live);
    await env.DB.prepare("DELETE FROM metric_daily WHERE workspace_id = ? AND metric LIKE 'party.%'").bind(t.workspaceId).run();
    const migration = env.TEST_MIGRATIONS.find((m) => m.name === "0022_revenue_rollups.sql");
    const backfill = migration?.queries.find((q) => q.includes("INSERT INTO"));
    await env.DB.prepare(backfill ?? "missing back-fill").run();
    expect(await partyRows(t)).toEqual(live);
    await check();
  });

  it("a workspace's rollups are its own: another workspace's received charge ranks and counts nowhere else", async () => {
    const [mine, other] = [await seedBillingTenant({ webhooks: false }), await seedBillingTenant({ webhooks: false })];
    const customer = await createCustomer(other);
    const charge = (await createPayment(other, customer.id, { billingType: "BOLETO", value: "10.00" })).body.data;
    await post(other, `/api/v1/payments/${charge.id}/receiveInCash`, { paymentDate: today(), value: 10 });
    const range = `from=${addDays(today(), -1)}&to=${addDays(today(), 1)}`;
    const top = async (t: BillingTenant) => (await get<Dashboard>(t, `/api/v1/dashboard?period=custom&${range}`)).topCustomers;
    expect((await top(other)).map((c) => [c.id, c.revenue])).toEqual([[customer.id, "10.00"]]);
    expect(await top(mine)).toEqual([]);
    const rows = await get<{ rows: ProfitabilityRow[] }>(mine, `/api/v1/profitability?groupBy=customer&${range}`);
    expect(rows.rows.filter((r) => r.key !== null)).toEqual([]);
  });
});
