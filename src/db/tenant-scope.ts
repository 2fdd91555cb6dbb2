// Every row of tenant data carries its organization and workspace, and every query filters by both:
// this is that filter, so a record of another tenant is simply not found.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Tenant } from "../lib/tenant";

export function inTenant(table: { organizationId: SQLiteColumn; workspaceId: SQLiteColumn }, tenant: Tenant): SQL {
  return and(eq(table.organizationId, tenant.organizationId), eq(table.workspaceId, tenant.workspaceId)) as SQL;
}

/**
 * The same filter for a lookup by a set of ids (`id IN (…)`). The tenant columns are written `+column`, which
 * keeps them out of index choice: SQLite's planner has no statistics on D1, takes the tenant's index as the
 * narrower one and walks every row of the tenant to find a hundred ids (seconds per statement at 100× the
 * demo: issue 28's bench:scale), where the primary key finds each at once. The rows are filtered by tenant all
 * the same. scripts/lib/query-plans.mjs flags such a walk.
 */
export function inTenantById(table: { organizationId: SQLiteColumn; workspaceId: SQLiteColumn }, tenant: Tenant): SQL {
  return sql`(+${table.organizationId} = ${tenant.organizationId} and +${table.workspaceId} = ${tenant.workspaceId})`;
}

/**
 * Organization-level data (API keys, audit logs, workspaces): the credential's organization, and only
 * its own workspace when the credential is bound to one. For the workspaces table itself, pass
 * `{ organizationId: workspaces.organizationId, workspaceId: workspaces.id }`.
 */
export function inCredentialScope(
  table: { organizationId: SQLiteColumn; workspaceId: SQLiteColumn },
  credential: Tenant & { workspaceRestricted: boolean },
): SQL {
  const organization = eq(table.organizationId, credential.organizationId);
  return credential.workspaceRestricted ? (and(organization, eq(table.workspaceId, credential.workspaceId)) as SQL) : organization;
}
