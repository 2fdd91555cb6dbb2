// Every row of tenant data carries its organization and workspace, and every query filters by both:
// this is that filter, so a record of another tenant is simply not found.
import { and, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Tenant } from "../lib/tenant";

export function inTenant(table: { organizationId: SQLiteColumn; workspaceId: SQLiteColumn }, tenant: Tenant): SQL {
  return and(eq(table.organizationId, tenant.organizationId), eq(table.workspaceId, tenant.workspaceId)) as SQL;
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
