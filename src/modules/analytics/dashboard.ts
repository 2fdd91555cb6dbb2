// The dashboard (PLATFORM.md "dashboard"): in one call, the cards a merchant opens first with the
// previous equal period, the series a console charts (revenue vs expenses per day, MRR at the end of
// each of the last 12 months, the period's expenses by cost category), the top customers and plans
// (./dashboard-rankings.ts: by revenue received in the period, or by MRR), and the next charges due.
// The cards and series read metric_daily (one aggregate for the levels before the range + at most one
// row per metric and day), and the next charges are an indexed LIMIT read (payments_due_idx:
// workspace, status, due date).
import { z } from "@hono/zod-openapi";
import { and, asc, eq, gte } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { customers, payments } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import type { StoredMetric } from "../../events/metric-rollups";
import { ApiError } from "../../http/errors";
import { formatMoney } from "../../lib/money";
import { addDays, localDay } from "../../lib/time-zones";
import { Dec, formatValue, type Value } from "./formula-engine";
import { type DailyData, type Period, type Unit, metricDefinition, metricValue } from "./metric-catalogue";
import { Day, daysBetween, loadDaily, organizationTimeZone, periodsOf } from "./metrics-service";
import { RANKINGS, TopEntry, rankings } from "./dashboard-rankings";
import { expensesByCategory } from "./profitability";

export const PERIODS = ["7d", "30d", "90d", "mtd", "qtd", "ytd", "custom"] as const;
/** A custom range: at most a year and a day (the daily series stays ≤ 366 points). */
const MAX_DASHBOARD_DAYS = 366;
const NEXT_CHARGES = 10;
/** The MRR series: the current month and the 11 before it. */
const MRR_MONTHS = 12;

/** "YYYY-MM" moved by `n` months. */
const addMonths = (month: string, n: number) => {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
};

export const DashboardQuery = z
  .object({
    period: z
      .enum(PERIODS)
      .optional()
      .openapi({
        param: { name: "period", in: "query" },
        description:
          "Default 30d (today and the 29 days before); mtd/qtd/ytd start on the month's/quarter's/year's first day. custom needs from and to.",
      }),
    from: Day.optional().openapi({ param: { name: "from", in: "query" }, description: "First day of a custom period (inclusive)." }),
    to: Day.optional().openapi({ param: { name: "to", in: "query" }, description: "Last day of a custom period (inclusive)." }),
    rankBy: z
      .enum(RANKINGS)
      .optional()
      .openapi({
        param: { name: "rankBy", in: "query" },
        description: "How topCustomers and topPlans are ranked: revenue received in the period (default) or MRR now.",
      }),
  })
  .superRefine((q, ctx) => {
    const custom = q.period === "custom" || (q.period === undefined && (q.from || q.to));
    if (custom && (!q.from || !q.to))
      ctx.addIssue({ code: "custom", path: [q.from ? "to" : "from"], message: "a custom period needs from and to" });
    if (!custom && (q.from || q.to)) ctx.addIssue({ code: "custom", path: ["period"], message: "from/to go with period=custom" });
    if (q.from && q.to && q.from > q.to) ctx.addIssue({ code: "custom", path: ["from"], message: "from must not be after to" });
    if (q.from && q.to && daysBetween(q.from, q.to) >= MAX_DASHBOARD_DAYS)
      ctx.addIssue({ code: "custom", path: ["to"], message: `at most ${MAX_DASHBOARD_DAYS} days` });
  });
export type DashboardQuery = z.infer<typeof DashboardQuery>;

const Card = z.object({
  key: z.string(),
  name: z.string(),
  unit: z.enum(["BRL", "COUNT", "PERCENT"]),
  value: z.string().nullable(),
  previous: z.string().nullable().openapi({ description: "The same card over the previous equal period." }),
  changePercent: z
    .string()
    .nullable()
    .openapi({ description: "(value − previous) ÷ |previous| × 100, to 2 decimals; null when either is null or previous is 0." }),
});
export const Dashboard = z
  .object({
    object: z.literal("dashboard"),
    period: z.enum(PERIODS),
    from: z.string(),
    to: z.string(),
    previous: z.object({ from: z.string(), to: z.string() }),
    timeZone: z.string().openapi({ description: "The organization's time zone: the days above are its local days." }),
    rankBy: z.enum(RANKINGS),
    cards: z.array(Card),
    series: z
      .array(z.object({ day: z.string(), revenue: z.string(), expenses: z.string() }))
      .openapi({ description: "Revenue vs expenses per day of the period (decimal strings)." }),
    mrrHistory: z
      .array(z.object({ month: z.string().openapi({ example: "2026-03" }), mrr: z.string() }))
      .openapi({ description: "MRR at the end of each of the last 12 months, oldest first (the current month: today)." }),
    expensesByCategory: z
      .array(z.object({ id: z.string(), name: z.string(), amount: z.string() }))
      .openapi({ description: "The period's expenses by cost category, largest first (decimal strings)." }),
    topCustomers: z
      .array(TopEntry)
      .openapi({ description: "Five at most, highest first by rankBy: revenue received in the period, or MRR of ACTIVE subscriptions." }),
    topPlans: z.array(TopEntry).openapi({ description: "Five at most, highest first by rankBy (one-off charges belong to no plan)." }),
    nextChargesDue: z.array(
      z.object({
        id: z.string(),
        customerId: z.string(),
        customerName: z.string().nullable(),
        value: z.string(),
        dueDate: z.string(),
        billingType: z.string(),
        description: z.string().nullable(),
      }),
    ),
  })
  .openapi("Dashboard");

/** The cards, in order: catalogue metrics, plus `margin` (gross_profit ÷ revenue × 100). */
const CARDS = [
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
] as const;
const STORED: StoredMetric[] = [
  "revenue",
  "refunds",
  "payment_fees",
  "expenses",
  "mrr",
  "active_subscriptions",
  "canceled_subscriptions",
  "new_customers",
  "pending_amount",
  "overdue_amount",
];

/** The period's [from, to] from today in the organization's zone, and the previous equal period. */
export function dashboardRange(query: DashboardQuery, today: string) {
  const period = query.period ?? (query.from || query.to ? "custom" : "30d");
  let from: string;
  let to = today;
  const [y, m] = today.split("-").map(Number) as [number, number];
  const first = (month: number) => `${y}-${String(month).padStart(2, "0")}-01`;
  switch (period) {
    case "7d":
      from = addDays(today, -6);
      break;
    case "30d":
      from = addDays(today, -29);
      break;
    case "90d":
      from = addDays(today, -89);
      break;
    case "mtd":
      from = first(m);
      break;
    case "qtd":
      from = first(m - ((m - 1) % 3));
      break;
    case "ytd":
      from = first(1);
      break;
    default:
      if (!query.from || !query.to) throw new ApiError("VALIDATION_FAILED", "A custom period needs from and to.");
      from = query.from;
      to = query.to;
  }
  const length = daysBetween(from, to) + 1;
  return { period, from, to, previous: { from: addDays(from, -length), to: addDays(from, -1) } };
}

function changePercent(value: Value, previous: Value): string | null {
  if (value === null || previous === null || previous.eq(0)) return null;
  return value.minus(previous).div(previous.abs()).times(100).toFixed(2, Dec.roundHalfEven);
}

function cardValue(key: (typeof CARDS)[number], data: DailyData, p: Period): Value {
  if (key !== "margin") return metricValue(key, data, p);
  const revenue = metricValue("revenue", data, p);
  const profit = metricValue("gross_profit", data, p);
  return revenue === null || profit === null || revenue.eq(0) ? null : profit.div(revenue).times(100);
}

const cardInfo = (key: (typeof CARDS)[number]): { name: string; unit: Unit } =>
  key === "margin" ? { name: "Margin", unit: "PERCENT" } : (metricDefinition(key) ?? { name: key, unit: "COUNT" });

export async function dashboard(deps: Deps, principal: Principal, query: DashboardQuery) {
  requirePermission(principal, "analytics.read");
  const tenant = tenantOf(principal);
  const timeZone = await organizationTimeZone(deps, tenant);
  const today = localDay(deps.now(), timeZone);
  const range = dashboardRange(query, today);
  const current = { start: range.from, end: range.to };
  const previous = { start: range.previous.from, end: range.previous.to };

  // payments_due_idx (workspace_id, status, due_date) answers this in due-date order: reads at most 10 rows.
  const nextDue = deps.db
    .select({
      id: payments.id,
      customerId: payments.customerId,
      customerName: customers.name,
      valueCents: payments.valueCents,
      dueDate: payments.dueDate,
      billingType: payments.billingType,
      description: payments.description,
    })
    .from(payments)
    .leftJoin(customers, eq(customers.id, payments.customerId))
    .where(and(inTenant(payments, tenant), eq(payments.status, "PENDING"), gte(payments.dueDate, today)))
    .orderBy(asc(payments.dueDate))
    .limit(NEXT_CHARGES);
  const rankBy = query.rankBy ?? "revenue";
  const mrrFrom = `${addMonths(today.slice(0, 7), 1 - MRR_MONTHS)}-01`;
  const [data, mrrData, due, categories, top] = await Promise.all([
    loadDaily(deps, tenant, STORED, range.previous.from, range.to),
    loadDaily(deps, tenant, ["mrr"], mrrFrom, today),
    nextDue,
    expensesByCategory(deps, tenant, range.from, range.to),
    rankings(deps, tenant, rankBy, range.from, range.to),
  ]);

  const cards = CARDS.map((key) => {
    const { name, unit } = cardInfo(key);
    const value = cardValue(key, data, current);
    const before = cardValue(key, data, previous);
    return {
      key,
      name,
      unit,
      value: formatValue(value, unit),
      previous: formatValue(before, unit),
      changePercent: changePercent(value, before),
    };
  });
  const series = periodsOf(range.from, range.to, "day").map((p) => ({
    day: p.start,
    revenue: formatValue(metricValue("revenue", data, p), "BRL") ?? "0.00",
    expenses: formatValue(metricValue("expenses", data, p), "BRL") ?? "0.00",
  }));

  const mrrHistory = periodsOf(mrrFrom, today, "month").map((p) => ({
    month: p.start.slice(0, 7),
    mrr: formatValue(metricValue("mrr", mrrData, p), "BRL") ?? "0.00",
  }));

  return {
    object: "dashboard" as const,
    period: range.period,
    from: range.from,
    to: range.to,
    previous: range.previous,
    timeZone,
    rankBy,
    cards,
    series,
    mrrHistory,
    expensesByCategory: categories.map((c) => ({ id: c.id, name: c.name, amount: formatMoney(c.cents) })),
    ...top,
    nextChargesDue: due.map((d) => ({
      id: d.id,
      customerId: d.customerId,
      customerName: d.customerName,
      value: formatMoney(d.valueCents),
      dueDate: d.dueDate,
      billingType: d.billingType,
      description: d.description,
    })),
  };
}
