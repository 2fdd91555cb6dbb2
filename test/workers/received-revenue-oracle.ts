// The charge-based answer the revenue-by-party rollups must equal: what the dashboard's rankings and profitability by
// customer or plan computed before issue 29, grouping the period's paid charges on every call (a charge paid —
// CONFIRMED, RECEIVED, RECEIVED_IN_CASH, REFUNDED — known upstream, counted on its payment date under its customer and
// its subscription's plan; fees = value − net value when the upstream reported one; refunds done, on their local
// day, under their charge's party). Plain SQL over the records, independent of src/, so it can judge it.
import { env } from "cloudflare:test";
import { localDay } from "../../src/lib/time-zones";
import type { TestTenant } from "./support";

export type Party = "customer" | "plan";
export interface PartyFigures {
  /** It has a charge received in the range (what the ranking lists), not only a refund. */
  received: boolean;
  revenue: number;
  fees: number;
  refunds: number;
}

const PAID = "('CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH', 'REFUNDED')";
const party = (by: Party) => (by === "plan" ? "s.plan_id" : "p.customer_id");

/** Every party with a paid charge or a refund in [from, to], and its figures. */
export async function oracleByParty(t: TestTenant, by: Party, from: string, to: string, zone: string) {
  const paid = await env.DB.prepare(
    `SELECT ${party(by)} AS id, sum(p.value_cents) AS revenue,
       sum(CASE WHEN p.net_value_cents IS NULL THEN 0 ELSE p.value_cents - p.net_value_cents END) AS fees
     FROM payments p LEFT JOIN subscriptions s ON s.id = p.subscription_id
     WHERE p.organization_id = ? AND p.workspace_id = ? AND p.upstream_id IS NOT NULL AND p.status IN ${PAID}
       AND p.payment_date >= ? AND p.payment_date <= ? AND ${party(by)} IS NOT NULL
     GROUP BY ${party(by)}`,
  )
    .bind(t.organizationId, t.workspaceId, from, to)
    .all<{ id: string; revenue: number; fees: number }>();
  const refunded = await env.DB.prepare(
    `SELECT ${party(by)} AS id, r.value_cents AS value, r.updated_at AS at
     FROM refunds r JOIN payments p ON p.id = r.payment_id LEFT JOIN subscriptions s ON s.id = p.subscription_id
     WHERE r.organization_id = ? AND r.workspace_id = ? AND r.status = 'done' AND ${party(by)} IS NOT NULL`,
  )
    .bind(t.organizationId, t.workspaceId)
    .all<{ id: string; value: number; at: string }>();
  const out = new Map<string, PartyFigures>();
  const figures = (id: string) => out.get(id) ?? out.set(id, { received: false, revenue: 0, fees: 0, refunds: 0 }).get(id)!;
  for (const r of paid.results) Object.assign(figures(r.id), { received: true, revenue: r.revenue, fees: r.fees });
  for (const r of refunded.results) {
    const day = localDay(r.at, zone);
    if (day >= from && day <= to) figures(r.id).refunds += r.value;
  }
  return out;
}

/** The five parties that received the most in the range, highest first, ties by id (SQLite's binary order). */
export const oracleTop = (figures: Map<string, PartyFigures>) =>
  [...figures]
    .filter(([, f]) => f.received)
    .sort((a, b) => b[1].revenue - a[1].revenue || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, 5);
