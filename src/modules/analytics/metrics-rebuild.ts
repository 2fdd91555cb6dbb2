// Rebuilding a workspace's metric_daily from its records (a repair: after a bug, a restore, or a change
// of the organization's time zone). Reads payments, refunds, subscriptions, customers and expenses in
// pages, recomputes every day's rows in JS, and replaces the workspace's rows in one D1 batch.
//
// Flows are exact. Levels are reconstructed from the records' own dates, since records keep their
// current state only: a charge is PENDING from its creation until it is paid (payment date), canceled
// (its last update) or becomes OVERDUE (the day after its due date); a subscription is active from its
// creation until it is canceled (canceledAt, else its last update).
import { and, asc, eq, gt, isNotNull, type SQL } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { customers, expenses, metricDaily, payments, refunds, subscriptions } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { dayOf as deltaDay, expenseDeltas, monthlyCents, overdueWhen, PAID_STATUSES, paidWhen } from "../../events/metric-rollups";
import type { Tenant } from "../../lib/tenant";
import { organizationTimeZone } from "./metrics-service";

const PAGE = 2000;
/** D1 allows 100 bound parameters per statement: 5 columns × 20 rows. */
const ROWS_PER_INSERT = 20;

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
  const add = (metric: string, day: string, value: number) => {
    if (value === 0) return;
    const k = `${metric}\u0000${day}`;
    totals.set(k, (totals.get(k) ?? 0) + value);
  };
  const dayOf = (instant: string) => deltaDay({ at: instant }, zone);
  const counts = { payments: 0, refunds: 0, subscriptions: 0, customers: 0, expenses: 0 };

  for await (const rows of pages(deps, payments, tenant, isNotNull(payments.upstreamId))) {
    for (const p of rows) {
      counts.payments++;
      const v = p.valueCents;
      const created = dayOf(p.createdAt);
      add("billed", created, v);
      add("pending_amount", created, v);
      const overdueFrom = deltaDay(overdueWhen(p, p.updatedAt), zone);
      let leftOn: string | null = null; // the day it stopped being open (pending or overdue)
      if (PAID_STATUSES.includes(p.status)) {
        const paidOn = deltaDay(paidWhen(p, p.updatedAt), zone);
        add("revenue", paidOn, v);
        if (p.netValueCents !== null) add("payment_fees", paidOn, v - p.netValueCents);
        leftOn = paidOn;
      } else if (p.status === "CANCELED" || p.status === "FAILED") leftOn = dayOf(p.updatedAt);
      const wentOverdue =
        p.status === "OVERDUE" || (leftOn !== null && p.status !== "FAILED" && leftOn > overdueFrom && overdueFrom > created);
      if (wentOverdue) {
        add("pending_amount", overdueFrom, -v);
        add("overdue_amount", overdueFrom, v);
        if (leftOn !== null) add("overdue_amount", leftOn, -v);
      } else if (leftOn !== null) add("pending_amount", leftOn, -v);
    }
  }

  for await (const rows of pages(deps, refunds, tenant, eq(refunds.status, "done"))) {
    for (const r of rows) {
      counts.refunds++;
      add("refunds", dayOf(r.updatedAt), r.valueCents);
    }
  }

  // Paying customers: per customer, the days on which it went from 0 to ≥1 active subscriptions and back.
  const activeChanges = new Map<string, [string, number][]>();
  for await (const rows of pages(deps, subscriptions, tenant, isNotNull(subscriptions.upstreamId))) {
    for (const s of rows) {
      counts.subscriptions++;
      const start = dayOf(s.createdAt);
      const mrr = monthlyCents(s.valueCents, s.cycle);
      add("new_subscriptions", start, 1);
      add("active_subscriptions", start, 1);
      add("mrr", start, mrr);
      const changes = activeChanges.get(s.customerId) ?? [];
      changes.push([start, 1]);
      if (s.status !== "ACTIVE") {
        const end = dayOf(s.canceledAt ?? s.updatedAt);
        add("canceled_subscriptions", end, 1);
        add("active_subscriptions", end, -1);
        add("mrr", end, -mrr);
        changes.push([end, -1]);
      }
      activeChanges.set(s.customerId, changes);
    }
  }
  for (const changes of activeChanges.values()) {
    changes.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    let active = 0;
    for (const [day, d] of changes) {
      const was = active > 0;
      active += d;
      if (!was && active > 0) add("paying_customers", day, 1);
      if (was && active <= 0) add("paying_customers", day, -1);
    }
  }

  for await (const rows of pages(deps, customers, tenant, isNotNull(customers.upstreamId))) {
    for (const c of rows) {
      counts.customers++;
      add("new_customers", dayOf(c.createdAt), 1);
    }
  }

  for await (const rows of pages(deps, expenses, tenant)) {
    for (const e of rows) {
      counts.expenses++;
      for (const d of expenseDeltas(null, e)) add(d.metric, deltaDay(d, zone), d.value);
    }
  }

  const values = [...totals]
    .filter(([, v]) => v !== 0)
    .map(([k, value]) => {
      const [metric = "", day = ""] = k.split("\u0000");
      return { ...tenant, metric, day, value };
    });
  const inserts = [];
  for (let i = 0; i < values.length; i += ROWS_PER_INSERT)
    inserts.push(deps.db.insert(metricDaily).values(values.slice(i, i + ROWS_PER_INSERT)));
  await deps.db.batch([deps.db.delete(metricDaily).where(inTenant(metricDaily, tenant)), ...inserts]);
  return { object: "metrics_rebuild" as const, timeZone: zone, rows: values.length, records: counts, rebuiltAt: deps.now().toISOString() };
}
