// The caller's organization: read it and rename it (audited).
import { eq } from "drizzle-orm";
import { type Principal, requirePermission } from "../../access/principal";
import type { Deps } from "../../deps";
import { organizations } from "../../db/schema";
import { notFound } from "../../http/errors";
import { auditEntry } from "../audit/service";

type OrganizationRow = typeof organizations.$inferSelect;
export const presentOrganization = (row: OrganizationRow) => ({ ...row, object: "organization" as const });

export async function currentOrganization(deps: Deps, principal: Principal) {
  requirePermission(principal, "organizations.read");
  const row = await deps.db.select().from(organizations).where(eq(organizations.id, principal.organizationId)).get();
  if (!row) throw notFound("organization", principal.organizationId);
  return row;
}

export async function renameOrganization(deps: Deps, principal: Principal, name: string) {
  requirePermission(principal, "organizations.manage");
  const row = await currentOrganization(deps, principal);
  const updatedAt = deps.now().toISOString();
  await deps.db.batch([
    deps.db.update(organizations).set({ name, updatedAt }).where(eq(organizations.id, row.id)),
    auditEntry(deps, principal, { action: "organization.updated", targetType: "organization", targetId: row.id, metadata: { name } }),
  ]);
  return presentOrganization({ ...row, name, updatedAt });
}
