// Plans: native only (the upstream has none); a subscription copies value and cycle from one.
import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { BillingType, Cycle, Money, centsOf, moneyInput } from "../../billing/schemas";
import type { Tenant } from "../../lib/tenant";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { formatMoney } from "../../lib/money";
import { plans } from "../../db/schema";
import { ApiError, notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { newestFirstPage } from "../../db/paging";
import { inTenant } from "../../db/tenant-scope";

export type PlanRow = typeof plans.$inferSelect;

export const CreatePlanBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(500).nullable().optional(),
    value: moneyInput({ positive: true }),
    cycle: Cycle,
    billingType: BillingType.nullable().optional(),
  })
  .openapi("CreatePlan");
export const UpdatePlanBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(500).nullable().optional(),
    value: moneyInput({ positive: true }).optional(),
    cycle: Cycle.optional(),
    billingType: BillingType.nullable().optional(),
  })
  .openapi("UpdatePlan");
export const Plan = z
  .object({
    id: z.uuid(),
    object: z.literal("plan"),
    name: z.string(),
    description: z.string().nullable(),
    value: Money,
    cycle: Cycle,
    billingType: BillingType.nullable(),
    status: z.enum(["active", "archived"]),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Plan");

export function presentPlan(row: PlanRow) {
  return {
    id: row.id,
    object: "plan" as const,
    name: row.name,
    description: row.description,
    value: formatMoney(row.valueCents),
    cycle: row.cycle,
    billingType: row.billingType,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function findPlanRow(deps: Deps, tenant: Tenant, id: string): Promise<PlanRow> {
  const row = await deps.db
    .select()
    .from(plans)
    .where(and(eq(plans.id, id), inTenant(plans, tenant)))
    .get();
  if (!row) throw notFound("plan", id);
  return row;
}

export async function createPlan(deps: Deps, principal: Principal, input: z.infer<typeof CreatePlanBody>) {
  requirePermission(principal, "plans.manage");
  const now = deps.now().toISOString();
  const row: PlanRow = {
    id: newId(),
    ...tenantOf(principal),
    name: input.name,
    description: input.description ?? null,
    valueCents: centsOf(input.value),
    cycle: input.cycle,
    billingType: input.billingType ?? null,
    status: "active",
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.insert(plans).values(row);
  return presentPlan(row);
}

export async function listPlans(deps: Deps, principal: Principal, page: PageRequest, status?: "active" | "archived") {
  requirePermission(principal, "plans.read");
  const where = and(inTenant(plans, principal), ...(status ? [eq(plans.status, status)] : []));
  const { rows, totalCount } = await newestFirstPage(deps.db, plans, where, page);
  return { rows: rows.map(presentPlan), totalCount };
}

export async function getPlan(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "plans.read");
  return presentPlan(await findPlanRow(deps, tenantOf(principal), id));
}

/** Changes apply to subscriptions created afterwards; existing subscriptions keep their terms. */
export async function updatePlan(deps: Deps, principal: Principal, id: string, input: z.infer<typeof UpdatePlanBody>) {
  requirePermission(principal, "plans.manage");
  const row = await findPlanRow(deps, tenantOf(principal), id);
  if (row.status === "archived")
    throw new ApiError("INVALID_STATE", `Plan '${id}' is archived; it cannot be changed.`, { planId: id, status: row.status });
  const changes: Partial<PlanRow> = { updatedAt: deps.now().toISOString() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.value !== undefined) changes.valueCents = centsOf(input.value);
  if (input.cycle !== undefined) changes.cycle = input.cycle;
  if (input.billingType !== undefined) changes.billingType = input.billingType;
  await deps.db.update(plans).set(changes).where(eq(plans.id, id));
  return presentPlan({ ...row, ...changes });
}

/** Archived plans take no new subscriptions; archiving again is a no-op. */
export async function archivePlan(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "plans.manage");
  const row = await findPlanRow(deps, tenantOf(principal), id);
  if (row.status === "archived") return presentPlan(row);
  const updatedAt = deps.now().toISOString();
  await deps.db.update(plans).set({ status: "archived", updatedAt }).where(eq(plans.id, id));
  return presentPlan({ ...row, status: "archived", updatedAt });
}
