// Customers: the Ponte record is written first (pending), mirrored to the upstream with Ponte's id as
// `externalReference`, then marked synced; a lost answer is reconciled by that reference.
import { and, eq, isNull, like, type SQL } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { credentialsFor, isAmbiguousFailure, upstreamJson, type GatewayCredentials } from "../../billing/upstream";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { customers } from "../../db/schema";
import { ApiError, notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { resolveGatewayAccount } from "../../gateway/accounts";
import { normalizeCpfCnpj, validatedTaxId } from "./cpf-cnpj";
import { newestFirstPage } from "../../db/paging";
import { inTenant } from "../../db/tenant-scope";
import { newCustomerDeltas, rollupIfChanged } from "../../events/metric-rollups";
import type { Tenant } from "../../lib/tenant";

export type CustomerRow = typeof customers.$inferSelect;

export function presentCustomer(row: CustomerRow) {
  return {
    id: row.id,
    object: "customer" as const,
    name: row.name,
    cpfCnpj: row.cpfCnpj,
    personType: row.personType,
    email: row.email,
    phone: row.phone,
    mobilePhone: row.mobilePhone,
    address: row.address,
    addressNumber: row.addressNumber,
    complement: row.complement,
    province: row.province,
    postalCode: row.postalCode,
    externalReference: row.externalReference,
    notificationDisabled: row.notificationDisabled,
    observations: row.observations,
    deleted: row.deletedAt !== null,
    upstreamId: row.upstreamId,
    syncStatus: row.syncStatus,
    origin: row.origin,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export interface CustomerInput {
  name?: string | undefined;
  cpfCnpj?: string | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  mobilePhone?: string | null | undefined;
  address?: string | null | undefined;
  addressNumber?: string | null | undefined;
  complement?: string | null | undefined;
  province?: string | null | undefined;
  postalCode?: string | null | undefined;
  externalReference?: string | null | undefined;
  notificationDisabled?: boolean | undefined;
  observations?: string | null | undefined;
}

const OPTIONAL_FIELDS = [
  "email",
  "phone",
  "mobilePhone",
  "address",
  "addressNumber",
  "complement",
  "province",
  "postalCode",
  "externalReference",
  "observations",
] as const;

/** The upstream body: the merchant's fields, with Ponte's id as the upstream's externalReference. */
function upstreamCustomerBody(row: CustomerRow) {
  const body: Record<string, unknown> = {
    name: row.name,
    cpfCnpj: row.cpfCnpj,
    externalReference: row.id,
    notificationDisabled: row.notificationDisabled,
  };
  for (const f of OPTIONAL_FIELDS) if (f !== "externalReference" && row[f] !== null) body[f] = row[f];
  return body;
}

export async function createCustomer(deps: Deps, principal: Principal, input: CustomerInput & { name: string; cpfCnpj: string }) {
  requirePermission(principal, "customers.manage");
  const credentials = await resolveGatewayAccount(deps, principal);
  const taxId = validatedTaxId(input.cpfCnpj);
  const now = deps.now().toISOString();
  const row: CustomerRow = {
    id: newId(),
    ...tenantOf(principal),
    origin: "api",
    upstreamId: null,
    syncStatus: "pending",
    name: input.name,
    cpfCnpj: taxId.value,
    personType: taxId.personType,
    email: input.email ?? null,
    phone: input.phone ?? null,
    mobilePhone: input.mobilePhone ?? null,
    address: input.address ?? null,
    addressNumber: input.addressNumber ?? null,
    complement: input.complement ?? null,
    province: input.province ?? null,
    postalCode: input.postalCode ?? null,
    externalReference: input.externalReference ?? null,
    notificationDisabled: input.notificationDisabled ?? false,
    observations: input.observations ?? null,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.insert(customers).values(row);
  return presentCustomer(await pushCustomer(deps, credentials, row));
}

/** Creates the customer upstream and links it; a definitive refusal removes the pending record. */
async function pushCustomer(deps: Deps, credentials: GatewayCredentials, row: CustomerRow): Promise<CustomerRow> {
  try {
    const created = await upstreamJson<{ id: string }>(deps, credentials, {
      flow: "create-customer",
      method: "POST",
      path: "/v3/customers",
      body: upstreamCustomerBody(row),
      surfacePath: "/api/v1/customers",
    });
    return linkCustomer(deps, row, created.id);
  } catch (err) {
    if (err instanceof ApiError && !isAmbiguousFailure(err))
      await deps.db.delete(customers).where(and(eq(customers.id, row.id), eq(customers.syncStatus, "pending")));
    throw err;
  }
}

async function linkCustomer(deps: Deps, row: CustomerRow, upstreamId: string): Promise<CustomerRow> {
  const updatedAt = deps.now().toISOString();
  await deps.db.batch([
    deps.db
      .update(customers)
      .set({ upstreamId, syncStatus: "synced", updatedAt })
      .where(and(eq(customers.id, row.id), eq(customers.syncStatus, "pending"))),
    ...rollupIfChanged(deps.db, tenantOf(row), newCustomerDeltas(row.createdAt)),
  ]);
  return { ...row, upstreamId, syncStatus: "synced", updatedAt };
}

/** Sweeper / lazy path: find the upstream customer by Ponte's id, or create it when the upstream has none. */
export async function reconcileCustomer(deps: Deps, credentials: GatewayCredentials, row: CustomerRow): Promise<CustomerRow> {
  if (row.syncStatus !== "pending") return row;
  const found = await upstreamJson<{ data: { id: string }[] }>(deps, credentials, {
    flow: "reconcile-customer",
    method: "GET",
    path: "/v3/customers",
    query: `externalReference=${encodeURIComponent(row.id)}`,
  });
  const match = found.data[0];
  return match ? linkCustomer(deps, row, match.id) : pushCustomer(deps, credentials, row);
}

function scope(tenant: Tenant): SQL[] {
  return [inTenant(customers, tenant)];
}

export async function findCustomerRow(deps: Deps, tenant: Tenant, id: string): Promise<CustomerRow> {
  const row = await deps.db
    .select()
    .from(customers)
    .where(and(eq(customers.id, id), ...scope(tenant)))
    .get();
  if (!row) throw notFound("customer", id);
  return row;
}

/** A customer usable for a new payment or subscription: live, and known to the upstream. */
export async function customerForBilling(
  deps: Deps,
  credentials: GatewayCredentials,
  tenant: Tenant,
  id: string,
  field = "customer",
): Promise<CustomerRow & { upstreamId: string }> {
  const row = await deps.db.select().from(customers).where(billableCustomerWhere(tenant, id)).get();
  const synced = await reconcileCustomer(deps, credentials, assertBillableCustomer(row, id, field));
  return synced as CustomerRow & { upstreamId: string };
}

/** The customer a charge or subscription names, in the tenant (read in a caller's batch, checked by assertBillableCustomer). */
export function billableCustomerWhere(tenant: Tenant, id: string) {
  return and(eq(customers.id, id), ...scope(tenant));
}

/** A charge or subscription may bill only an existing, not deleted customer of the tenant. */
export function assertBillableCustomer<T extends Pick<CustomerRow, "deletedAt">>(row: T | undefined, id: string, field = "customer"): T {
  if (!row)
    throw new ApiError("VALIDATION_FAILED", `Invalid request body: body.${field}.`, {
      fields: [{ path: `body.${field}`, message: `no customer with id '${id}'`, code: "not_found" }],
    });
  if (row.deletedAt)
    throw new ApiError("INVALID_STATE", `Customer '${id}' is deleted; restore it first.`, { customerId: id, status: "deleted" });
  return row;
}

export async function listCustomers(
  deps: Deps,
  principal: Principal,
  page: PageRequest,
  filters: {
    name?: string | undefined;
    email?: string | undefined;
    cpfCnpj?: string | undefined;
    externalReference?: string | undefined;
    includeDeleted?: string | undefined;
  },
) {
  requirePermission(principal, "customers.read");
  const conditions = scope(tenantOf(principal));
  if (filters.includeDeleted !== "true") conditions.push(isNull(customers.deletedAt));
  if (filters.name) conditions.push(like(customers.name, `%${filters.name.replace(/[%_]/g, "")}%`));
  if (filters.email) conditions.push(eq(customers.email, filters.email));
  if (filters.cpfCnpj) conditions.push(eq(customers.cpfCnpj, normalizeCpfCnpj(filters.cpfCnpj)));
  if (filters.externalReference) conditions.push(eq(customers.externalReference, filters.externalReference));
  const where = and(...conditions);
  const { rows, totalCount } = await newestFirstPage(deps.db, customers, where, page);
  return { rows: rows.map(presentCustomer), totalCount };
}

export async function getCustomer(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "customers.read");
  return presentCustomer(await findCustomerRow(deps, tenantOf(principal), id));
}

/** PUT: the upstream is updated first, so a refusal leaves the Ponte record untouched. */
export async function updateCustomer(deps: Deps, principal: Principal, id: string, input: CustomerInput) {
  requirePermission(principal, "customers.manage");
  const row = await findCustomerRow(deps, tenantOf(principal), id);
  if (row.deletedAt)
    throw new ApiError("INVALID_STATE", `Customer '${id}' is deleted; restore it before updating.`, { customerId: id, status: "deleted" });
  const changes: Partial<CustomerRow> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.cpfCnpj !== undefined) {
    const taxId = validatedTaxId(input.cpfCnpj);
    changes.cpfCnpj = taxId.value;
    changes.personType = taxId.personType;
  }
  for (const f of OPTIONAL_FIELDS) if (input[f] !== undefined) changes[f] = input[f] ?? null;
  if (input.notificationDisabled !== undefined) changes.notificationDisabled = input.notificationDisabled;
  const next: CustomerRow = { ...row, ...changes, updatedAt: deps.now().toISOString() };
  const credentials = await resolveGatewayAccount(deps, principal);
  const synced = await reconcileCustomer(deps, credentials, row);
  const upstreamBody = upstreamCustomerBody(next);
  await upstreamJson(deps, credentials, {
    flow: "update-customer",
    method: "PUT",
    path: `/v3/customers/${synced.upstreamId}`,
    body: upstreamBody,
    surfacePath: `/api/v1/customers/${id}`,
  });
  await deps.db
    .update(customers)
    .set({ ...changes, updatedAt: next.updatedAt })
    .where(eq(customers.id, id));
  return presentCustomer({ ...next, upstreamId: synced.upstreamId, syncStatus: synced.syncStatus });
}

export async function deleteCustomer(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "customers.manage");
  const row = await findCustomerRow(deps, tenantOf(principal), id);
  if (row.deletedAt) return presentCustomer(row);
  const credentials = await resolveGatewayAccount(deps, principal);
  if (row.upstreamId)
    await upstreamJson(deps, credentials, {
      flow: "delete-customer",
      method: "DELETE",
      path: `/v3/customers/${row.upstreamId}`,
      surfacePath: `/api/v1/customers/${id}`,
    });
  const now = deps.now().toISOString();
  await deps.db.update(customers).set({ deletedAt: now, updatedAt: now }).where(eq(customers.id, id));
  return presentCustomer({ ...row, deletedAt: now, updatedAt: now });
}

export async function restoreCustomer(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "customers.manage");
  const row = await findCustomerRow(deps, tenantOf(principal), id);
  if (!row.deletedAt)
    throw new ApiError("INVALID_STATE", `Customer '${id}' is not deleted; only a deleted customer can be restored.`, {
      customerId: id,
      status: "active",
    });
  const credentials = await resolveGatewayAccount(deps, principal);
  if (row.upstreamId)
    await upstreamJson(deps, credentials, {
      flow: "restore-customer",
      method: "POST",
      path: `/v3/customers/${row.upstreamId}/restore`,
      surfacePath: `/api/v1/customers/${id}/restore`,
    });
  const now = deps.now().toISOString();
  await deps.db.update(customers).set({ deletedAt: null, updatedAt: now }).where(eq(customers.id, id));
  return presentCustomer({ ...row, deletedAt: null, updatedAt: now });
}

export { credentialsFor };
