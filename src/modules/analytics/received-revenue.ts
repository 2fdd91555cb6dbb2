// Revenue received in a period, by customer or plan: the charges paid (PAID_STATUSES, known upstream) whose
// payment date — the local day the upstream reports — falls in [from, to]. One rule for the profitability rows
// and the dashboard's rankings, so both agree with each other to the cent.
//
// Read from the party rollups (metric_daily rows `party.received.<customer|plan>.<id>` and `party.payment_fees.…`,
// kept in the same write as the charge's change: src/events/metric-contributions.ts `partyContributions`), so a range
// reads at most one row per day and party that received something that day, never the charges themselves.
// A range over every party reads metric_daily_party_idx (workspace, day, metric, value; the party rows only): the query
// names the index's condition word for word (literals, not bound parameters: SQLite matches them as written), and the
// unary `+` keeps the planner off metric_daily_uq, which would read the party's rows of every day. A few named
// parties read metric_daily_uq, a seek per party.
import { and, asc, desc, gte, inArray, lt, lte, sql, type SQL } from "drizzle-orm";
import { inListStatements } from "../../db/in-list";
import { metricDaily } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { PARTY_PREFIX, type Party, type PartyMetric, partyMetric, partyMetricRange } from "../../events/metric-contributions";
import type { Tenant } from "../../lib/tenant";

export type { Party } from "../../events/metric-contributions";

const total = sql<number>`coalesce(sum(${metricDaily.value}), 0)`;

/** The party ids of `metric` rows summed over [from, to] (parties whose sum is 0 received nothing in it). */
function summed(deps: Deps, tenant: Tenant, metric: PartyMetric, by: Party, from: string, to: string, where: SQL) {
  const prefix = partyMetricRange(metric, by)[0];
  return deps.db
    .select({ id: sql<string>`substr(${metricDaily.metric}, ${prefix.length + 1})`, cents: total })
    .from(metricDaily)
    .where(and(inTenant(metricDaily, tenant), gte(metricDaily.day, from), lte(metricDaily.day, to), where))
    .groupBy(metricDaily.metric)
    .having(sql`${total} <> 0`);
}

/** metric_daily_party_idx's condition, as the index states it (schema/analytics.ts). */
const PARTY_ROWS = sql.raw(`substr(metric, 1, ${PARTY_PREFIX.length}) = '${PARTY_PREFIX}'`);

/** Every party of `by` with a non-zero `metric` in [from, to]. */
export function partyTotals(deps: Deps, tenant: Tenant, metric: PartyMetric, by: Party, from: string, to: string) {
  const [first, pastLast] = partyMetricRange(metric, by);
  const unindexed = sql`+${metricDaily.metric}`;
  return summed(deps, tenant, metric, by, from, to, and(PARTY_ROWS, gte(unindexed, first), lt(unindexed, pastLast)) as SQL);
}

/** The statements (for selectInLists: one per part of D1's parameter limit) of what each of `ids` received in [from, to]. */
export function receivedByParty(deps: Deps, tenant: Tenant, by: Party, from: string, to: string, ids: readonly string[]) {
  const metrics = ids.map((id) => partyMetric("received", by, id));
  return inListStatements(metrics, (part) => summed(deps, tenant, "received", by, from, to, inArray(metricDaily.metric, part)));
}

/** The `limit` parties that received the most in [from, to], highest first (ties by id). */
export function topReceived(deps: Deps, tenant: Tenant, by: Party, from: string, to: string, limit: number) {
  return partyTotals(deps, tenant, "received", by, from, to).orderBy(desc(total), asc(metricDaily.metric)).limit(limit);
}
