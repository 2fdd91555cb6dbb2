// Revenue received in a period, by customer or plan: the charges paid (PAID_STATUSES, known upstream)
// whose payment date — the local day the upstream reports — falls in [from, to]. One rule for the
// profitability rows and the dashboard's rankings, so both agree with each other to the cent.
import { and, asc, desc, eq, gte, inArray, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import { payments, subscriptions } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { PAID_STATUSES } from "../../events/metric-rollups";
import type { Tenant } from "../../lib/tenant";

export type Party = "customer" | "plan";

/** The column a paid charge is counted under: its customer, or its subscription's plan (null for a one-off charge). */
export const partyColumn = (by: Party) => (by === "plan" ? subscriptions.planId : payments.customerId);

/** The charges received in [from, to] (local days), in this tenant. */
export function receivedBetween(tenant: Tenant, from: string, to: string): SQL {
  return and(
    inTenant(payments, tenant),
    isNotNull(payments.upstreamId),
    inArray(payments.status, [...PAID_STATUSES]),
    gte(payments.paymentDate, from),
    lte(payments.paymentDate, to),
  ) as SQL;
}

const receivedCents = sql<number>`coalesce(sum(${payments.valueCents}), 0)`;

/**
 * What each party received in [from, to]; `where` narrows further (the caller's set of parties). Only by plan is
 * the subscription joined (a charge's plan is its subscription's): by customer that is a row lookup per charge less.
 */
export function receivedByParty(deps: Deps, tenant: Tenant, by: Party, from: string, to: string, where?: SQL) {
  const party = partyColumn(by);
  const query = deps.db.select({ id: party, revenue: receivedCents }).from(payments).$dynamic();
  return (by === "plan" ? query.leftJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId)) : query)
    .where(and(receivedBetween(tenant, from, to), isNotNull(party), ...(where ? [where] : [])))
    .groupBy(party);
}

/** The `limit` parties that received the most in [from, to], highest first (ties by id). */
export function topReceived(deps: Deps, tenant: Tenant, by: Party, from: string, to: string, limit: number) {
  return receivedByParty(deps, tenant, by, from, to)
    .orderBy(desc(receivedCents), asc(partyColumn(by)))
    .limit(limit);
}
