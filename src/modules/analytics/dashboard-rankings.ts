// The dashboard's top customers and plans (PLATFORM.md "dashboard"): by revenue received in the period
// (the default; the same rule as profitability, ./received-revenue.ts), or by MRR of their ACTIVE
// subscriptions (`rankBy=mrr`). Each entry carries both figures, so a console can show either column.
// Cost: the revenue ranking is one grouped, ordered LIMIT 5 per party over the range's party rollups (a row per day
// and party that received something, not the charges), then the subscriptions of those ten; the MRR ranking reads
// the ACTIVE subscriptions grouped by customer, plan, cycle and value, then the revenue rollups of its five.
import { z } from "@hono/zod-openapi";
import { and, eq, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import { customers, plans, subscriptions } from "../../db/schema";
import { inListStatements, selectInLists } from "../../db/in-list";
import { inTenant, inTenantById } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { monthlyCents } from "../../events/metric-rollups";
import { formatMoney } from "../../lib/money";
import type { Tenant } from "../../lib/tenant";
import { type Party, receivedByParty, topReceived } from "./received-revenue";

export const RANKINGS = ["revenue", "mrr"] as const;
export type Ranking = (typeof RANKINGS)[number];
const TOP = 5;

export const TopEntry = z.object({
  id: z.string(),
  name: z.string().nullable(),
  revenue: z.string().openapi({ description: "Received in the period (charges paid with a payment date in it), decimal string." }),
  mrr: z.string().openapi({ description: "Monthly recurring revenue of its ACTIVE subscriptions now, decimal string." }),
  activeSubscriptions: z.number().int(),
});
export type TopEntry = z.infer<typeof TopEntry>;

interface Standing {
  mrr: number;
  count: number;
}

/**
 * MRR and ACTIVE subscriptions per customer and per plan (an adopted subscription without a Ponte plan is in no plan).
 * With `only`, the rows of those customers and plans alone (each listed one complete; others may be partial and are
 * not read): the revenue ranking needs five of each, not every subscription of the tenant (20,000 at 100× the demo).
 */
async function standings(deps: Deps, tenant: Tenant, only?: Record<Party, string[]>): Promise<Record<Party, Map<string, Standing>>> {
  const out: Record<Party, Map<string, Standing>> = { customer: new Map(), plan: new Map() };
  const grouped = (listed?: SQL) =>
    deps.db
      .select({
        customerId: subscriptions.customerId,
        planId: subscriptions.planId,
        cycle: subscriptions.cycle,
        valueCents: subscriptions.valueCents,
        count: sql<number>`count(*)`,
      })
      .from(subscriptions)
      .where(and(inTenant(subscriptions, tenant), eq(subscriptions.status, "ACTIVE"), isNotNull(subscriptions.upstreamId), listed))
      .groupBy(subscriptions.customerId, subscriptions.planId, subscriptions.cycle, subscriptions.valueCents);
  type Group = Awaited<ReturnType<typeof grouped>>[number];
  const add = (by: Party, groups: Group[]) => {
    for (const g of groups) {
      const id = by === "customer" ? g.customerId : g.planId;
      if (id === null) continue;
      const s = out[by].get(id) ?? { mrr: 0, count: 0 };
      s.mrr += monthlyCents(g.valueCents, g.cycle) * Number(g.count);
      s.count += Number(g.count);
      out[by].set(id, s);
    }
  };
  if (!only) {
    const groups = await grouped();
    add("customer", groups);
    add("plan", groups);
    return out;
  }
  // Each party's listed ids read their own subscriptions (split under D1's 100 bound parameters).
  const [byCustomer, byPlan] = await selectInLists(deps.db, [
    inListStatements(only.customer, (part) => grouped(inArray(subscriptions.customerId, part))),
    inListStatements(only.plan, (part) => grouped(inArray(subscriptions.planId, part))),
  ] as const);
  add("customer", byCustomer);
  add("plan", byPlan);
  return out;
}

const byMrr = (map: Map<string, Standing>) =>
  [...map]
    .sort((a, b) => b[1].mrr - a[1].mrr || a[0].localeCompare(b[0]))
    .slice(0, TOP)
    .map(([id]) => id);

/** The top five customers and plans of [from, to] by `rankBy`, named, with both figures. */
export async function rankings(deps: Deps, tenant: Tenant, rankBy: Ranking, from: string, to: string) {
  const revenue: Record<Party, Map<string, number>> = { customer: new Map(), plan: new Map() };
  const ids: Record<Party, string[]> = { customer: [], plan: [] };
  let standing: Record<Party, Map<string, Standing>>;
  if (rankBy === "revenue") {
    const [c, p] = await deps.db.batch([
      topReceived(deps, tenant, "customer", from, to, TOP),
      topReceived(deps, tenant, "plan", from, to, TOP),
    ]);
    for (const [by, rows] of [
      ["customer", c],
      ["plan", p],
    ] as const) {
      ids[by] = rows.map((r) => r.id);
      for (const r of rows) revenue[by].set(r.id, Number(r.cents));
    }
    standing = await standings(deps, tenant, ids);
  } else {
    standing = await standings(deps, tenant);
    ids.customer = byMrr(standing.customer);
    ids.plan = byMrr(standing.plan);
    const [c, p] = await selectInLists(deps.db, [
      receivedByParty(deps, tenant, "customer", from, to, ids.customer),
      receivedByParty(deps, tenant, "plan", from, to, ids.plan),
    ] as const);
    for (const r of c) revenue.customer.set(r.id, Number(r.cents));
    for (const r of p) revenue.plan.set(r.id, Number(r.cents));
  }
  const [customerNames, planNames] = await selectInLists(deps.db, [
    inListStatements(ids.customer, (part) =>
      deps.db
        .select({ id: customers.id, name: customers.name })
        .from(customers)
        .where(and(inTenantById(customers, tenant), inArray(customers.id, part))),
    ),
    inListStatements(ids.plan, (part) =>
      deps.db
        .select({ id: plans.id, name: plans.name })
        .from(plans)
        .where(and(inTenantById(plans, tenant), inArray(plans.id, part))),
    ),
  ] as const);
  const entries = (by: Party, names: { id: string; name: string }[]): TopEntry[] =>
    ids[by].map((id) => ({
      id,
      name: names.find((n) => n.id === id)?.name ?? null,
      revenue: formatMoney(revenue[by].get(id) ?? 0),
      mrr: formatMoney(standing[by].get(id)?.mrr ?? 0),
      activeSubscriptions: standing[by].get(id)?.count ?? 0,
    }));
  return { topCustomers: entries("customer", customerNames), topPlans: entries("plan", planNames) };
}
