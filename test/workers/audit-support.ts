// The audit trail as a user of the system sees it: the rows still staged in D1 merged with those already
// forwarded to the organization's log store (read in that order, so a row moving between the two is never
// missed), each once, oldest first, in D1's column names. Tests read audit entries through this or the route.
import { env } from "cloudflare:workers";
import { orgLogs } from "../../src/db/org-logs/stub";

export interface AuditTrailRow {
  id: string;
  organization_id: string;
  workspace_id: string | null;
  actor_type: string;
  actor_id: string;
  action: string;
  target_type: string;
  target_id: string;
  request_id: string;
  /** JSON text, as stored. */
  metadata: string | null;
  created_at: string;
}

export async function auditTrail(organizationId: string, filter: { action?: string; targetId?: string } = {}): Promise<AuditTrailRow[]> {
  const staged = (await env.DB.prepare("SELECT * FROM audit_logs WHERE organization_id = ?").bind(organizationId).all<AuditTrailRow>())
    .results;
  const stored = await orgLogs(env, organizationId).auditLogs([], { limit: 10_000, offset: 0 });
  const byId = new Map<string, AuditTrailRow>(staged.map((r) => [r.id, r]));
  for (const r of stored.rows)
    if (!byId.has(r.id))
      byId.set(r.id, {
        id: r.id,
        organization_id: organizationId,
        workspace_id: r.workspaceId,
        actor_type: r.actorType,
        actor_id: r.actorId,
        action: r.action,
        target_type: r.targetType,
        target_id: r.targetId,
        request_id: r.requestId,
        metadata: r.metadata,
        created_at: r.createdAt,
      });
  return [...byId.values()]
    .filter(
      (r) =>
        (filter.action === undefined || r.action === filter.action) && (filter.targetId === undefined || r.target_id === filter.targetId),
    )
    .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1));
}
