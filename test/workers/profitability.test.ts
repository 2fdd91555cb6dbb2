// Profitability: rows worked out by hand to the cent, the shared-cost rule (largest remainder over net
// revenue), totals equal to the metrics totals, tenant isolation, and bad parameters.
import { describe, expect, it } from "vitest";
import { metricTotal, rebuild, records } from "./analytics-support";
import { call, type Envelope, expectError, seedTenant, type TestTenant } from "./support";

interface Amounts {
  revenue: string;
  refunds: string;
  paymentFees: string;
  netRevenue: string;
  directCosts: string;
  sharedCosts: string;
  grossProfit: string;
  margin: string | null;
}
interface Report {
  object: string;
  groupBy: string;
  from: string;
  to: string;
  rows: (Amounts & { key: string | null; name: string | null })[];
  totals: Amounts;
}
type ReportBody = Envelope<Report> & { meta: { sharedCostRule: string; currency: string } };

const FROM = "2026-03-01";
const TO = "2026-04-30";

/**
 * Plans Pro (100.00) and Basic (33.33); customers Ana (Pro), Bia and Caio (Basic); Caio also pays a
 * one-off 50.00. Expenses: 50.00 on Pro, 20.00 on Caio, 100.00 shared, a CANCELED one and one after the range.
 */
async function history(t: TestTenant) {
  const r = records(t);
  const pro = await r.plan("Pro", 10000);
  const basic = await r.plan("Basic", 3333);
  const ana = await r.customer("Ana");
  const bia = await r.customer("Bia");
  const caio = await r.customer("Caio");
  const s1 = await r.subscription(ana, pro, 10000);
  const s2 = await r.subscription(bia, basic, 3333);
  const s3 = await r.subscription(caio, basic, 3333);
  const p1 = await r.payment(ana, 10000, { subscriptionId: s1, paymentDate: "2026-03-10", netValueCents: 9801 });
  await r.payment(ana, 10000, { subscriptionId: s1, paymentDate: "2026-04-10", netValueCents: 9801 });
  await r.payment(bia, 3333, { subscriptionId: s2, paymentDate: "2026-03-15" });
  await r.payment(caio, 3333, { subscriptionId: s3, paymentDate: "2026-04-15", netValueCents: 3234 });
  await r.payment(caio, 5000, { paymentDate: "2026-04-20" }); // one-off: no plan
  await r.payment(bia, 7777, { dueDate: "2026-04-25" }); // pending: no revenue
  await r.payment(ana, 10000, { subscriptionId: s1, paymentDate: "2026-05-02", netValueCents: 9801 }); // after the range
  await r.refund(p1, 1000, "2026-03-20T15:00:00.000Z");
  const infra = await r.category("infra", "Infra");
  const software = await r.category("software_t", "Software T");
  await r.expense(infra, 5000, "2026-03-05", { planId: pro });
  await r.expense(software, 2000, "2026-04-01", { customerId: caio });
  await r.expense(infra, 10000, "2026-03-31");
  await r.expense(infra, 777, "2026-03-31", { status: "CANCELED" });
  await r.expense(software, 3000, "2026-05-01");
  await rebuild(t);
  return { pro, basic, ana, bia, caio, infra, software };
}

async function report(t: TestTenant, query: string) {
  const res = await call<ReportBody>("GET", `/api/v1/profitability?from=${FROM}&to=${TO}&${query}`, { key: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const TOTALS: Amounts = {
  revenue: "316.66",
  refunds: "10.00",
  paymentFees: "4.97",
  netRevenue: "301.69",
  directCosts: expect.any(String) as unknown as string,
  sharedCosts: expect.any(String) as unknown as string,
  grossProfit: "131.69",
  margin: "41.587191",
};
const costs = (a: Amounts) => Math.round(Number(a.directCosts) * 100) + Math.round(Number(a.sharedCosts) * 100);

describe("GET /profitability", () => {
  it("by plan: direct costs on their plan, the rest spread by net revenue with largest remainder, one-off revenue on key:null", async () => {
    const t = await seedTenant();
    const ids = await history(t);
    const body = await report(t, "groupBy=plan");
    expect(body.meta.sharedCostRule).toMatch(/largest-remainder/);
    expect(body.meta.currency).toBe("BRL");
    // Shared 120.00 (170.00 − 50.00 direct) over net revenues 186.02 / 65.67 / 50.00:
    // 73.9911…, 26.1208…, 19.8879… → floors 73.99 + 26.12 + 19.88 = 119.99; the cent to the largest remainder (19.8879…).
    expect(body.data.rows).toEqual([
      {
        key: ids.pro,
        name: "Pro",
        revenue: "200.00",
        refunds: "10.00",
        paymentFees: "3.98",
        netRevenue: "186.02",
        directCosts: "50.00",
        sharedCosts: "73.99",
        grossProfit: "62.03",
        margin: "31.015",
      },
      {
        key: ids.basic,
        name: "Basic",
        revenue: "66.66",
        refunds: "0.00",
        paymentFees: "0.99",
        netRevenue: "65.67",
        directCosts: "0.00",
        sharedCosts: "26.12",
        grossProfit: "39.55",
        margin: "59.330933",
      },
      {
        key: null,
        name: null,
        revenue: "50.00",
        refunds: "0.00",
        paymentFees: "0.00",
        netRevenue: "50.00",
        directCosts: "0.00",
        sharedCosts: "19.89",
        grossProfit: "30.11",
        margin: "60.22",
      },
    ]);
    expect(body.data.totals).toEqual({ ...TOTALS, directCosts: "50.00", sharedCosts: "120.00" });
  });

  it("by customer: the plan-only expense is shared; the customer's is direct; every cent accounted for", async () => {
    const t = await seedTenant();
    const ids = await history(t);
    const { rows, totals } = (await report(t, "by=customer")).data;
    // Shared 150.00 over 186.02 / 82.34 / 33.33 → 92.48897…, 40.93937…, 16.57164… → 92.48 + 40.93 + 16.57 = 149.98;
    // the two cents to the largest remainders (0.897…, 0.937…).
    expect(rows.map((r) => [r.key, r.name, r.revenue, r.directCosts, r.sharedCosts, r.grossProfit, r.margin])).toEqual([
      [ids.ana, "Ana", "200.00", "0.00", "92.49", "93.53", "46.765"],
      [ids.caio, "Caio", "83.33", "20.00", "40.94", "21.40", "25.681027"],
      [ids.bia, "Bia", "33.33", "0.00", "16.57", "16.76", "50.285029"],
      [null, null, "0.00", "0.00", "0.00", "0.00", null],
    ]);
    expect(totals).toEqual({ ...TOTALS, directCosts: "20.00", sharedCosts: "150.00" });
  });

  it("by month and by cost category; totals equal the metrics totals to the cent", async () => {
    const t = await seedTenant();
    const ids = await history(t);
    const months = (await report(t, "groupBy=month")).data;
    expect(months.rows).toEqual([
      {
        key: "2026-03",
        name: "2026-03",
        revenue: "133.33",
        refunds: "10.00",
        paymentFees: "1.99",
        netRevenue: "121.34",
        directCosts: "50.00",
        sharedCosts: "100.00",
        grossProfit: "-28.66",
        margin: "-21.495537",
      },
      {
        key: "2026-04",
        name: "2026-04",
        revenue: "183.33",
        refunds: "0.00",
        paymentFees: "2.98",
        netRevenue: "180.35",
        directCosts: "20.00",
        sharedCosts: "0.00",
        grossProfit: "160.35",
        margin: "87.465227",
      },
      {
        key: null,
        name: null,
        revenue: "0.00",
        refunds: "0.00",
        paymentFees: "0.00",
        netRevenue: "0.00",
        directCosts: "0.00",
        sharedCosts: "0.00",
        grossProfit: "0.00",
        margin: null,
      },
    ]);
    const categories = (await report(t, "by=category")).data;
    expect(categories.groupBy).toBe("costCategory");
    expect(categories.rows.map((r) => [r.key, r.name, r.revenue, r.directCosts, r.grossProfit])).toEqual([
      [ids.infra, "Infra", "0.00", "150.00", "-150.00"],
      [ids.software, "Software T", "0.00", "20.00", "-20.00"],
      [null, null, "316.66", "0.00", "301.69"],
    ]);

    for (const groupBy of ["month", "plan", "customer", "costCategory"]) {
      const { totals } = (await report(t, `groupBy=${groupBy}`)).data;
      expect(totals.revenue).toBe(await metricTotal(t, "revenue", FROM, TO));
      expect(totals.refunds).toBe(await metricTotal(t, "refunds", FROM, TO));
      expect(totals.paymentFees).toBe(await metricTotal(t, "payment_fees", FROM, TO));
      expect(totals.netRevenue).toBe(await metricTotal(t, "net_revenue", FROM, TO));
      expect((costs(totals) / 100).toFixed(2)).toBe(await metricTotal(t, "expenses", FROM, TO));
      expect(totals.grossProfit).toBe(await metricTotal(t, "gross_profit", FROM, TO));
    }
  });

  it("sees only its own workspace's records", async () => {
    const t = await seedTenant();
    const other = await seedTenant();
    await history(t);
    const r = records(other);
    const c = await r.customer("Outro");
    await r.payment(c, 99999, { paymentDate: "2026-03-03" });
    await r.expense(await r.category("x", "X"), 12345, "2026-03-03");
    await rebuild(other);
    const mine = (await report(t, "groupBy=customer")).data;
    expect(mine.totals).toEqual({ ...TOTALS, directCosts: "20.00", sharedCosts: "150.00" });
    expect(mine.rows.map((x) => x.name)).not.toContain("Outro");
    const theirs = (await report(other, "groupBy=customer")).data;
    expect(theirs.rows.map((x) => [x.name, x.revenue, x.sharedCosts])).toEqual([
      ["Outro", "999.99", "123.45"],
      [null, "0.00", "0.00"],
    ]);
  });

  it("refuses bad parameters and a key without analytics.read", async () => {
    const t = await seedTenant();
    const get = (q: string) => call("GET", `/api/v1/profitability?${q}`, { key: t.key });
    expectError(await get("groupBy=week"), 400, "VALIDATION_FAILED");
    expectError(await get("by=plan&groupBy=customer"), 400, "VALIDATION_FAILED");
    expectError(await get("from=2026-04-01&to=2026-03-01"), 400, "VALIDATION_FAILED");
    expectError(await get("from=2026-02-30"), 400, "VALIDATION_FAILED");
    expectError(await get("from=2010-01-01&to=2026-01-01"), 400, "VALIDATION_FAILED");
    const empty = (await report(t, "groupBy=plan")).data;
    expect(empty.rows).toEqual([expect.objectContaining({ key: null, revenue: "0.00", sharedCosts: "0.00", margin: null })]);
    const weak = await seedTenant({ permissions: ["payments.read"] });
    expectError(await call("GET", "/api/v1/profitability", { key: weak.key }), 403, "FORBIDDEN");
  });
});
