// Profitability by customer at a realistic size (250 paying customers): paged at the maximum limit, every
// customer on exactly one page in the report's order (revenue descending, then key), the key:null row last,
// each page's names, and totals over the whole range that equal the rows' sums and the metrics totals.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { customers, payments } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import { metricTotal, rebuild, records } from "./analytics-support";
import { call, type Envelope, expectError, seedTenant } from "./support";

interface Row {
  key: string | null;
  name: string | null;
  revenue: string;
  sharedCosts: string;
  directCosts: string;
  grossProfit: string;
}
interface Page {
  rows: Row[];
  totals: Omit<Row, "key" | "name">;
}
type PageBody = Envelope<Page> & { meta: { pagination: { limit: number; offset: number; totalCount: number; hasMore: boolean } } };

const FROM = "2026-03-01";
const TO = "2026-03-31";
const CUSTOMERS = 250;
const cents = (s: string) => Math.round(Number(s) * 100);

describe("profitability paging", () => {
  it("pages 250 customers at the maximum limit: each once, in order, totals over the whole range", async () => {
    const t = await seedTenant();
    const r = records(t);
    const ids = Array.from({ length: CUSTOMERS }, () => newId());
    // One D1 batch: a customer and a paid charge each. 50 distinct amounts: five customers share each revenue, so
    // the key breaks the ties.
    const db = createDb(env.DB);
    const tenant = { organizationId: t.organizationId, workspaceId: t.workspaceId };
    const at = "2026-01-02T12:00:00.000Z";
    const statements = ids.flatMap((id, i) => {
      const paid = `2026-03-${String(1 + (i % 28)).padStart(2, "0")}`;
      return [
        db.insert(customers).values({
          id,
          ...tenant,
          upstreamId: `cus_${id.slice(-12)}`,
          syncStatus: "synced",
          name: `Customer ${i}`,
          cpfCnpj: "52998224725",
          personType: "FISICA",
          createdAt: at,
          updatedAt: at,
        }),
        db.insert(payments).values({
          id: newId(),
          ...tenant,
          upstreamId: `pay_${id.slice(-12)}`,
          syncStatus: "synced",
          customerId: id,
          billingType: "PIX",
          status: "RECEIVED",
          valueCents: 1_000 + (i % 50) * 100,
          dueDate: paid,
          paymentDate: paid,
          createdAt: at,
          updatedAt: `${paid}T15:00:00.000Z`,
        }),
      ];
    });
    await db.batch(statements as unknown as Parameters<typeof db.batch>[0]);
    const infra = await r.category("infra_paging", "Infra");
    await r.expense(infra, 12_345, "2026-03-15"); // shared over every row by net revenue
    await r.expense(infra, 777, "2026-03-16", { customerId: ids[7] }); // direct
    await rebuild(t);

    const pages: PageBody[] = [];
    for (let offset = 0; ; offset += 100) {
      const res = await call<PageBody>("GET", `/api/v1/profitability?groupBy=customer&from=${FROM}&to=${TO}&limit=100&offset=${offset}`, {
        key: t.key,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      pages.push(res.body);
      if (!res.body.meta.pagination.hasMore) break;
    }
    expect(pages.map((p) => p.data.rows.length)).toEqual([100, 100, 51]);
    expect(pages.map((p) => p.meta.pagination)).toEqual([
      { limit: 100, offset: 0, totalCount: 251, hasMore: true },
      { limit: 100, offset: 100, totalCount: 251, hasMore: true },
      { limit: 100, offset: 200, totalCount: 251, hasMore: false },
    ]);
    // Every page carries the same totals.
    for (const p of pages) expect(p.data.totals).toEqual(pages[0]?.data.totals);

    const rows = pages.flatMap((p) => p.data.rows);
    const keyed = rows.slice(0, -1);
    expect(rows.at(-1)?.key).toBeNull();
    expect(new Set(keyed.map((row) => row.key))).toEqual(new Set(ids));
    expect(keyed).toHaveLength(CUSTOMERS);
    // Names looked up on every page, not just the first.
    const nameOf = new Map(ids.map((id, i) => [id, `Customer ${i}`]));
    for (const row of keyed) expect(row.name).toBe(nameOf.get(row.key as string));
    // Revenue descending, then key: a stable order across pages.
    for (let i = 1; i < keyed.length; i++) {
      const [a, b] = [keyed[i - 1] as Row, keyed[i] as Row];
      const order = cents(b.revenue) - cents(a.revenue) || (a.key as string).localeCompare(b.key as string);
      expect(order, `${a.key} before ${b.key}`).toBeLessThan(0);
    }

    // Totals are over every row of the range, and equal the metrics totals.
    const totals = pages[0]?.data.totals as Page["totals"];
    const sum = (f: (row: Row) => string) => rows.reduce((n, row) => n + cents(f(row)), 0);
    const revenue = ids.reduce((n, _id, i) => n + 1_000 + (i % 50) * 100, 0);
    expect(cents(totals.revenue)).toBe(revenue);
    expect(sum((row) => row.revenue)).toBe(revenue);
    expect(totals.revenue).toBe(await metricTotal(t, "revenue", FROM, TO));
    expect(sum((row) => row.sharedCosts)).toBe(cents(totals.sharedCosts));
    expect(sum((row) => row.directCosts)).toBe(777);
    expect(cents(totals.sharedCosts) + cents(totals.directCosts)).toBe(12_345 + 777);
    expect(sum((row) => row.grossProfit)).toBe(cents(totals.grossProfit));
    expect(keyed.find((row) => row.key === ids[7])?.directCosts).toBe("7.77");

    // Past the end: no rows, the same totals.
    const past = await call<PageBody>("GET", `/api/v1/profitability?groupBy=customer&from=${FROM}&to=${TO}&offset=251`, { key: t.key });
    expect(past.status).toBe(200);
    expect(past.body.data.rows).toEqual([]);
    expect(past.body.data.totals).toEqual(totals);
    expect(past.body.meta.pagination).toEqual({ limit: 100, offset: 251, totalCount: 251, hasMore: false });
  });

  it("refuses a limit above 100, a negative offset and an unknown parameter", async () => {
    const t = await seedTenant();
    for (const q of ["limit=101", "limit=0", "offset=-1"]) {
      const res = await call("GET", `/api/v1/profitability?groupBy=customer&${q}`, { key: t.key });
      expectError(res, 400, "VALIDATION_FAILED");
    }
    const unknown = await call<{ error: { details?: { fields?: { path: string }[] } } }>(
      "GET",
      "/api/v1/profitability?groupBy=customer&page=2",
      { key: t.key },
    );
    expectError(unknown, 400, "VALIDATION_FAILED");
    expect(JSON.stringify(unknown.body)).toContain("query.page");
  });
});
