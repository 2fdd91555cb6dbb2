// Metrics (PLATFORM.md): the catalogue and series read from metric_daily — one row per workspace, day
// and metric — so a series' cost depends on the number of days, never on the number of charges.
import { z } from "@hono/zod-openapi";
import { and, eq, gte, inArray, lt, lte, sql } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { metricDaily, organizations } from "../../db/schema";
import { inListStatements, selectInLists } from "../../db/in-list";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { notFound } from "../../http/errors";
import { DEFAULT_TIME_ZONE, addDays, isTimeZone, localDay } from "../../lib/time-zones";
import type { Tenant } from "../../lib/tenant";
import { formatValue, type Value } from "./formula-engine";
import { type DailyData, METRICS, type Period, type Unit, isLevel, metricDefinition, metricValue } from "./metric-catalogue";

/** At most five years in one series. */
export const MAX_RANGE_DAYS = 1830;
const DEFAULT_RANGE_DAYS = 30;

export const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a date YYYY-MM-DD")
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    "not a calendar date",
  );

export const SeriesQuery = z
  .object({
    from: Day.optional().openapi({
      param: { name: "from", in: "query" },
      description: "First day (inclusive, the organization's time zone); default 29 days before `to`.",
    }),
    to: Day.optional().openapi({ param: { name: "to", in: "query" }, description: "Last day (inclusive); default today." }),
    interval: z
      .enum(["day", "week", "month"])
      .default("day")
      .openapi({ param: { name: "interval", in: "query" }, description: "Bucket size; weeks start on Monday." }),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to) ctx.addIssue({ code: "custom", path: ["from"], message: "from must not be after to" });
    if (q.from && q.to && daysBetween(q.from, q.to) >= MAX_RANGE_DAYS)
      ctx.addIssue({ code: "custom", path: ["to"], message: `at most ${MAX_RANGE_DAYS} days per series` });
  });
export type SeriesQuery = z.infer<typeof SeriesQuery>;

export const MetricInfo = z
  .object({
    key: z.string(),
    name: z.string(),
    unit: z.enum(["BRL", "COUNT", "PERCENT"]),
    description: z.string(),
  })
  .openapi("Metric");

export const SeriesPoint = z.object({
  periodStart: z.string().openapi({ description: "First day of the period (YYYY-MM-DD); the first period starts at `from`." }),
  value: z.string().nullable().openapi({ description: "Decimal string (BRL to the cent); null where undefined (e.g. a rate over zero)." }),
});
export const Series = z
  .object({
    key: z.string(),
    name: z.string(),
    unit: z.enum(["BRL", "COUNT", "PERCENT"]),
    interval: z.enum(["day", "week", "month"]),
    from: z.string(),
    to: z.string(),
    timeZone: z.string(),
    points: z.array(SeriesPoint),
    total: z
      .string()
      .nullable()
      .openapi({ description: "Over the whole range where that makes sense (flows, rates); null for levels (mrr, …)." }),
  })
  .openapi("MetricSeries");

export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** The periods of [from, to]: days, weeks (from Monday) or calendar months, the first one starting at `from`. */
export function periodsOf(from: string, to: string, interval: "day" | "week" | "month"): Period[] {
  const out: Period[] = [];
  let start = from;
  while (start <= to) {
    let next: string;
    if (interval === "day") next = addDays(start, 1);
    else if (interval === "week") {
      const weekday = (new Date(`${start}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday = 0
      next = addDays(start, 7 - weekday);
    } else {
      const d = new Date(`${start}T00:00:00Z`);
      next = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
    }
    const end = addDays(next, -1);
    out.push({ start, end: end < to ? end : to });
    start = next;
  }
  return out;
}

export async function organizationTimeZone(deps: Deps, tenant: Tenant): Promise<string> {
  const row = await deps.db
    .select({ timeZone: organizations.timeZone })
    .from(organizations)
    .where(eq(organizations.id, tenant.organizationId))
    .get();
  return row && isTimeZone(row.timeZone) ? row.timeZone : DEFAULT_TIME_ZONE;
}

/** The range a query names, with the defaults filled in the organization's time zone. */
export async function resolveRange(deps: Deps, tenant: Tenant, query: SeriesQuery) {
  const timeZone = await organizationTimeZone(deps, tenant);
  const to = query.to ?? localDay(deps.now(), timeZone);
  const from = query.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  return { from: from > to ? to : from, to, interval: query.interval, timeZone };
}

/**
 * The stored rows of `metrics` in [from, to] (at most one per metric and day) and, for levels, their
 * value before `from` (a prefix sum: SUM over the earlier days, one aggregate row per level).
 */
export async function loadDaily(
  deps: Deps,
  tenant: Tenant,
  metrics: readonly string[],
  from: string,
  to: string,
): Promise<DailyData & { rowsRead: number }> {
  const data: DailyData = { from, rows: new Map(), opening: new Map() };
  if (metrics.length === 0) return { ...data, rowsRead: 0 };
  const levels = metrics.filter(isLevel);
  const range = inListStatements(metrics, (part) =>
    deps.db
      .select({ metric: metricDaily.metric, day: metricDaily.day, value: metricDaily.value })
      .from(metricDaily)
      .where(and(inTenant(metricDaily, tenant), inArray(metricDaily.metric, part), gte(metricDaily.day, from), lte(metricDaily.day, to))),
  );
  const opening = inListStatements(levels, (part) =>
    deps.db
      .select({ metric: metricDaily.metric, value: sql<number>`coalesce(sum(${metricDaily.value}), 0)` })
      .from(metricDaily)
      .where(and(inTenant(metricDaily, tenant), inArray(metricDaily.metric, part), lt(metricDaily.day, from)))
      .groupBy(metricDaily.metric),
  );
  const [rows, openingRows] = await selectInLists(deps.db, [range, opening] as const);
  for (const r of rows) {
    const days = data.rows.get(r.metric) ?? new Map<string, number>();
    data.rows.set(r.metric, days);
    days.set(r.day, (days.get(r.day) ?? 0) + r.value);
  }
  for (const r of openingRows) data.opening.set(r.metric, Number(r.value));
  return { ...data, rowsRead: rows.length };
}

export function listMetrics(principal: Principal) {
  requirePermission(principal, "analytics.read");
  return METRICS.map(({ key, name, unit, description }) => ({ key, name, unit, description }));
}

export interface SeriesResult {
  key: string;
  name: string;
  unit: Unit;
  interval: "day" | "week" | "month";
  from: string;
  to: string;
  timeZone: string;
  points: { periodStart: string; value: string | null }[];
  total: string | null;
}

/** Points and total of a value function over the range's periods. */
export function seriesOf(
  range: { from: string; to: string; interval: "day" | "week" | "month"; timeZone: string },
  unit: Unit,
  valueAt: (period: Period) => Value,
  withTotal: boolean,
) {
  const points = periodsOf(range.from, range.to, range.interval).map((p) => ({
    periodStart: p.start,
    value: formatValue(valueAt(p), unit),
  }));
  const total = withTotal ? formatValue(valueAt({ start: range.from, end: range.to }), unit) : null;
  return { points, total };
}

export async function metricSeries(
  deps: Deps,
  principal: Principal,
  key: string,
  query: SeriesQuery,
): Promise<SeriesResult & { rowsRead: number }> {
  requirePermission(principal, "analytics.read");
  const definition = metricDefinition(key);
  if (!definition) throw notFound("metric", key);
  const tenant = tenantOf(principal);
  const range = await resolveRange(deps, tenant, query);
  const data = await loadDaily(deps, tenant, definition.reads, range.from, range.to);
  const { points, total } = seriesOf(range, definition.unit, (p) => metricValue(key, data, p), definition.hasTotal);
  return { key, name: definition.name, unit: definition.unit, ...range, points, total, rowsRead: data.rowsRead };
}
