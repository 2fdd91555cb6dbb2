// Every row of tenant data carries its organization and workspace, and every query filters by both:
// this is that filter, so a record of another tenant is simply not found.
import { and, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Tenant } from "../lib/tenant";

export function inTenant(table: { organizationId: SQLiteColumn; workspaceId: SQLiteColumn }, tenant: Tenant): SQL {
  return and(eq(table.organizationId, tenant.organizationId), eq(table.workspaceId, tenant.workspaceId)) as SQL;
}
