// Daily metric rollups (metric_daily), kept in the same D1 batch as the state change that moves them.
// `metricDeltas` says what a change does to the metrics: contributions(after) − contributions(before) of
// the record it touches (metric-contributions.ts, the function the rebuild sums). `rollupStatement` turns deltas into
// one upsert (`value = value + excluded.value`) that only applies if its condition holds — for events,
// that the event row exists, so a change recorded once is counted once.
//
// Flows (revenue, billed, …) are the day's amount; levels (mrr, active_subscriptions, pending_amount,
// overdue_amount, paying_customers) are stored as the day's change and read as a prefix sum. Revenue received by
// party (party.received.customer.<id>, party.payment_fees.plan.<id>, …) rides in the same upsert: a charge's plan is looked up
// from its subscription in the statement itself (metric-contributions.ts `bySubscription`).
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { type CompiledStatement, compileStatement, compiler } from "../db/prepared";
import { eventRecorded } from "../db/guarded-insert";
import { metricDaily } from "../db/schema";
import { DEFAULT_TIME_ZONE, isDay, isTimeZone, TIME_ZONES, type TimeZone } from "../lib/time-zones";
import type { Tenant } from "../lib/tenant";
import {
  bySubscription,
  customerContributions,
  type DayAmount,
  difference,
  type ExpenseFacts,
  expenseContributions,
  type PaymentFacts,
  partyMetric,
  paymentContributions,
  type RefundFacts,
  refundContributions,
  type SubscriptionFacts,
  subscriptionContributions,
} from "./metric-contributions";

export {
  type ExpenseFacts,
  monthlyCents,
  PAID_STATUSES,
  type PaymentFacts,
  type SubscriptionFacts,
} from "./metric-contributions";

export const FLOW_METRICS = [
  "revenue",
  "billed",
  "refunds",
  "payment_fees",
  "new_subscriptions",
  "canceled_subscriptions",
  "new_customers",
  "expenses",
  "aws_costs",
] as const;
export const LEVEL_METRICS = ["mrr", "active_subscriptions", "pending_amount", "overdue_amount", "paying_customers"] as const;
export type StoredMetric =
  | (typeof FLOW_METRICS)[number]
  | (typeof LEVEL_METRICS)[number]
  | `expenses.category.${string}`
  | `party.${string}`;

/**
 * A change to metric_daily: `value` on `day` in every zone (a local date the record carries), or on
 * `days[zone]` in the zones listed (the organization's zone picks its row; a zone absent from `days`
 * gets nothing, since a record's contributions may differ from zone to zone around local midnight).
 */
export interface MetricDelta {
  metric: StoredMetric;
  /** Cents or a count; never zero (zero deltas are dropped). */
  value: number;
  day?: string;
  days?: Partial<Record<TimeZone, string>>;
  /** Counts only if the customer has no other ACTIVE subscription (paying customers), checked in the write itself. */
  unlessOtherActive?: { customerId: string; subscriptionId: string };
}

/** The day a delta lands on in `zone` (null: not in that zone); the rule `rollupStatement` applies in SQL. */
export function dayIn(delta: Pick<MetricDelta, "day" | "days">, zone: string): string | null {
  if (isDay(delta.day)) return delta.day;
  const effective = isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
  return delta.days?.[effective] ?? null;
}

/**
 * The deltas whose sum in each zone is `change(zone)`: one row per amount, with the day of every zone
 * it applies in (one `day` when it is the same everywhere).
 */
export function zonedDeltas(change: (zone: TimeZone) => readonly DayAmount[]): MetricDelta[] {
  const byZone = TIME_ZONES.map(change);
  // Most changes land on the same days in every zone (none near local midnight): one row per amount, as below.
  const [first = []] = byZone;
  if (byZone.every((amounts) => sameAmounts(amounts, first))) {
    return first.map((a) => ({ metric: a.metric as StoredMetric, value: a.value, day: a.day }));
  }
  const rows = new Map<string, MetricDelta & { days: Partial<Record<TimeZone, string>> }>();
  for (const [z, zone] of TIME_ZONES.entries()) {
    const seen = new Map<string, number>();
    for (const a of byZone[z] ?? []) {
      const base = `${a.metric}\u0000${a.value}`;
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      const k = `${base}\u0000${n}`;
      const row = rows.get(k) ?? { metric: a.metric as StoredMetric, value: a.value, days: {} };
      row.days[zone] = a.day;
      rows.set(k, row);
    }
  }
  return [...rows.values()].map(({ days, ...row }) => {
    const distinct = new Set(Object.values(days));
    const [only] = distinct;
    return Object.keys(days).length === TIME_ZONES.length && distinct.size === 1 && only ? { ...row, day: only } : { ...row, days };
  });
}

/** Whether two zones' amounts are the same list (metric, value and day, in order). */
function sameAmounts(a: readonly DayAmount[], b: readonly DayAmount[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as DayAmount;
    const y = b[i] as DayAmount;
    if (x.metric !== y.metric || x.value !== y.value || x.day !== y.day) return false;
  }
  return true;
}

export type MetricFacts =
  | { payment: { before: PaymentFacts | null; after: PaymentFacts; refund?: RefundFacts } }
  | { subscription: { before: SubscriptionFacts | null; after: SubscriptionFacts } };

/**
 * What one recorded change does to the daily metrics: contributions(after) − contributions(before) of
 * the record it touches (metric-contributions.ts), plus a refund record newly done. A subscription's
 * change in active count moves paying customers too, unless the customer has another active one.
 */
export function metricDeltas(facts: MetricFacts): MetricDelta[] {
  if ("payment" in facts) {
    const { before, after, refund } = facts.payment;
    return zonedDeltas((zone) => [
      ...difference(paymentContributions(after, zone), paymentContributions(before, zone)),
      ...refundContributions(refund ?? null, zone),
    ]);
  }
  const { before, after } = facts.subscription;
  const deltas = zonedDeltas((zone) => difference(subscriptionContributions(after, zone), subscriptionContributions(before, zone)));
  const paying = deltas
    .filter((d) => d.metric === "active_subscriptions")
    .map((d) => ({
      ...d,
      metric: "paying_customers" as const,
      unlessOtherActive: { customerId: after.customerId, subscriptionId: after.id },
    }));
  return [...deltas, ...paying];
}

/** A customer that now exists (created and synced, or adopted). */
export function newCustomerDeltas(createdAt: string): MetricDelta[] {
  return zonedDeltas((zone) => customerContributions({ createdAt, upstreamId: "linked" }, zone));
}

/** An expense written (before null), changed, or deleted (after null): by `incurredOn`, CANCELED counts nothing. */
export function expenseDeltas(before: ExpenseFacts | null, after: ExpenseFacts | null): MetricDelta[] {
  return difference(expenseContributions(after), expenseContributions(before)).map((a) => ({
    metric: a.metric as StoredMetric,
    value: a.value,
    day: a.day,
  }));
}

/** The organization's zone as the rebuild reads it (organizationTimeZone): its own if supported, else the default. */
const EFFECTIVE_ZONE = (organizationId: unknown) =>
  sql`(SELECT CASE WHEN time_zone IN (${sql.raw(TIME_ZONES.map((z) => `'${z}'`).join(", "))}) THEN time_zone ELSE ${DEFAULT_TIME_ZONE} END
    FROM organizations WHERE id = ${organizationId})`;

/** A value of the rollup statement, by name: the value itself (built per call), or a placeholder (built once, bound per call). */
type ValueOf = (name: string) => unknown;

/**
 * One upsert adding `deltas` to metric_daily, applied only when `condition` holds. A delta with `days`
 * lands on the day of the organization's zone, picked in SQL (so the write needs no read first), and
 * nowhere if that zone is not listed: the rule of `dayIn`.
 */
export function rollupStatement(db: Db, tenant: Tenant, deltas: readonly MetricDelta[], condition: SQL) {
  if (deltas.length === 0) return null;
  const values = rollupValues(tenant, deltas);
  return rollupInsert(
    db,
    deltas,
    () => condition,
    (name) => values[name],
  );
}

/**
 * Every value of the rollup statement of `deltas`, by the name `rollupInsert` gives it: the tenant, then per
 * delta its metric (`m`), value (`v`), day (`d`) or days by zone as JSON (`z`), the paying-customer check's
 * customer and subscription (`c`, `s`), the subscription whose plan names the metric (`p`).
 */
function rollupValues(tenant: Tenant, deltas: readonly MetricDelta[]): Record<string, unknown> {
  const values: Record<string, unknown> = { workspaceId: tenant.workspaceId, organizationId: tenant.organizationId };
  for (const [i, d] of deltas.entries()) {
    const other = d.unlessOtherActive;
    if (other) {
      values[`c${i}`] = other.customerId;
      values[`s${i}`] = other.subscriptionId;
    }
    values[`v${i}`] = d.value;
    const plan = bySubscription(d.metric);
    values[`m${i}`] = plan ? partyMetric(plan.metric, "plan", "") : d.metric;
    if (plan) values[`p${i}`] = plan.subscriptionId;
    const day = isDay(d.day) ? d.day : null;
    values[`d${i}`] = day;
    values[`z${i}`] = day ? null : JSON.stringify(d.days ?? {});
  }
  return values;
}

/** The statement's SQL: its structure depends only on the deltas' shape (`rollupShape`), every value goes through `v` (`rollupValues`). */
function rollupInsert(db: Db, deltas: readonly MetricDelta[], condition: (v: ValueOf) => SQL, v: ValueOf) {
  const workspaceId = v("workspaceId");
  const organizationId = v("organizationId");
  const rows = deltas.map((d, i) => {
    const value = d.unlessOtherActive
      ? sql`(CASE WHEN EXISTS (SELECT 1 FROM subscriptions WHERE workspace_id = ${workspaceId} AND customer_id = ${v(`c${i}`)}
          AND status = 'ACTIVE' AND id <> ${v(`s${i}`)}) THEN 0 ELSE ${v(`v${i}`)} END)`
      : sql`${v(`v${i}`)}`;
    // By plan: the plan of the charge's subscription (null, so no row, when it has no Ponte plan).
    const metric = bySubscription(d.metric)
      ? sql`(${v(`m${i}`)} || (SELECT plan_id FROM subscriptions WHERE id = ${v(`p${i}`)}))`
      : sql`${v(`m${i}`)}`;
    return sql`(${metric}, ${value}, ${v(`d${i}`)}, ${v(`z${i}`)})`;
  });
  const zone = EFFECTIVE_ZONE(organizationId);
  const select = sql`SELECT organization_id, workspace_id, day, metric, value FROM (
      SELECT ${organizationId} AS organization_id, ${workspaceId} AS workspace_id,
        coalesce(d.column3, json_extract(d.column4, '$."' || coalesce(${zone}, ${DEFAULT_TIME_ZONE}) || '"')) AS day,
        d.column1 AS metric, d.column2 AS value
      FROM (VALUES ${sql.join(rows, sql`, `)}) AS d WHERE ${condition(v)})
    WHERE day IS NOT NULL AND metric IS NOT NULL`;
  return db
    .insert(metricDaily)
    .select(select)
    .onConflictDoUpdate({
      target: [metricDaily.workspaceId, metricDaily.metric, metricDaily.day],
      set: { value: sql`${metricDaily.value} + excluded.value` },
    });
}

/** What decides the rollup statement's SQL: per delta, whether it checks other subscriptions and whether it names a plan. */
const rollupShape = (deltas: readonly MetricDelta[]) =>
  deltas.map((d) => `${d.unlessOtherActive ? "o" : "-"}${bySubscription(d.metric) ? "p" : "-"}`).join("");

/** Compiled rollup statements by shape (a handful in practice; bounded so odd shapes cannot grow it). */
const compiledRollups = new Map<string, CompiledStatement>();
const MAX_COMPILED_ROLLUPS = 64;
const onlyIfEvent = (v: ValueOf) => eventRecorded(v("eventId"));
const placeholder: ValueOf = (name) => sql.placeholder(name);

/**
 * The rollup statements of one recorded event as raw D1 statements on `d1` (for a raw D1 batch): the
 * same SQL as `eventRollups`, built and compiled once per shape of deltas, its values bound per call.
 */
export function eventRollupStatements(d1: D1Database, tenant: Tenant, eventId: string, facts: MetricFacts | undefined) {
  if (!facts) return [];
  return withinParameterBudget(metricDeltas(facts)).map((group) => {
    const key = rollupShape(group);
    let compiled = compiledRollups.get(key);
    if (!compiled) {
      compiled = compileStatement(rollupInsert(compiler, group, onlyIfEvent, placeholder));
      if (compiledRollups.size < MAX_COMPILED_ROLLUPS) compiledRollups.set(key, compiled);
    }
    const values = rollupValues(tenant, group);
    values.eventId = eventId;
    return d1.prepare(compiled.sql).bind(...compiled.args(values));
  });
}

/** Bound parameters of a delta's row (metric, value, day, days; the paying-customer check binds 4 more, a plan lookup 1). */
const rowParameters = (d: MetricDelta) => (d.unlessOtherActive ? 8 : 4) + (bySubscription(d.metric) ? 1 : 0);
/** Per statement, besides the rows: the tenant, the zone lookup, the default zone, the condition. */
const ROW_PARAMETER_BUDGET = 100 - 10;

/** Deltas in groups whose statements stay within D1's 100 bound parameters. */
export function withinParameterBudget(deltas: readonly MetricDelta[]): MetricDelta[][] {
  const groups: MetricDelta[][] = [];
  let group: MetricDelta[] = [];
  let used = 0;
  for (const d of deltas) {
    if (used + rowParameters(d) > ROW_PARAMETER_BUDGET && group.length > 0) {
      groups.push(group);
      group = [];
      used = 0;
    }
    group.push(d);
    used += rowParameters(d);
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * The rollup batch items of one recorded event (none when the caller gave no facts, or nothing moves):
 * as many statements as D1's parameter limit needs, each applied only if the event row exists.
 */
export function eventRollups(db: Db, tenant: Tenant, eventId: string, facts: MetricFacts | undefined) {
  if (!facts) return [];
  return withinParameterBudget(metricDeltas(facts)).flatMap((group) => {
    const statement = rollupStatement(db, tenant, group, eventRecorded(eventId));
    return statement ? [statement] : [];
  });
}

/** Rollups that depend on the statement just before them in the batch having changed a row (`changes() > 0`). */
export function rollupIfChanged(db: Db, tenant: Tenant, deltas: readonly MetricDelta[]) {
  const statement = rollupStatement(db, tenant, deltas, sql`changes() > 0`);
  return statement ? [statement] : [];
}
