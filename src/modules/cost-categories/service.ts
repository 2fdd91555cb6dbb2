// Cost categories (PLATFORM.md): a two-level tree per workspace; `key` is the slug formulas use.
import { z } from "@hono/zod-openapi";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { newestFirstPage } from "../../db/paging";
import { awsConnections, costCategories, expenses, suppliers } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { ApiError, notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { newId } from "../../lib/ids";
import type { Tenant } from "../../lib/tenant";
import { refuseIfCategoryInUse } from "../analytics/formula-references";
import { DEFAULT_COST_CATEGORIES } from "./defaults";

export type CostCategoryRow = typeof costCategories.$inferSelect;

const Kind = z.enum(["FIXED", "VARIABLE"]);
const Key = z.string().regex(/^[a-z][a-z0-9_]{0,62}$/, "lowercase letters, digits and _, starting with a letter (at most 63)");

export const CreateCostCategoryBody = z
  .object({
    name: z.string().trim().min(1).max(120),
    key: Key.optional().openapi({ description: "Slug for formulas (`expenses.<key>`); derived from the name when absent." }),
    kind: Kind,
    parentId: z.uuid().nullable().optional(),
    description: z.string().max(500).nullable().optional(),
  })
  .openapi("CreateCostCategory");
export const UpdateCostCategoryBody = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    key: Key.optional(),
    kind: Kind.optional(),
    parentId: z.uuid().nullable().optional(),
    description: z.string().max(500).nullable().optional(),
    archived: z.boolean().optional(),
  })
  .openapi("UpdateCostCategory");
export const CostCategory = z
  .object({
    id: z.uuid(),
    object: z.literal("cost_category"),
    name: z.string(),
    key: z.string(),
    kind: Kind,
    parentId: z.uuid().nullable(),
    description: z.string().nullable(),
    archived: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("CostCategory");

export function presentCostCategory(row: CostCategoryRow) {
  return {
    id: row.id,
    object: "cost_category" as const,
    name: row.name,
    key: row.key,
    kind: row.kind,
    parentId: row.parentId,
    description: row.description,
    archived: row.archived,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Rows for the default set (./defaults.ts) of one workspace; insert them in the batch that creates the workspace. */
export function defaultCostCategoryRows(tenant: Tenant, now: string): CostCategoryRow[] {
  return DEFAULT_COST_CATEGORIES.map((d) => ({
    id: newId(),
    organizationId: tenant.organizationId,
    workspaceId: tenant.workspaceId,
    parentId: null,
    key: d.key,
    name: d.name,
    kind: d.kind,
    description: null,
    archived: false,
    createdAt: now,
    updatedAt: now,
  }));
}

export const slugOf = (name: string) =>
  `c_${name}`
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^c_(?=[a-z])/, "")
    .replace(/_+$/, "")
    .slice(0, 63);

export async function findCostCategoryRow(deps: Deps, tenant: Tenant, id: string): Promise<CostCategoryRow> {
  const row = await deps.db
    .select()
    .from(costCategories)
    .where(and(eq(costCategories.id, id), inTenant(costCategories, tenant)))
    .get();
  if (!row) throw notFound("cost category", id);
  return row;
}

async function checkParent(deps: Deps, tenant: Tenant, parentId: string, selfId?: string) {
  if (parentId === selfId) throw new ApiError("VALIDATION_FAILED", "A category cannot be its own parent.", { parentId });
  const parent = await findCostCategoryRow(deps, tenant, parentId);
  if (parent.parentId !== null)
    throw new ApiError("VALIDATION_FAILED", "Categories have two levels: the parent must be a top-level category.", { parentId });
  if (selfId) {
    const children = await deps.db
      .select({ n: count() })
      .from(costCategories)
      .where(and(inTenant(costCategories, tenant), eq(costCategories.parentId, selfId)))
      .get();
    if ((children?.n ?? 0) > 0)
      throw new ApiError("VALIDATION_FAILED", "This category has children; it cannot become a child itself (two levels at most).", {
        parentId,
      });
  }
}

async function checkUnique(deps: Deps, tenant: Tenant, key: string, name: string, parentId: string | null, selfId?: string) {
  const clash = await deps.db
    .select()
    .from(costCategories)
    .where(
      and(
        inTenant(costCategories, tenant),
        sql`(${costCategories.key} = ${key} OR (lower(${costCategories.name}) = lower(${name}) AND ${parentId === null ? isNull(costCategories.parentId) : eq(costCategories.parentId, parentId)}))`,
      ),
    )
    .all();
  const other = clash.find((r) => r.id !== selfId);
  if (!other) return;
  if (other.key === key) throw new ApiError("CONFLICT", `A cost category with key '${key}' exists.`, { key, id: other.id });
  throw new ApiError("CONFLICT", `A sibling category is already named '${name}'.`, { name, id: other.id });
}

export async function createCostCategory(deps: Deps, principal: Principal, input: z.infer<typeof CreateCostCategoryBody>) {
  requirePermission(principal, "finance.manage");
  const tenant = tenantOf(principal);
  const parentId = input.parentId ?? null;
  if (parentId) await checkParent(deps, tenant, parentId);
  const key = input.key ?? slugOf(input.name);
  if (!key) throw new ApiError("VALIDATION_FAILED", "Give a `key`: none can be derived from this name.", {});
  await checkUnique(deps, tenant, key, input.name, parentId);
  const now = deps.now().toISOString();
  const row: CostCategoryRow = {
    id: newId(),
    ...tenant,
    parentId,
    key,
    name: input.name,
    kind: input.kind,
    description: input.description ?? null,
    archived: false,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.insert(costCategories).values(row);
  return presentCostCategory(row);
}

export interface CostCategoryFilters {
  kind?: "FIXED" | "VARIABLE";
  parentId?: string;
  archived?: boolean;
}

export async function listCostCategories(deps: Deps, principal: Principal, page: PageRequest, f: CostCategoryFilters) {
  requirePermission(principal, "finance.read");
  const where = and(
    inTenant(costCategories, principal),
    ...(f.kind ? [eq(costCategories.kind, f.kind)] : []),
    ...(f.parentId ? [eq(costCategories.parentId, f.parentId)] : []),
    ...(f.archived !== undefined ? [eq(costCategories.archived, f.archived)] : []),
  );
  const { rows, totalCount } = await newestFirstPage(deps.db, costCategories, where, page);
  return { rows: rows.map(presentCostCategory), totalCount };
}

export async function getCostCategory(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "finance.read");
  return presentCostCategory(await findCostCategoryRow(deps, tenantOf(principal), id));
}

export async function updateCostCategory(deps: Deps, principal: Principal, id: string, input: z.infer<typeof UpdateCostCategoryBody>) {
  requirePermission(principal, "finance.manage");
  const tenant = tenantOf(principal);
  const row = await findCostCategoryRow(deps, tenant, id);
  const parentId = input.parentId !== undefined ? input.parentId : row.parentId;
  if (parentId && parentId !== row.parentId) await checkParent(deps, tenant, parentId, id);
  const key = input.key ?? row.key;
  const name = input.name ?? row.name;
  await checkUnique(deps, tenant, key, name, parentId, id);
  if (key !== row.key) await refuseIfCategoryInUse(deps, tenant, row.key, "rename");
  const changes: Partial<CostCategoryRow> = { updatedAt: deps.now().toISOString(), key, name, parentId };
  if (input.kind !== undefined) changes.kind = input.kind;
  if (input.description !== undefined) changes.description = input.description;
  if (input.archived !== undefined) changes.archived = input.archived;
  await deps.db.update(costCategories).set(changes).where(eq(costCategories.id, id));
  return presentCostCategory({ ...row, ...changes });
}

/**
 * Refuses (409 IN_USE) while formulas use it (naming them), or expenses, children, suppliers' defaults or
 * AWS connections point at it (archive it instead).
 */
export async function deleteCostCategory(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "finance.manage");
  const tenant = tenantOf(principal);
  const row = await findCostCategoryRow(deps, tenant, id);
  await refuseIfCategoryInUse(deps, tenant, row.key, "delete");
  const inUse = async (q: Promise<{ n: number } | undefined>) => (await q)?.n ?? 0;
  const [nExpenses, nChildren, nSuppliers, nAwsConnections] = await Promise.all([
    inUse(
      deps.db
        .select({ n: count() })
        .from(expenses)
        .where(and(inTenant(expenses, tenant), eq(expenses.costCategoryId, id)))
        .get(),
    ),
    inUse(
      deps.db
        .select({ n: count() })
        .from(costCategories)
        .where(and(inTenant(costCategories, tenant), eq(costCategories.parentId, id)))
        .get(),
    ),
    inUse(
      deps.db
        .select({ n: count() })
        .from(suppliers)
        .where(and(inTenant(suppliers, tenant), eq(suppliers.defaultCostCategoryId, id)))
        .get(),
    ),
    inUse(
      deps.db
        .select({ n: count() })
        .from(awsConnections)
        .where(and(inTenant(awsConnections, tenant), eq(awsConnections.costCategoryId, id)))
        .get(),
    ),
  ]);
  if (nExpenses || nChildren || nSuppliers || nAwsConnections)
    throw new ApiError("IN_USE", `Cost category '${id}' is in use; archive it instead.`, {
      id,
      expenses: nExpenses,
      children: nChildren,
      suppliers: nSuppliers,
      awsConnections: nAwsConnections,
    });
  await deps.db.delete(costCategories).where(and(eq(costCategories.id, id), inTenant(costCategories, tenant)));
  return { id, object: "cost_category" as const, deleted: true as const };
}
