// A long-lived connection (the `npm run listen --transport ws` stream) was authorised once, at its upgrade; this
// re-asks the database whether the API key that opened it may still do so: not revoked or rotated, still holding
// the permission, its workspace still there and not archived. One statement, never the isolate's key cache
// (which may serve a revoked key for up to LIMITS.apiKeyCacheMaxAgeMs).
import { expandStoredPermissions, type Permission } from "../lib/permissions";

export interface HeldCredential {
  apiKeyId: string;
  workspaceId: string;
  permission: Permission;
}

interface Row {
  revoked_at: string | null;
  permissions: string;
  key_workspace_id: string | null;
  workspace_id: string | null;
  archived_at: string | null;
}

const RECHECK = `
  SELECT k.revoked_at, k.permissions, k.workspace_id AS key_workspace_id, w.id AS workspace_id, w.archived_at
    FROM api_keys k
    LEFT JOIN workspaces w ON w.id = ?2 AND w.organization_id = k.organization_id
   WHERE k.id = ?1`;

/** Why the credential no longer holds (a sentence for the close reason), or null while it does. */
export async function credentialProblem(db: D1Database, held: HeldCredential): Promise<string | null> {
  const row = await db.prepare(RECHECK).bind(held.apiKeyId, held.workspaceId).first<Row>();
  if (!row) return "the API key no longer exists";
  if (row.revoked_at) return "the API key has been revoked";
  if (!expandStoredPermissions(row.permissions).has(held.permission)) return `the API key lacks '${held.permission}'`;
  if (row.workspace_id === null || (row.key_workspace_id !== null && row.key_workspace_id !== held.workspaceId))
    return "the API key has no access to the workspace";
  if (row.archived_at) return "the workspace is archived";
  return null;
}
