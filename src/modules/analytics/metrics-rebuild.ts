// Rebuilding a workspace's metric_daily from its records (a repair: after a bug, a restore, or a change
// of the organization's time zone). Reads payments, refunds, subscriptions, customers and expenses in
// pages, recomputes every day's rows in JS, and replaces the workspace's rows in one D1 batch.
//
// The sum of every record's contributions (src/events/metric-contributions.ts), the function whose
// differences the incremental rollups write: the two agree by construction. Levels come from the
// records' own dates, since records keep their current state only. Revenue by party (party.received.plan.<id>, …) is
// rebuilt with the rest: by plan, each charge's subscription is looked up in the subscriptions read here, as the
// live write looks it up in SQL.
import { and, asc, eq, gt, isNotNull, type SQL, sql } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { customers, expenses, metricDaily, payments, refunds, subscriptions } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import {
  bySubscription,
  customerContributions,
  type DayAmount,
  expenseContributions,
  paymentContributions,
  partyMetric,
  payingCustomerContributions,
  refundContributions,
  subscriptionContributions,
} from "../../events/metric-contributions";
import type { Tenant } from "../../lib/tenant";
import { organizationTimeZone } from "./metrics-service";

const PAGE = 2000;
/**
 * D1 allows 100 bound parameters per statement: the tenant once, then metric, day and value per row (32 rows, not the
 * 20 of a plain multi-row insert: revenue by party multiplies the rows, a row per day and party that received).
 */
const ROWS_PER_INSERT = 32;

type Table = typeof payments | typeof refunds | typeof subscriptions | typeof customers | typeof expenses;

/** Every row of `table` in the tenant matching `where`, read in pages by id. */
async function* pages<T extends Table>(deps: Deps, table: T, tenant: Tenant, where?: SQL): AsyncGenerator<T["$inferSelect"][]> {
  let after = "";
  for (;;) {
    const rows = (await deps.db
      .select()
      .from(table as Table)
      .where(and(inTenant(table, tenant), gt(table.id, after), where))
      .orderBy(asc(table.id))
      .limit(PAGE)) as T["$inferSelect"][];
    if (rows.length === 0) return;
    yield rows;
    const last = rows[rows.length - 1] as { id: string };
    after = last.id;
    if (rows.length < PAGE) return;
  }
}

export async function rebuildMetrics(deps: Deps, principal: Principal) {
  requirePermission(principal, "analytics.manage");
  const tenant = tenantOf(principal);
  const zone = await organizationTimeZone(deps, tenant);
  const totals = new Map<string, number>();
  const add = (amounts: readonly DayAmount[]) => {
    for (const { metric, day, value } of amounts) {
      const k = `${metric}\u0000${day}`;
      totals.set(k, (totals.get(k) ?? 0) + value);
    }
  };
  const counts = { payments: 0, refunds: 0, subscriptions: 0, customers: 0, expenses: 0 };

  for await (const rows of pages(deps, payments, tenant, isNotNull(payments.upstreamId))) {
    counts.payments += rows.length;
    for (const p of rows) add(paymentContributions(p, zone));
  }
  for await (const rows of pages(deps, refunds, tenant, eq(refunds.status, "done"))) {
    counts.refunds += rows.length;
    for (const r of rows) add(refundContributions(r, zone));
  }
  const byCustomer = new Map<string, (typeof subscriptions.$inferSelect)[]>();
  // Every subscription's plan (a charge's plan, whether or not its subscription is synced); only synced ones count.
  const planOf = new Map<string, string>();
  for await (const rows of pages(deps, subscriptions, tenant)) {
    for (const s of rows) {
      if (s.planId !== null) planOf.set(s.id, s.planId);
      if (s.upstreamId === null) continue;
      counts.subscriptions += 1;
      add(subscriptionContributions(s, zone));
      byCustomer.set(s.customerId, [...(byCustomer.get(s.customerId) ?? []), s]);
    }
  }
  for (const subs of byCustomer.values()) add(payingCustomerContributions(subs, zone));
  for await (const rows of pages(deps, customers, tenant, isNotNull(customers.upstreamId))) {
    counts.customers += rows.length;
    for (const c of rows) add(customerContributions(c, zone));
  }
  for await (const rows of pages(deps, expenses, tenant)) {
    counts.expenses += rows.length;
    for (const e of rows) add(expenseContributions(e));
  }

  // A charge's revenue by subscription is stored under its subscription's plan (none: not by plan).
  const stored = new Map<string, number>();
  for (const [k, value] of totals) {
    const [metric = "", day = ""] = k.split("\u0000");
    const plan = bySubscription(metric);
    const planId = plan ? planOf.get(plan.subscriptionId) : undefined;
    if (plan && planId === undefined) continue;
    const key = plan && planId ? `${partyMetric(plan.metric, "plan", planId)}\u0000${day}` : k;
    stored.set(key, (stored.get(key) ?? 0) + value);
  }
  const values = [...stored]
    .filter(([, v]) => v !== 0)
    .map(([k, value]) => {
      const [metric = "", day = ""] = k.split("\u0000");
      return sql`(${metric}, ${day}, ${value})`;
    });
  const inserts = [];
  for (let i = 0; i < values.length; i += ROWS_PER_INSERT) {
    const rows = sql.join(values.slice(i, i + ROWS_PER_INSERT), sql`, `);
    inserts.push(
      deps.db
        .insert(metricDaily)
        .select(sql`SELECT ${tenant.organizationId}, ${tenant.workspaceId}, column2, column1, column3 FROM (VALUES ${rows}) WHERE true`),
    );
  }
  await deps.db.batch([deps.db.delete(metricDaily).where(inTenant(metricDaily, tenant)), ...inserts]);
  return { object: "metrics_rebuild" as const, timeZone: zone, rows: values.length, records: counts, rebuiltAt: deps.now().toISOString() };
}
