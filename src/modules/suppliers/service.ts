// Suppliers (PLATFORM.md): who a workspace pays. CPF/CNPJ checked like a customer's, stored normalised;
// a default cost category (of the same workspace) that new expenses of the supplier fall back to.
import { z } from "@hono/zod-openapi";
import { and, count, eq, like, or, sql } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { newestFirstPage } from "../../db/paging";
import { insertIfChanged } from "../../db/guarded-insert";
import { auditLogs, expenses, suppliers } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { ApiError, notFound } from "../../http/errors";
import { listQuery, type PageRequest } from "../../http/pagination";
import { newId } from "../../lib/ids";
import type { Tenant } from "../../lib/tenant";
import { auditEntry, auditRow } from "../audit/service";
import { findCostCategoryRow } from "../cost-categories/service";
import { normalizeCpfCnpj, validateCpfCnpj } from "../customers/cpf-cnpj";

export type SupplierRow = typeof suppliers.$inferSelect;

const CpfCnpj = z
  .string()
  .superRefine((value, ctx) => {
    const result = validateCpfCnpj(value);
    if (!result.ok) ctx.addIssue({ code: "custom", message: result.reason });
  })
  .openapi({
    example: "11.222.333/0001-81",
    description: "CPF or CNPJ (check digits verified, as for customers); stored without punctuation.",
  });
const optionalText = (max: number) => z.string().max(max).nullable().optional();

const SupplierFields = {
  cpfCnpj: CpfCnpj.nullable().optional(),
  email: z.email().max(254).nullable().optional(),
  phone: optionalText(30),
  website: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .nullable()
    .optional(),
  defaultCostCategoryId: z.uuid().nullable().optional(),
  notes: optionalText(2000),
};

export const CreateSupplierBody = z.object({ name: z.string().trim().min(1).max(200), ...SupplierFields }).openapi("CreateSupplier");
export const UpdateSupplierBody = z
  .object({ name: z.string().trim().min(1).max(200).optional(), ...SupplierFields, archived: z.boolean().optional() })
  .openapi("UpdateSupplier");

export const SupplierListQuery = listQuery({
  q: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .openapi({ param: { name: "q", in: "query" }, description: "Part of the name (case-insensitive) or of the CPF/CNPJ." }),
  archived: z
    .enum(["true", "false"])
    .optional()
    .openapi({ param: { name: "archived", in: "query" } }),
  defaultCostCategoryId: z
    .uuid()
    .optional()
    .openapi({ param: { name: "defaultCostCategoryId", in: "query" } }),
});

export const Supplier = z
  .object({
    id: z.uuid(),
    object: z.literal("supplier"),
    name: z.string(),
    cpfCnpj: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    website: z.string().nullable(),
    defaultCostCategoryId: z.uuid().nullable(),
    notes: z.string().nullable(),
    archived: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Supplier");

export function presentSupplier(row: SupplierRow) {
  return {
    id: row.id,
    object: "supplier" as const,
    name: row.name,
    cpfCnpj: row.cpfCnpj,
    email: row.email,
    phone: row.phone,
    website: row.website,
    defaultCostCategoryId: row.defaultCostCategoryId,
    notes: row.notes,
    archived: row.archived,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function findSupplierRow(deps: Deps, tenant: Tenant, id: string): Promise<SupplierRow> {
  const row = await deps.db
    .select()
    .from(suppliers)
    .where(and(eq(suppliers.id, id), inTenant(suppliers, tenant)))
    .get();
  if (!row) throw notFound("supplier", id);
  return row;
}

/** A category another record is about to point at: this workspace's (else 404) and not archived (else 400). */
export async function usableCostCategory(deps: Deps, tenant: Tenant, id: string, field: string) {
  const category = await findCostCategoryRow(deps, tenant, id);
  if (category.archived) throw new ApiError("VALIDATION_FAILED", `Cost category '${id}' is archived.`, { [field]: id });
  return category;
}

const taxIdOf = (value: string | null | undefined) => (value ? normalizeCpfCnpj(value) : null);

export async function createSupplier(deps: Deps, principal: Principal, input: z.infer<typeof CreateSupplierBody>) {
  requirePermission(principal, "finance.manage");
  const tenant = tenantOf(principal);
  if (input.defaultCostCategoryId) await usableCostCategory(deps, tenant, input.defaultCostCategoryId, "defaultCostCategoryId");
  const now = deps.now().toISOString();
  const row: SupplierRow = {
    id: newId(),
    ...tenant,
    name: input.name,
    cpfCnpj: taxIdOf(input.cpfCnpj),
    email: input.email ?? null,
    phone: input.phone ?? null,
    website: input.website ?? null,
    defaultCostCategoryId: input.defaultCostCategoryId ?? null,
    notes: input.notes ?? null,
    archived: false,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.batch([
    deps.db.insert(suppliers).values(row),
    auditEntry(deps, principal, { action: "supplier.created", targetType: "supplier", targetId: row.id, metadata: { name: row.name } }),
  ]);
  return presentSupplier(row);
}

export interface SupplierFilters {
  q?: string | undefined;
  archived?: boolean | undefined;
  defaultCostCategoryId?: string | undefined;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listSuppliers(deps: Deps, principal: Principal, page: PageRequest, f: SupplierFilters) {
  requirePermission(principal, "finance.read");
  const conditions = [inTenant(suppliers, principal)];
  if (f.q) {
    const text = `%${escapeLike(f.q.toLowerCase())}%`;
    const digits = normalizeCpfCnpj(f.q);
    conditions.push(
      or(
        sql`lower(${suppliers.name}) LIKE ${text} ESCAPE '\\'`,
        ...(digits ? [like(suppliers.cpfCnpj, `%${escapeLike(digits)}%`)] : []),
      ) as ReturnType<typeof sql>,
    );
  }
  if (f.archived !== undefined) conditions.push(eq(suppliers.archived, f.archived));
  if (f.defaultCostCategoryId) conditions.push(eq(suppliers.defaultCostCategoryId, f.defaultCostCategoryId));
  const { rows, totalCount } = await newestFirstPage(deps.db, suppliers, and(...conditions), page);
  return { rows: rows.map(presentSupplier), totalCount };
}

export async function getSupplier(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "finance.read");
  return presentSupplier(await findSupplierRow(deps, tenantOf(principal), id));
}

export async function updateSupplier(deps: Deps, principal: Principal, id: string, input: z.infer<typeof UpdateSupplierBody>) {
  requirePermission(principal, "finance.manage");
  const tenant = tenantOf(principal);
  const row = await findSupplierRow(deps, tenant, id);
  if (input.defaultCostCategoryId && input.defaultCostCategoryId !== row.defaultCostCategoryId)
    await usableCostCategory(deps, tenant, input.defaultCostCategoryId, "defaultCostCategoryId");
  const changes: Partial<SupplierRow> = { updatedAt: deps.now().toISOString() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.cpfCnpj !== undefined) changes.cpfCnpj = taxIdOf(input.cpfCnpj);
  if (input.email !== undefined) changes.email = input.email;
  if (input.phone !== undefined) changes.phone = input.phone;
  if (input.website !== undefined) changes.website = input.website;
  if (input.defaultCostCategoryId !== undefined) changes.defaultCostCategoryId = input.defaultCostCategoryId;
  if (input.notes !== undefined) changes.notes = input.notes;
  if (input.archived !== undefined) changes.archived = input.archived;
  const action = input.archived === true && !row.archived ? "supplier.archived" : "supplier.updated";
  await deps.db.batch([
    deps.db.update(suppliers).set(changes).where(eq(suppliers.id, id)),
    auditEntry(deps, principal, { action, targetType: "supplier", targetId: id, metadata: { fields: Object.keys(input) } }),
  ]);
  return presentSupplier({ ...row, ...changes });
}

/** Refuses (409 IN_USE) while expenses point at it: archive it instead. */
export async function deleteSupplier(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "finance.manage");
  const tenant = tenantOf(principal);
  await findSupplierRow(deps, tenant, id);
  const used = await deps.db
    .select({ n: count() })
    .from(expenses)
    .where(and(inTenant(expenses, tenant), eq(expenses.supplierId, id)))
    .get();
  const nExpenses = used?.n ?? 0;
  if (nExpenses > 0) throw new ApiError("IN_USE", `Supplier '${id}' has expenses; archive it instead.`, { id, expenses: nExpenses });
  // The delete itself re-checks: an expense written since the count above keeps the supplier.
  const [deleted] = await deps.db.batch([
    deps.db
      .delete(suppliers)
      .where(
        and(
          eq(suppliers.id, id),
          inTenant(suppliers, tenant),
          sql`NOT EXISTS (SELECT 1 FROM ${expenses} WHERE ${expenses.workspaceId} = ${tenant.workspaceId} AND ${expenses.supplierId} = ${id})`,
        ),
      )
      .returning({ id: suppliers.id }),
    insertIfChanged(deps.db, auditLogs, auditRow(deps, principal, { action: "supplier.deleted", targetType: "supplier", targetId: id })),
  ]);
  if (deleted.length === 0) throw new ApiError("IN_USE", `Supplier '${id}' has expenses; archive it instead.`, { id });
  return { id, object: "supplier" as const, deleted: true as const };
}
