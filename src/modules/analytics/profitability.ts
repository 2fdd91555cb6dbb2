// Profitability (PLATFORM.md "profitability"): revenue, refunds, payment fees, direct and shared costs,
// gross profit and margin by month, plan, customer or cost category over a range.
//
// The totals are the metrics' totals for the same range (read from metric_daily), so they equal
// GET /metrics/{revenue|refunds|payment_fees|expenses} to the cent. What no row carries — one-off charges
// by plan, costs of a deleted category, shared costs when no row has positive net revenue — is the
// `key: null` row. Direct costs are expenses allocated to the row's plan or customer; the rest of the
// range's expenses (shared) is spread over the rows (key:null included) in proportion to their net
// revenue, largest remainder, so the cents add up exactly.
//
// Rows are paged (limit/offset, meta.pagination as on every list; limit up to 100, default 100 so a year by
// month is one page): the shares and totals are worked out over every row of the range, then one page is
// cut and only its names are looked up. Order: by month chronologically; by plan or customer revenue
// descending, then net revenue, then key; by cost category amount descending, then id; the key:null row last.
import { z } from "@hono/zod-openapi";
import { and, eq, gte, inArray, isNotNull, lt, lte, ne, or, sql } from "drizzle-orm";
import type { SQLiteSelect } from "drizzle-orm/sqlite-core";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { costCategories, customers, expenses, metricDaily, payments, plans, refunds, subscriptions } from "../../db/schema";
import { selectInList } from "../../db/in-list";
import { inTenant, inTenantById } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { LIMITS } from "../../config";
import { type Pagination, pagination } from "../../http/pagination";
import { formatMoney } from "../../lib/money";
import { addDays, localDay } from "../../lib/time-zones";
import type { Tenant } from "../../lib/tenant";
import { largestRemainder } from "./allocation";
import { type Party, partyTotals } from "./received-revenue";
import { Dec, formatValue } from "./formula-engine";
import { storedValue } from "./metric-catalogue";
import { Day, MAX_RANGE_DAYS, daysBetween, loadDaily, periodsOf, resolveRange } from "./metrics-service";

export const GROUPINGS = ["month", "plan", "customer", "costCategory"] as const;
export type Grouping = (typeof GROUPINGS)[number];

export const SHARED_COST_RULE =
  "Direct costs are the range's expenses (not CANCELED, by incurredOn, BRL amount) allocated to the row's plan (groupBy=plan) or " +
  "customer (groupBy=customer); every other expense is shared and spread over the rows, the key:null row included, in proportion " +
  "to their net revenue (revenue − refunds − payment fees; rows with none get no share), by the largest-remainder method so the " +
  "cents add up exactly (left-over cents to the largest remainders, ties to the earlier row); " +
  "when no row has positive net revenue the shared costs stay on the key:null row. By month every expense belongs to the month " +
  "it was incurred in (direct = allocated to a plan or customer, shared = the rest); by costCategory each row is one category's " +
  "expenses and the revenue is on the key:null row. The key:null row holds what no row carries; totals are the metrics totals.";

export const ProfitabilityQuery = z
  .object({
    from: Day.optional().openapi({
      param: { name: "from", in: "query" },
      description: "First day (inclusive, the organization's time zone); default 29 days before `to`.",
    }),
    to: Day.optional().openapi({ param: { name: "to", in: "query" }, description: "Last day (inclusive); default today." }),
    groupBy: z
      .enum(GROUPINGS)
      .optional()
      .openapi({ param: { name: "groupBy", in: "query" }, description: "Rows by month (default), plan, customer or costCategory." }),
    by: z
      .enum(["month", "plan", "customer", "category", "costCategory"])
      .optional()
      .openapi({ param: { name: "by", in: "query" }, description: "Same as groupBy (`category` = costCategory)." }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(LIMITS.pageSizeMax)
      .default(LIMITS.pageSizeMax)
      .openapi({
        param: { name: "limit", in: "query" },
        description: `Rows per page, 1–${LIMITS.pageSizeMax} (default ${LIMITS.pageSizeMax}); totals are always over the whole range.`,
      }),
    offset: z.coerce
      .number()
      .int()
      .min(0)
      .default(0)
      .openapi({ param: { name: "offset", in: "query" }, description: "Rows to skip (0-based), in the report's order." }),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to) ctx.addIssue({ code: "custom", path: ["from"], message: "from must not be after to" });
    if (q.from && q.to && daysBetween(q.from, q.to) >= MAX_RANGE_DAYS)
      ctx.addIssue({ code: "custom", path: ["to"], message: `at most ${MAX_RANGE_DAYS} days` });
    const by = q.by === "category" ? "costCategory" : q.by;
    if (q.groupBy && by && q.groupBy !== by)
      ctx.addIssue({ code: "custom", path: ["by"], message: "by and groupBy name different groupings; send one" });
  });
export type ProfitabilityQuery = z.infer<typeof ProfitabilityQuery>;

const Money = z.string().openapi({ description: "BRL, a decimal string exact to the cent." });
const Amounts = {
  revenue: Money,
  refunds: Money,
  paymentFees: Money,
  netRevenue: Money,
  directCosts: Money,
  sharedCosts: Money,
  grossProfit: Money,
  margin: z.string().nullable().openapi({ description: "grossProfit ÷ revenue × 100 (percent); null when revenue is 0." }),
};
export const ProfitabilityRow = z
  .object({
    key: z
      .string()
      .nullable()
      .openapi({ description: "The month (YYYY-MM), plan id, customer id or cost category id; null for what no row carries." }),
    name: z.string().nullable(),
    ...Amounts,
  })
  .openapi("ProfitabilityRow");
export const Profitability = z
  .object({
    object: z.literal("profitability"),
    groupBy: z.enum(GROUPINGS),
    from: z.string(),
    to: z.string(),
    timeZone: z.string(),
    rows: z.array(ProfitabilityRow),
    totals: z.object(Amounts),
  })
  .openapi("Profitability");
export const ProfitabilityMeta = z.object({ sharedCostRule: z.string(), currency: z.literal("BRL") });

interface Cents {
  revenue: number;
  refunds: number;
  fees: number;
  direct: number;
  shared: number;
}
interface Row extends Cents {
  key: string | null;
  name: string | null;
}
const zero = (): Cents => ({ revenue: 0, refunds: 0, fees: 0, direct: 0, shared: 0 });
const net = (r: Cents) => r.revenue - r.refunds - r.fees;
const profit = (r: Cents) => net(r) - r.direct - r.shared;

function format(r: Cents) {
  const margin = r.revenue === 0 ? null : formatValue(new Dec(profit(r)).div(r.revenue).times(100), "PERCENT");
  return {
    revenue: formatMoney(r.revenue),
    refunds: formatMoney(r.refunds),
    paymentFees: formatMoney(r.fees),
    netRevenue: formatMoney(net(r)),
    directCosts: formatMoney(r.direct),
    sharedCosts: formatMoney(r.shared),
    grossProfit: formatMoney(profit(r)),
    margin,
  };
}

/** The range's totals from the rollups: what GET /metrics answers for the same range. */
async function metricTotals(deps: Deps, tenant: Tenant, from: string, to: string) {
  const data = await loadDaily(deps, tenant, ["revenue", "refunds", "payment_fees", "expenses"], from, to);
  const period = { start: from, end: to };
  return {
    revenue: storedValue(data, "revenue", period),
    refunds: storedValue(data, "refunds", period),
    fees: storedValue(data, "payment_fees", period),
    expenses: storedValue(data, "expenses", period),
  };
}

async function namesOf(deps: Deps, tenant: Tenant, table: typeof plans | typeof customers, ids: string[]) {
  const rows = await selectInList(deps.db, ids, (part) =>
    deps.db
      .select({ id: table.id, name: table.name })
      .from(table)
      .where(and(inTenantById(table, tenant), inArray(table.id, part))),
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The column a refund is counted under: its charge's customer, or its charge's subscription's plan. */
const partyColumn = (by: Party) => (by === "plan" ? subscriptions.planId : payments.customerId);

/**
 * Revenue, fees and refunds per plan or customer over [from, to], and the direct expenses. Revenue and fees come
 * from the party rollups (./received-revenue.ts: a row per day and party, not the charges); refunds, far fewer,
 * from the refunds of the range and their charges.
 */
async function byParty(deps: Deps, tenant: Tenant, by: Party, from: string, to: string, zone: string) {
  const partyOfPayment = partyColumn(by);
  // A charge's plan is its subscription's: only by plan is the subscription joined (by customer, a lookup per charge less).
  const plansJoined = <Q extends SQLiteSelect>(q: Q): Q =>
    by === "plan" ? (q.leftJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId)) as unknown as Q) : q;
  // Refunds are dated by their local day (as the rollups date them): read a day either side, bucket here.
  const refunded = plansJoined(
    deps.db
      .select({ key: partyOfPayment, value: refunds.valueCents, at: refunds.updatedAt })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .$dynamic(),
  ).where(
    and(
      inTenant(refunds, tenant),
      eq(refunds.status, "done"),
      gte(refunds.updatedAt, addDays(from, -1)),
      lt(refunds.updatedAt, addDays(to, 2)),
    ),
  );
  const expenseParty = by === "plan" ? expenses.planId : expenses.customerId;
  const direct = deps.db
    .select({ key: expenseParty, value: sql<number>`coalesce(sum(${expenses.amountBrlCents}), 0)` })
    .from(expenses)
    .where(
      and(
        inTenant(expenses, tenant),
        ne(expenses.status, "CANCELED"),
        gte(expenses.incurredOn, from),
        lte(expenses.incurredOn, to),
        isNotNull(expenseParty),
      ),
    )
    .groupBy(expenseParty);
  const [receivedRows, feeRows, refundRows, directRows] = await deps.db.batch([
    partyTotals(deps, tenant, "received", by, from, to),
    partyTotals(deps, tenant, "payment_fees", by, from, to),
    refunded,
    direct,
  ]);

  const rows = new Map<string, Row>();
  const row = (key: string) => {
    const found = rows.get(key);
    if (found) return found;
    const r: Row = { key, name: null, ...zero() };
    rows.set(key, r);
    return r;
  };
  for (const p of receivedRows) row(p.id).revenue += Number(p.cents);
  for (const p of feeRows) row(p.id).fees += Number(p.cents);
  for (const f of refundRows) {
    const day = localDay(f.at, zone);
    if (f.key === null || day < from || day > to) continue;
    row(f.key).refunds += f.value;
  }
  for (const d of directRows) if (d.key !== null) row(d.key).direct += Number(d.value);
  // Names are looked up for the page only (profitability()): a page is at most 100 rows, the range may hold thousands.
  return [...rows.values()].sort((a, b) => b.revenue - a.revenue || net(b) - net(a) || (a.key ?? "").localeCompare(b.key ?? ""));
}

async function byMonth(deps: Deps, tenant: Tenant, from: string, to: string) {
  const months = periodsOf(from, to, "month");
  const data = await loadDaily(deps, tenant, ["revenue", "refunds", "payment_fees", "expenses"], from, to);
  const month = sql<string>`substr(${expenses.incurredOn}, 1, 7)`;
  const directRows = await deps.db
    .select({ month, value: sql<number>`coalesce(sum(${expenses.amountBrlCents}), 0)` })
    .from(expenses)
    .where(
      and(
        inTenant(expenses, tenant),
        ne(expenses.status, "CANCELED"),
        gte(expenses.incurredOn, from),
        lte(expenses.incurredOn, to),
        or(isNotNull(expenses.planId), isNotNull(expenses.customerId)),
      ),
    )
    .groupBy(month);
  const direct = new Map(directRows.map((d) => [d.month, Number(d.value)]));
  return months.map((p): Row => {
    const key = p.start.slice(0, 7);
    const costs = storedValue(data, "expenses", p);
    const allocated = Math.min(direct.get(key) ?? 0, costs);
    return {
      key,
      name: key,
      revenue: storedValue(data, "revenue", p),
      refunds: storedValue(data, "refunds", p),
      fees: storedValue(data, "payment_fees", p),
      direct: allocated,
      shared: costs - allocated,
    };
  });
}

/** The period's expenses by cost category (from the rollups), largest first; a deleted category's are left out. */
export async function expensesByCategory(deps: Deps, tenant: Tenant, from: string, to: string) {
  const prefix = "expenses.category.";
  const [sums, categories] = await deps.db.batch([
    deps.db
      .select({ metric: metricDaily.metric, value: sql<number>`coalesce(sum(${metricDaily.value}), 0)` })
      .from(metricDaily)
      .where(
        and(
          inTenant(metricDaily, tenant),
          gte(metricDaily.metric, prefix),
          lt(metricDaily.metric, "expenses.category/"),
          gte(metricDaily.day, from),
          lte(metricDaily.day, to),
        ),
      )
      .groupBy(metricDaily.metric),
    deps.db.select({ id: costCategories.id, name: costCategories.name }).from(costCategories).where(inTenant(costCategories, tenant)),
  ]);
  const names = new Map(categories.map((c) => [c.id, c.name]));
  return sums
    .map((s) => {
      const id = s.metric.slice(prefix.length);
      return { id, name: names.get(id) ?? null, cents: Number(s.value) };
    })
    .filter((r): r is { id: string; name: string; cents: number } => r.cents !== 0 && r.name !== null)
    .sort((a, b) => b.cents - a.cents || a.id.localeCompare(b.id));
}

async function byCategory(deps: Deps, tenant: Tenant, from: string, to: string) {
  return (await expensesByCategory(deps, tenant, from, to)).map((c): Row => ({ key: c.id, name: c.name, ...zero(), direct: c.cents }));
}

export async function profitability(deps: Deps, principal: Principal, query: ProfitabilityQuery) {
  requirePermission(principal, "analytics.read");
  const tenant = tenantOf(principal);
  const groupBy: Grouping = query.groupBy ?? (query.by === "category" ? "costCategory" : query.by) ?? "month";
  const range = await resolveRange(deps, tenant, { from: query.from, to: query.to, interval: "day" });
  const { from, to, timeZone } = range;
  const totals = await metricTotals(deps, tenant, from, to);

  const rows =
    groupBy === "month"
      ? await byMonth(deps, tenant, from, to)
      : groupBy === "costCategory"
        ? await byCategory(deps, tenant, from, to)
        : await byParty(deps, tenant, groupBy, from, to, timeZone);

  // What no row carries: the metrics totals minus the rows' sums.
  const rest: Row = { key: null, name: null, ...zero() };
  const sum = (f: (r: Row) => number) => rows.reduce((a, r) => a + f(r), 0);
  rest.revenue = totals.revenue - sum((r) => r.revenue);
  rest.refunds = totals.refunds - sum((r) => r.refunds);
  rest.fees = totals.fees - sum((r) => r.fees);
  const sharedPool = totals.expenses - sum((r) => r.direct + r.shared);
  const all = [...rows, rest];
  // By plan or customer the key:null row's revenue (e.g. one-off charges by plan) bears its share too.
  const shares =
    groupBy === "plan" || groupBy === "customer"
      ? largestRemainder(
          sharedPool,
          all.map((r) => net(r)),
        )
      : null;
  if (shares) for (const [i, r] of all.entries()) r.shared = shares[i] ?? 0;
  else rest.shared = sharedPool;

  const total = all.reduce((t, r) => {
    t.revenue += r.revenue;
    t.refunds += r.refunds;
    t.fees += r.fees;
    t.direct += r.direct;
    t.shared += r.shared;
    return t;
  }, zero());
  const page = all.slice(query.offset, query.offset + query.limit);
  if (groupBy === "plan" || groupBy === "customer") {
    const keys = page.flatMap((r) => (r.key === null ? [] : [r.key]));
    const names = await namesOf(deps, tenant, groupBy === "plan" ? plans : customers, keys);
    for (const r of page) r.name = r.key === null ? null : (names.get(r.key) ?? null);
  }
  const report = {
    object: "profitability" as const,
    groupBy,
    from,
    to,
    timeZone,
    rows: page.map((r) => ({ key: r.key, name: r.name, ...format(r) })),
    totals: format(total),
  };
  return { report, pagination: pagination(query, all.length) as Pagination };
}
