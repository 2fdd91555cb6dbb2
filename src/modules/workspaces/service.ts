// Workspaces of the caller's organization: create, list, get, rename, archive.
import { and, eq, type SQL } from "drizzle-orm";
import { type Principal, requirePermission } from "../../access/principal";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { costCategories, organizations, workspaces } from "../../db/schema";
import { defaultCostCategoryRows } from "../cost-categories/service";
import { ApiError, notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { auditEntry } from "../audit/service";
import { newestFirstPage } from "../../db/paging";
import { inCredentialScope } from "../../db/tenant-scope";

type WorkspaceRow = typeof workspaces.$inferSelect;

export const presentWorkspace = (row: WorkspaceRow) => ({
  id: row.id,
  object: "workspace" as const,
  organizationId: row.organizationId,
  name: row.name,
  status: row.archivedAt ? ("archived" as const) : ("active" as const),
  archivedAt: row.archivedAt,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

function scope(principal: Principal): SQL[] {
  // A workspace-bound credential sees only its own workspace.
  return [inCredentialScope({ organizationId: workspaces.organizationId, workspaceId: workspaces.id }, principal)];
}

export async function createWorkspace(deps: Deps, principal: Principal, input: { name: string }) {
  requirePermission(principal, "workspaces.manage");
  if (principal.workspaceRestricted) {
    throw new ApiError("FORBIDDEN", "A workspace-bound credential cannot create workspaces; use an organization-wide key.");
  }
  const now = deps.now().toISOString();
  const row: WorkspaceRow = {
    id: newId(),
    organizationId: principal.organizationId,
    name: input.name,
    archivedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.batch([
    deps.db.insert(workspaces).values(row),
    deps.db.insert(costCategories).values(defaultCostCategoryRows({ organizationId: row.organizationId, workspaceId: row.id }, now)),
    auditEntry(deps, principal, { action: "workspace.created", targetType: "workspace", targetId: row.id, metadata: { name: row.name } }),
  ]);
  return presentWorkspace(row);
}

export async function listWorkspaces(deps: Deps, principal: Principal, page: PageRequest) {
  requirePermission(principal, "workspaces.read");
  const where = and(...scope(principal));
  const { rows, totalCount } = await newestFirstPage(deps.db, workspaces, where, page);
  return { rows: rows.map(presentWorkspace), totalCount };
}

async function findWorkspace(deps: Deps, principal: Principal, id: string) {
  const row = await deps.db
    .select()
    .from(workspaces)
    .where(and(eq(workspaces.id, id), ...scope(principal)))
    .get();
  if (!row) throw notFound("workspace", id);
  return row;
}

export async function getWorkspace(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "workspaces.read");
  return presentWorkspace(await findWorkspace(deps, principal, id));
}

export async function updateWorkspace(deps: Deps, principal: Principal, id: string, input: { name?: string | undefined }) {
  requirePermission(principal, "workspaces.manage");
  const row = await findWorkspace(deps, principal, id);
  if (row.archivedAt) throw new ApiError("INVALID_STATE", "An archived workspace cannot be changed.", { status: "archived" });
  const updated = { ...row, name: input.name ?? row.name, updatedAt: deps.now().toISOString() };
  await deps.db.batch([
    deps.db.update(workspaces).set({ name: updated.name, updatedAt: updated.updatedAt }).where(eq(workspaces.id, id)),
    auditEntry(deps, principal, { action: "workspace.updated", targetType: "workspace", targetId: id, metadata: { name: updated.name } }),
  ]);
  return presentWorkspace(updated);
}

export async function archiveWorkspace(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "workspaces.manage");
  const row = await findWorkspace(deps, principal, id);
  if (row.archivedAt) return presentWorkspace(row);
  const org = await deps.db
    .select({ defaultWorkspaceId: organizations.defaultWorkspaceId })
    .from(organizations)
    .where(eq(organizations.id, principal.organizationId))
    .get();
  if (org?.defaultWorkspaceId === id) {
    throw new ApiError("INVALID_STATE", "The organization's default workspace cannot be archived.", { status: "default" });
  }
  const now = deps.now().toISOString();
  await deps.db.batch([
    deps.db.update(workspaces).set({ archivedAt: now, updatedAt: now }).where(eq(workspaces.id, id)),
    auditEntry(deps, principal, { action: "workspace.archived", targetType: "workspace", targetId: id }),
  ]);
  return presentWorkspace({ ...row, archivedAt: now, updatedAt: now });
}
