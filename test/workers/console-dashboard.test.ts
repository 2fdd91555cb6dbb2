// The console Dashboard as designed (issue 27 #2): the three charts' tables carry exactly the numbers
// GET /api/v1/dashboard answers for the same data, the top lists rank by revenue or by MRR (a toggle), and
// every card links to the page that explains its number. Data: records written to D1, rollups rebuilt.
import { describe, expect, it } from "vitest";
import { formatMetric } from "../../src/console/charts";
import { addDays } from "../../src/lib/time-zones";
import { records } from "./analytics-support";
import { callWithCookie, signUpUser } from "./auth-support";
import { linksIn, page, tableRows, today } from "./console-analytics-support";
import type { Envelope, TestTenant } from "./support";

interface ApiDashboard {
  from: string;
  to: string;
  series: { day: string; revenue: string; expenses: string }[];
  mrrHistory: { month: string; mrr: string }[];
  expensesByCategory: { name: string; amount: string }[];
  cards: { key: string; value: string | null }[];
}

/** Two customers on two plans: Ana pays more in the period, Bruno's subscriptions are worth more a month. */
async function seeded() {
  const user = await signUpUser();
  const r = records({ ...user, key: "", apiKeyId: "" } as TestTenant);
  const d = today();
  const [ana, bruno] = [await r.customer("Ana"), await r.customer("Bruno")];
  const [gold, silver] = [await r.plan("Gold", 10000), await r.plan("Silver", 5000)];
  const anaGold = await r.subscription(ana, gold, 10000);
  for (let i = 0; i < 3; i++) await r.subscription(bruno, silver, 5000);
  await r.payment(ana, 30000, { subscriptionId: anaGold, paymentDate: addDays(d, -1) });
  await r.payment(bruno, 5000, { paymentDate: addDays(d, -2) });
  const [cloud, ads] = [await r.category("cloud", "Cloud"), await r.category("ads", "Ads")];
  await r.expense(cloud, 12345, addDays(d, -3));
  await r.expense(ads, 2000, addDays(d, -1));
  const rebuilt = await callWithCookie("POST", "/api/v1/metrics/rebuild", user.cookie);
  expect(rebuilt.status, JSON.stringify(rebuilt.body)).toBe(200);
  return { ...user, d, ana, bruno, gold, silver };
}

const api = async (cookie: string, query = "") => {
  const res = await callWithCookie<Envelope<ApiDashboard>>("GET", `/api/v1/dashboard${query}`, cookie);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const html = async (path: string, cookie: string) => {
  const res = await page(path, cookie);
  expect(res.status).toBe(200);
  return res.text();
};

describe("console dashboard charts, top lists and links", () => {
  it("each chart's table holds the API's numbers; the top lists rank by revenue, or by MRR through the toggle", async () => {
    const t = await seeded();
    const [view, body] = await Promise.all([api(t.cookie), html("/console/dashboard", t.cookie)]);
    const brl = (v: string) => formatMetric(v, "BRL");
    // Revenue vs expenses per day: every day of the period, as the API answers it.
    const daily = tableRows(body, 'data-table="revenue-vs-expenses"');
    expect(daily).toEqual(view.series.map((p) => [p.day, brl(p.revenue), brl(p.expenses)]));
    expect(daily).toHaveLength(30);
    expect(daily.find((row) => row[0] === addDays(t.d, -1))).toEqual([addDays(t.d, -1), "R$ 300.00", "R$ 20.00"]);
    // MRR over the last 12 months: 100.00 (Gold) + 3 × 50.00 (Silver) now.
    const mrr = tableRows(body, 'data-table="mrr-history"');
    expect(mrr).toEqual(view.mrrHistory.map((m) => [m.month, brl(m.mrr)]));
    expect(mrr).toHaveLength(12);
    expect(mrr.at(-1)).toEqual([t.d.slice(0, 7), "R$ 250.00"]);
    // Expenses by cost category, largest first.
    const categories = tableRows(body, 'data-table="expenses-by-category"');
    expect(categories).toEqual(view.expensesByCategory.map((e) => [e.name, brl(e.amount)]));
    expect(categories).toEqual([
      ["Cloud", "R$ 123.45"],
      ["Ads", "R$ 20.00"],
    ]);
    // The charts themselves: the two uPlot figures and the server-drawn bars, each with its table.
    for (const id of ["revenue-vs-expenses", "mrr-history", "expenses-by-category"])
      expect(body).toContain(`<figure class="chart card" id="${id}"`);
    expect(body).toMatch(/<caption[^>]*>MRR at the end of each month<\/caption>/);

    // By revenue (the default): Ana received 300.00, Bruno 50.00; plans: Gold's 300.00 (Bruno's payment had no subscription).
    expect(body).toContain("Top customers by revenue");
    expect(tableRows(body, 'data-table="top-customers"')).toEqual([
      ["Ana", "R$ 300.00", "R$ 100.00", "1"],
      ["Bruno", "R$ 50.00", "R$ 150.00", "3"],
    ]);
    expect(linksIn(body, 'data-table="top-customers"', "</table>")).toEqual([
      `/console/payments?customer=${t.ana}`,
      `/console/payments?customer=${t.bruno}`,
    ]);
    // The toggle: the same period ranked by MRR, where Bruno and Silver lead.
    const toggle = linksIn(body, "data-rank-toggle", "</nav>");
    expect(toggle).toEqual(["/console/dashboard?period=30d&rankBy=revenue", "/console/dashboard?period=30d&rankBy=mrr"]);
    const byMrr = await html(toggle[1]!, t.cookie);
    expect(byMrr).toContain("Top customers by MRR");
    expect(byMrr).toMatch(/<a href="\/console\/dashboard\?period=30d&amp;rankBy=mrr" aria-current="true">/);
    expect(tableRows(byMrr, 'data-table="top-customers"')).toEqual([
      ["Bruno", "R$ 150.00", "R$ 50.00", "3"],
      ["Ana", "R$ 100.00", "R$ 300.00", "1"],
    ]);
    expect(tableRows(byMrr, 'data-table="top-plans"').map((row) => row.slice(0, 2))).toEqual([
      ["Silver", "R$ 150.00"],
      ["Gold", "R$ 100.00"],
    ]);
  });

  it("every card links to the page that explains its number, and the metric page shows the same figure", async () => {
    const t = await seeded();
    const [view, body] = await Promise.all([api(t.cookie), html("/console/dashboard", t.cookie)]);
    const range = `from=${view.from}&to=${view.to}`;
    const href = (key: string) => linksIn(body, `data-card="${key}"`)[0];
    for (const card of view.cards) expect(href(card.key), card.key).toBeDefined();
    expect(href("revenue")).toBe(`/console/metrics?metric=revenue&${range}&interval=day`);
    expect(href("expenses")).toBe(`/console/expenses?${range}`);
    expect(href("margin")).toBe(`/console/profitability?groupBy=month&${range}`);
    expect(href("pending_amount")).toBe("/console/payments?status=PENDING");
    expect(href("overdue_amount")).toBe("/console/payments?status=OVERDUE");
    expect(href("active_subscriptions")).toBe("/console/subscriptions?status=ACTIVE");
    // Following the revenue card: the explorer's total over the same days is the card's value.
    const revenue = view.cards.find((c) => c.key === "revenue")!.value!;
    expect(revenue).toBe("350.00");
    expect(await html(href("revenue")!, t.cookie)).toMatch(/data-total[^>]*>R\$ 350\.00</);
    const expensesPage = await html(href("expenses")!, t.cookie);
    expect(expensesPage).toContain("123.45");
  });
});
