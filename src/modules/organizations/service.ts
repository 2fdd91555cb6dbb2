// The caller's organization: read it, rename it, set its time zone (audited).
import { eq } from "drizzle-orm";
import { type Principal, requirePermission } from "../../access/principal";
import { type Deps, d1Of } from "../../deps";
import { rowByIdReader } from "../../db/row-by-id";
import { organizations, workspaces } from "../../db/schema";
import { ApiError, notFound } from "../../http/errors";
import type { TimeZone } from "../../lib/time-zones";
import { rebuildMetrics } from "../analytics/metrics-rebuild";
import { auditEntry } from "../audit/service";

type OrganizationRow = typeof organizations.$inferSelect;
export const presentOrganization = (row: OrganizationRow) => ({ ...row, object: "organization" as const });

const organizationById = rowByIdReader(organizations);

export async function currentOrganization(deps: Deps, principal: Principal) {
  requirePermission(principal, "organizations.read");
  const row = await organizationById(d1Of(deps), principal.organizationId);
  if (!row) throw notFound("organization", principal.organizationId);
  return row;
}

export interface OrganizationChanges {
  name?: string | undefined;
  timeZone?: TimeZone | undefined;
}

/**
 * Renames the organization and/or sets its time zone. Analytics count days in that zone, so a new zone
 * rebuilds every workspace's daily rollups from their records within the request (the rebuild entry
 * point, POST /metrics/rebuild's): that needs analytics.manage and an organization-wide credential,
 * checked before anything is written.
 */
export async function updateOrganization(deps: Deps, principal: Principal, changes: OrganizationChanges) {
  requirePermission(principal, "organizations.manage");
  const row = await currentOrganization(deps, principal);
  const zoneChanges = changes.timeZone !== undefined && changes.timeZone !== row.timeZone;
  if (zoneChanges) {
    requirePermission(principal, "analytics.manage");
    if (principal.workspaceRestricted)
      throw new ApiError(
        "FORBIDDEN",
        "A workspace-bound credential cannot change the organization's time zone; use an organization-wide key.",
      );
  }
  const next = { name: changes.name ?? row.name, timeZone: changes.timeZone ?? row.timeZone, updatedAt: deps.now().toISOString() };
  const metadata: Record<string, unknown> = { name: next.name };
  if (zoneChanges) Object.assign(metadata, { timeZone: next.timeZone, previousTimeZone: row.timeZone });
  await deps.db.batch([
    deps.db.update(organizations).set(next).where(eq(organizations.id, row.id)),
    auditEntry(deps, principal, { action: "organization.updated", targetType: "organization", targetId: row.id, metadata }),
  ]);
  if (zoneChanges) {
    const all = await deps.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.organizationId, row.id));
    for (const ws of all) await rebuildMetrics(deps, { ...principal, workspaceId: ws.id });
  }
  return presentOrganization({ ...row, ...next });
}
