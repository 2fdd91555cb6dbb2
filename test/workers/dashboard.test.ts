// The dashboard: cards with the previous equal period worked out by hand, the revenue-vs-expenses
// series, MRR over the last 12 months, expenses by category, top customers and plans by revenue in the
// period (default) or by MRR, the next charges due (10, by due date), defaults and errors.
import { describe, expect, it } from "vitest";
import { addDays, localDay } from "../../src/lib/time-zones";
import { rebuild, records } from "./analytics-support";
import { call, type Envelope, expectError, seedTenant, type TestTenant } from "./support";

interface Card {
  key: string;
  unit: string;
  value: string | null;
  previous: string | null;
  changePercent: string | null;
}
interface Top {
  id: string;
  name: string | null;
  revenue: string;
  mrr: string;
  activeSubscriptions: number;
}
interface DashboardBody {
  object: string;
  period: string;
  from: string;
  to: string;
  previous: { from: string; to: string };
  timeZone: string;
  rankBy: string;
  cards: Card[];
  series: { day: string; revenue: string; expenses: string }[];
  mrrHistory: { month: string; mrr: string }[];
  expensesByCategory: { id: string; name: string; amount: string }[];
  topCustomers: Top[];
  topPlans: Top[];
  nextChargesDue: { id: string; customerName: string | null; value: string; dueDate: string }[];
}

const today = () => localDay(new Date(), "America/Sao_Paulo");

async function get(t: TestTenant, query: string) {
  const res = await call<Envelope<DashboardBody>>("GET", `/api/v1/dashboard?${query}`, { key: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
const card = (d: DashboardBody, key: string) => {
  const c = d.cards.find((x) => x.key === key);
  if (!c) throw new Error(`no card ${key}`);
  return [c.value, c.previous, c.changePercent];
};

async function history(t: TestTenant) {
  const r = records(t);
  const pro = await r.plan("Pro", 10000);
  const annual = await r.plan("Anual", 150000, "YEARLY");
  const ana = await r.customer("Ana");
  const bia = await r.customer("Bia");
  const caio = await r.customer("Caio");
  const s1 = await r.subscription(ana, pro, 10000);
  const s2 = await r.subscription(bia, annual, 150000, { cycle: "YEARLY" });
  await r.subscription(caio, pro, 10000, { status: "CANCELED", canceledAt: "2026-03-10T12:00:00.000Z" });
  await r.payment(ana, 10000, { subscriptionId: s1, paymentDate: "2026-02-10" });
  await r.payment(ana, 10000, { subscriptionId: s1, paymentDate: "2026-03-10", netValueCents: 9801 });
  await r.payment(bia, 150000, { subscriptionId: s2, paymentDate: "2026-03-05" });
  const infra = await r.category("infra", "Infra");
  await r.expense(infra, 3000, "2026-02-15");
  await r.expense(infra, 5000, "2026-03-20");
  return { pro, annual, ana, bia, caio, r };
}

describe("GET /dashboard", () => {
  it("cards against the previous equal period, exact to the cent", async () => {
    const t = await seedTenant();
    await history(t);
    await rebuild(t);
    const d = await get(t, "period=custom&from=2026-03-01&to=2026-03-31");
    expect(d).toMatchObject({ object: "dashboard", period: "custom", from: "2026-03-01", to: "2026-03-31", timeZone: "America/Sao_Paulo" });
    expect(d.previous).toEqual({ from: "2026-01-29", to: "2026-02-28" });
    expect(card(d, "revenue")).toEqual(["1600.00", "100.00", "1500.00"]);
    expect(card(d, "net_revenue")).toEqual(["1598.01", "100.00", "1498.01"]);
    expect(card(d, "expenses")).toEqual(["50.00", "30.00", "66.67"]);
    expect(card(d, "gross_profit")).toEqual(["1548.01", "70.00", "2111.44"]);
    expect(card(d, "margin")).toEqual(["96.750625", "70", "38.22"]);
    // MRR at each period's end: Pro 100.00 + Anual 1500.00 ÷ 12 = 125.00 (+ Caio's 100.00 until 10 March).
    expect(card(d, "mrr")).toEqual(["225.00", "325.00", "-30.77"]);
    expect(card(d, "active_subscriptions")).toEqual(["2", "3", "-33.33"]);
    expect(card(d, "churn_rate")).toEqual(["33.333333", "0", null]);
    expect(d.series).toHaveLength(31);
    expect(d.series.find((p) => p.day === "2026-03-05")).toEqual({ day: "2026-03-05", revenue: "1500.00", expenses: "0.00" });
    expect(d.series.find((p) => p.day === "2026-03-20")).toEqual({ day: "2026-03-20", revenue: "0.00", expenses: "50.00" });
    const cents = (xs: string[]) => xs.reduce((a, x) => a + Math.round(Number(x) * 100), 0);
    expect(cents(d.series.map((p) => p.revenue))).toBe(160000);
  });

  it("top customers and plans by revenue received in the period (default), or by MRR; each with both figures", async () => {
    const t = await seedTenant();
    const { pro, annual, ana, bia, r } = await history(t);
    // The audit's case: a one-off charge makes Davi the period's second-best customer, with no MRR at all.
    const davi = await r.customer("Davi");
    await r.payment(davi, 149900, { paymentDate: "2026-03-12" });
    await r.payment(davi, 700000, { paymentDate: "2026-04-01" }); // the day after the period: not counted
    await rebuild(t);
    const march = "period=custom&from=2026-03-01&to=2026-03-31";

    const d = await get(t, march);
    expect(d.rankBy).toBe("revenue");
    expect(d.topCustomers).toEqual([
      { id: bia, name: "Bia", revenue: "1500.00", mrr: "125.00", activeSubscriptions: 1 },
      { id: davi, name: "Davi", revenue: "1499.00", mrr: "0.00", activeSubscriptions: 0 },
      { id: ana, name: "Ana", revenue: "100.00", mrr: "100.00", activeSubscriptions: 1 },
    ]);
    expect(d.topPlans).toEqual([
      { id: annual, name: "Anual", revenue: "1500.00", mrr: "125.00", activeSubscriptions: 1 },
      { id: pro, name: "Pro", revenue: "100.00", mrr: "100.00", activeSubscriptions: 1 },
    ]);
    // The same revenue as profitability by customer for the period.
    const prof = await call<Envelope<{ rows: { key: string | null; revenue: string }[] }>>(
      "GET",
      "/api/v1/profitability?groupBy=customer&from=2026-03-01&to=2026-03-31",
      { key: t.key },
    );
    expect(prof.body.data.rows.filter((x) => x.key !== null).map((x) => [x.key, x.revenue])).toEqual(
      d.topCustomers.map((c) => [c.id, c.revenue]),
    );

    const byMrr = await get(t, `${march}&rankBy=mrr`);
    expect(byMrr.rankBy).toBe("mrr");
    expect(byMrr.topCustomers.map((c) => [c.name, c.revenue, c.mrr])).toEqual([
      ["Bia", "1500.00", "125.00"],
      ["Ana", "100.00", "100.00"],
    ]);
    expectError(await call("GET", `/api/v1/dashboard?rankBy=profit`, { key: t.key }), 400, "VALIDATION_FAILED");
  });

  it("series to chart: MRR at the end of each of the last 12 months, the period's expenses by category", async () => {
    const t = await seedTenant();
    await history(t);
    const r = records(t);
    const ads = await r.category("ads", "Ads");
    await r.expense(ads, 7000, "2026-03-02");
    await rebuild(t);
    const d = await get(t, "period=custom&from=2026-03-01&to=2026-03-31");
    const month = (offset: number) => {
      const [y, m] = today().split("-").map(Number) as [number, number];
      const i = y * 12 + m - 1 + offset;
      return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}`;
    };
    expect(d.mrrHistory.map((p) => p.month)).toEqual(Array.from({ length: 12 }, (_, k) => month(k - 11)));
    expect(d.mrrHistory.at(-1)?.mrr).toBe("225.00"); // now: Pro 100.00 + Anual 1500.00 ÷ 12
    // Where the window still covers them: 325.00 at the end of February (Caio's until 10 March), 225.00 at the end of March.
    const at = (m: string) => d.mrrHistory.find((p) => p.month === m)?.mrr;
    if (at("2026-02")) expect(at("2026-02")).toBe("325.00");
    if (at("2026-03")) expect(at("2026-03")).toBe("225.00");
    expect(d.expensesByCategory).toEqual([
      { id: ads, name: "Ads", amount: "70.00" },
      { id: expect.any(String), name: "Infra", amount: "50.00" },
    ]);
  });

  it("top customers and plans by MRR of ACTIVE subscriptions; next 10 charges due by due date; only this tenant", async () => {
    const t = await seedTenant();
    const { pro, annual, ana, bia, r } = await history(t);
    for (let i = 11; i >= 1; i--) await r.payment(i % 2 ? ana : bia, 1000 + i, { dueDate: addDays(today(), i) });
    await r.payment(ana, 999, { dueDate: addDays(today(), -1) }); // due yesterday: not next
    await r.payment(ana, 998, { dueDate: addDays(today(), 1), status: "RECEIVED", paymentDate: today() }); // paid
    const other = await seedTenant();
    const o = records(other);
    const big = await o.customer("Outra");
    await o.subscription(big, await o.plan("Enterprise", 999999), 999999);
    await o.payment(big, 5, { dueDate: today() });
    await rebuild(t);
    await rebuild(other);

    const d = await get(t, "period=30d&rankBy=mrr");
    expect(d.topCustomers).toEqual([
      { id: bia, name: "Bia", revenue: "0.00", mrr: "125.00", activeSubscriptions: 1 },
      { id: ana, name: "Ana", revenue: "9.98", mrr: "100.00", activeSubscriptions: 1 },
    ]);
    expect(d.topPlans).toEqual([
      { id: annual, name: "Anual", revenue: "0.00", mrr: "125.00", activeSubscriptions: 1 },
      { id: pro, name: "Pro", revenue: "0.00", mrr: "100.00", activeSubscriptions: 1 },
    ]);
    expect(d.nextChargesDue.map((c) => [c.dueDate, c.value, c.customerName])).toEqual(
      Array.from({ length: 10 }, (_, k) => [
        addDays(today(), k + 1),
        `${10 + Math.floor((k + 1) / 100)}.${String(k + 1).padStart(2, "0")}`,
        (k + 1) % 2 ? "Ana" : "Bia",
      ]),
    );
    const theirs = await get(other, "rankBy=mrr");
    expect(theirs.topCustomers.map((c) => c.name)).toEqual(["Outra"]);
    expect(theirs.nextChargesDue.map((c) => c.value)).toEqual(["0.05"]);
  });

  it("defaults to the last 30 days and the 30 before; mtd/ytd start on the first day", async () => {
    const t = await seedTenant();
    const d = await get(t, "");
    expect(d.period).toBe("30d");
    expect(d.to).toBe(today());
    expect(d.from).toBe(addDays(today(), -29));
    expect(d.previous).toEqual({ from: addDays(today(), -59), to: addDays(today(), -30) });
    expect(d.series).toHaveLength(30);
    expect(d.cards.map((c) => c.key)).toEqual([
      "revenue",
      "net_revenue",
      "expenses",
      "gross_profit",
      "margin",
      "mrr",
      "active_subscriptions",
      "churn_rate",
      "new_customers",
      "pending_amount",
      "overdue_amount",
    ]);
    expect(card(d, "revenue")).toEqual(["0.00", "0.00", null]);
    expect(card(d, "margin")).toEqual([null, null, null]);
    expect((await get(t, "period=mtd")).from).toBe(`${today().slice(0, 7)}-01`);
    expect((await get(t, "period=ytd")).from).toBe(`${today().slice(0, 4)}-01-01`);
    expect((await get(t, "period=7d")).series).toHaveLength(7);
  });

  it("refuses bad parameters and a key without analytics.read", async () => {
    const t = await seedTenant();
    const bad = (q: string) => call("GET", `/api/v1/dashboard?${q}`, { key: t.key });
    expectError(await bad("period=week"), 400, "VALIDATION_FAILED");
    expectError(await bad("period=custom&from=2026-03-01"), 400, "VALIDATION_FAILED");
    expectError(await bad("period=30d&from=2026-03-01&to=2026-03-02"), 400, "VALIDATION_FAILED");
    expectError(await bad("from=2026-03-10&to=2026-03-01"), 400, "VALIDATION_FAILED");
    expectError(await bad("from=2025-01-01&to=2026-03-01"), 400, "VALIDATION_FAILED");
    const weak = await seedTenant({ permissions: ["payments.read"] });
    expectError(await call("GET", "/api/v1/dashboard", { key: weak.key }), 403, "FORBIDDEN");
  });
});
