// The tenant: every row of tenant data carries its organization and workspace, and every query
// filters by both. Declared once here; everything that acts for a tenant takes this type.
import type { KeyEnvironment } from "./environment";

export interface Tenant {
  organizationId: string;
  workspaceId: string;
}

/** A tenant in one key environment (live or test): what gateway credentials are resolved for. */
export interface TenantInEnvironment extends Tenant {
  environment: KeyEnvironment;
}

/** Just the tenant of anything that carries one (a principal, a stored row): the filter values for queries. */
export const tenantOf = (holder: Tenant): Tenant => ({ organizationId: holder.organizationId, workspaceId: holder.workspaceId });
