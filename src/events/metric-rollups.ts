// Daily metric rollups (metric_daily), kept in the same D1 batch as the state change that moves them.
// `metricDeltas` is the one pure function that says what a change does to the metrics: the event kind
// plus the record before and after (facts the caller has at hand). `rollupStatement` turns deltas into
// one upsert (`value = value + excluded.value`) that only applies if its condition holds — for events,
// that the event row exists, so a change recorded once is counted once.
//
// Flows (revenue, billed, …) are the day's amount; levels (mrr, active_subscriptions, pending_amount,
// overdue_amount, paying_customers) are stored as the day's change and read as a prefix sum.
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { metricDaily } from "../db/schema";
import { addDays, DEFAULT_TIME_ZONE, isDay, localDay, localDays } from "../lib/time-zones";
import type { Tenant } from "../lib/tenant";

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
export type StoredMetric = (typeof FLOW_METRICS)[number] | (typeof LEVEL_METRICS)[number] | `expenses.category.${string}`;

/**
 * When a change happened, for the metrics: a local date the record carries (a payment date, an
 * expense's `incurredOn`), or an instant (a creation, a cancellation, the event's time).
 */
export interface When {
  /** A local date (YYYY-MM-DD) already; wins over `at`. */
  day?: string;
  /** An ISO instant, bucketed in the organization's time zone. */
  at?: string;
}

/**
 * The one rule for the day a metric delta belongs to, for the incremental rollups (`rollupStatement`,
 * which picks the same day in SQL from `localDays`) and the rebuild alike: the local date the record
 * carries if any, else the day of the instant in the organization's zone (never the UTC date).
 */
export function dayOf(when: When, zone: string): string {
  if (isDay(when.day)) return when.day;
  if (!when.at) throw new Error("a metric delta needs a day or an instant");
  return localDay(when.at, zone);
}

/**
 * When a charge was paid, for every metric its payment moves (revenue, fees, and the pending or overdue
 * amount it leaves): its payment date when it has one (a local date, what the upstream reports), else
 * `at` (when Ponte learned of it; the rebuild passes the record's `updatedAt`). One day for all of them,
 * so the money leaves pending on the day it arrives in revenue, and a rebuild from the records (which
 * keep the payment date, not the time the webhook came) puts it on the same day.
 */
export function paidWhen(payment: Pick<PaymentFacts, "paymentDate">, at: string): When {
  return isDay(payment.paymentDate) ? { day: payment.paymentDate } : { at };
}

/**
 * When a charge became overdue, for the open amounts it moves: the day after its due date (a local
 * date; the upstream turns a charge OVERDUE then), else `at`. The rebuild dates it the same way, so a
 * late webhook, or one that arrives while the UTC date is already the next, lands on the same day.
 */
export function overdueWhen(payment: Pick<PaymentFacts, "dueDate">, at: string): When {
  return isDay(payment.dueDate) ? { day: addDays(payment.dueDate, 1) } : { at };
}

export interface MetricDelta extends When {
  metric: StoredMetric;
  /** Cents or a count; never zero (zero deltas are dropped). */
  value: number;
  /** Counts only if the customer has no other ACTIVE subscription (paying customers), checked in the write itself. */
  unlessOtherActive?: { customerId: string; subscriptionId: string };
}

/** What a payment change carries for the metrics (a PaymentRow has all of it). */
export interface PaymentFacts {
  status: string;
  valueCents: number;
  refundedCents: number;
  netValueCents?: number | null;
  paymentDate: string | null;
  /** The due date (a local date): a charge is overdue from the next day. */
  dueDate?: string | null;
  createdAt: string;
}
export interface SubscriptionFacts {
  id: string;
  customerId: string;
  status: string;
  valueCents: number;
  cycle: string;
  createdAt: string;
  canceledAt?: string | null;
}
export type MetricFacts =
  | { payment: { before: PaymentFacts | null; after: PaymentFacts; refundCents?: number } }
  | { subscription: { before: SubscriptionFacts | null; after: SubscriptionFacts } };

/** Statuses in which a charge has been paid (REFUNDED was paid first: its refund is a separate metric). */
export const PAID_STATUSES: readonly string[] = ["CONFIRMED", "RECEIVED", "RECEIVED_IN_CASH", "REFUNDED"];

const MONTHS_PER_CYCLE: Record<string, [number, number]> = {
  WEEKLY: [52, 12],
  BIWEEKLY: [26, 12],
  MONTHLY: [1, 1],
  BIMONTHLY: [1, 2],
  QUARTERLY: [1, 3],
  SEMIANNUALLY: [1, 6],
  YEARLY: [1, 12],
};

/** A subscription's value normalised to a month, in whole cents (half-even), the same every time. */
export function monthlyCents(valueCents: number, cycle: string): number {
  const [num, den] = MONTHS_PER_CYCLE[cycle] ?? [1, 1];
  const scaled = valueCents * num;
  const q = Math.floor(scaled / den);
  const r = scaled - q * den;
  if (r * 2 > den || (r * 2 === den && q % 2 !== 0)) return q + 1;
  return q;
}

const pendingOf = (p: PaymentFacts | null) => (p && p.status === "PENDING" ? p.valueCents : 0);
const overdueOf = (p: PaymentFacts | null) => (p && p.status === "OVERDUE" ? p.valueCents : 0);
const isPaid = (p: PaymentFacts | null) => p !== null && PAID_STATUSES.includes(p.status);
const activeOf = (s: SubscriptionFacts | null) => (s && s.status === "ACTIVE" ? 1 : 0);
const mrrOf = (s: SubscriptionFacts | null) => (s && s.status === "ACTIVE" ? monthlyCents(s.valueCents, s.cycle) : 0);

/** What one recorded change does to the daily metrics. `at` is when it happened (the event's time). */
export function metricDeltas(kind: string, facts: MetricFacts, at: string): MetricDelta[] {
  const out: MetricDelta[] = [];
  const add = (metric: StoredMetric, value: number, when: When = { at }) => {
    if (value !== 0) out.push({ metric, value, ...when });
  };
  if ("payment" in facts) {
    const { before, after, refundCents } = facts.payment;
    if (kind === "payment.created" && before === null) add("billed", after.valueCents, { at: after.createdAt });
    const paid = !isPaid(before) && isPaid(after);
    const wentOverdue = overdueOf(before) === 0 && overdueOf(after) !== 0;
    // Paid: revenue, fees and the open amount it leaves all move on the payment's day (see paidWhen);
    // gone overdue: pending and overdue move on the day after the due date (see overdueWhen).
    const when = paid ? paidWhen(after, at) : wentOverdue ? overdueWhen(after, at) : { at };
    if (paid) {
      add("revenue", after.valueCents, when);
      if (typeof after.netValueCents === "number") add("payment_fees", after.valueCents - after.netValueCents, when);
    }
    add("refunds", refundCents ?? after.refundedCents - (before?.refundedCents ?? 0));
    add("pending_amount", pendingOf(after) - pendingOf(before), when);
    add("overdue_amount", overdueOf(after) - overdueOf(before), when);
    return out;
  }
  const { before, after } = facts.subscription;
  if (kind === "subscription.created" && before === null) add("new_subscriptions", 1, { at: after.createdAt });
  if (activeOf(before) === 1 && activeOf(after) === 0) add("canceled_subscriptions", 1, { at: after.canceledAt ?? at });
  add("active_subscriptions", activeOf(after) - activeOf(before));
  add("mrr", mrrOf(after) - mrrOf(before));
  const paying = activeOf(after) - activeOf(before);
  if (paying !== 0)
    out.push({
      metric: "paying_customers",
      value: paying,
      at,
      unlessOtherActive: { customerId: after.customerId, subscriptionId: after.id },
    });
  return out;
}

/** A customer that now exists (created and synced, or adopted). */
export function newCustomerDeltas(createdAt: string): MetricDelta[] {
  return [{ metric: "new_customers", value: 1, at: createdAt }];
}

/** What an expense carries for the metrics (an expense row has all of it). */
export interface ExpenseFacts {
  amountBrlCents: number;
  incurredOn: string;
  status: string;
  source: string;
  costCategoryId: string;
}

/** An expense written (before null), changed, or deleted (after null): by `incurredOn`, CANCELED counts nothing. */
export function expenseDeltas(before: ExpenseFacts | null, after: ExpenseFacts | null): MetricDelta[] {
  const out: MetricDelta[] = [];
  const side = (e: ExpenseFacts | null, sign: 1 | -1) => {
    if (!e || e.status === "CANCELED" || !isDay(e.incurredOn)) return;
    const v = sign * e.amountBrlCents;
    out.push({ metric: "expenses", value: v, day: e.incurredOn });
    out.push({ metric: `expenses.category.${e.costCategoryId}`, value: v, day: e.incurredOn });
    if (e.source === "AWS") out.push({ metric: "aws_costs", value: v, day: e.incurredOn });
  };
  side(before, -1);
  side(after, 1);
  // Net out pairs that cancel (an update that moved nothing).
  const sums = new Map<string, MetricDelta>();
  for (const d of out) {
    const k = `${d.metric}|${d.day}`;
    const prev = sums.get(k);
    sums.set(k, prev ? { ...prev, value: prev.value + d.value } : d);
  }
  return [...sums.values()].filter((d) => d.value !== 0);
}

/**
 * One upsert adding `deltas` to metric_daily, applied only when `condition` holds. The day of a delta
 * given as an instant is picked in SQL from its local day in every supported zone, by the
 * organization's `time_zone`, so the write needs no read first; it is `dayOf(delta, zone)`, the rule
 * the rebuild uses (the unit tests check that `localDays` agrees with it).
 */
export function rollupStatement(db: Db, tenant: Tenant, deltas: readonly MetricDelta[], condition: SQL) {
  if (deltas.length === 0) return null;
  const daysCache = new Map<string, string>();
  const rows = deltas.map((d) => {
    let days: string | null = null;
    if (!d.day) {
      const at = d.at ?? new Date().toISOString();
      days = daysCache.get(at) ?? JSON.stringify(localDays(at));
      daysCache.set(at, days);
    }
    const other = d.unlessOtherActive;
    const value = other
      ? sql`(CASE WHEN EXISTS (SELECT 1 FROM subscriptions WHERE workspace_id = ${tenant.workspaceId} AND customer_id = ${other.customerId}
          AND status = 'ACTIVE' AND id <> ${other.subscriptionId}) THEN 0 ELSE ${d.value} END)`
      : sql`${d.value}`;
    return sql`(${d.metric}, ${value}, ${d.day ?? null}, ${days})`;
  });
  const zonePath = sql`'$."' || coalesce((SELECT time_zone FROM organizations WHERE id = ${tenant.organizationId}), ${DEFAULT_TIME_ZONE}) || '"'`;
  const select = sql`SELECT ${tenant.organizationId} AS organization_id, ${tenant.workspaceId} AS workspace_id,
      coalesce(d.column3, json_extract(d.column4, ${zonePath}), json_extract(d.column4, ${`$."${DEFAULT_TIME_ZONE}"`})) AS day,
      d.column1 AS metric, d.column2 AS value
    FROM (VALUES ${sql.join(rows, sql`, `)}) AS d WHERE ${condition}`;
  return db
    .insert(metricDaily)
    .select(select)
    .onConflictDoUpdate({
      target: [metricDaily.workspaceId, metricDaily.metric, metricDaily.day],
      set: { value: sql`${metricDaily.value} + excluded.value` },
    });
}

/** The rollup batch items of one recorded event (none when the caller gave no facts, or nothing moves). */
export function eventRollups(db: Db, tenant: Tenant, eventId: string, kind: string, at: string, facts: MetricFacts | undefined) {
  if (!facts) return [];
  const statement = rollupStatement(db, tenant, metricDeltas(kind, facts, at), sql`EXISTS (SELECT 1 FROM events WHERE id = ${eventId})`);
  return statement ? [statement] : [];
}

/** Rollups that depend on the statement just before them in the batch having changed a row (`changes() > 0`). */
export function rollupIfChanged(db: Db, tenant: Tenant, deltas: readonly MetricDelta[]) {
  const statement = rollupStatement(db, tenant, deltas, sql`changes() > 0`);
  return statement ? [statement] : [];
}
