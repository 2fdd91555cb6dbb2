// The audit trail: every control-plane write records who did what to which record, in the same batch.
import { and, eq, gte, lte, type SQL } from "drizzle-orm";
import { inCredentialScope } from "../../db/tenant-scope";
import { type Principal, requirePermission } from "../../access/principal";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { auditLogs } from "../../db/schema";
import type { PageRequest } from "../../http/pagination";
import { newestFirstPage } from "../../db/paging";
import { LIMITS } from "../../config";

export interface AuditEvent {
  action: string;
  targetType: string;
  targetId: string;
  metadata?: Record<string, unknown>;
}

/** The audit row for an event (see auditEntry). */
export function auditRow(deps: Deps, principal: Principal, event: AuditEvent): typeof auditLogs.$inferInsert {
  return {
    id: newId(),
    organizationId: principal.organizationId,
    workspaceId: principal.workspaceId,
    actorType: principal.kind === "api_key" ? "api_key" : "user",
    actorId: principal.actorId,
    action: event.action,
    targetType: event.targetType,
    targetId: event.targetId,
    requestId: deps.requestId,
    metadata: event.metadata ?? null,
    createdAt: deps.now().toISOString(),
  };
}

/** An insert to put in the same `db.batch` as the write it records. */
export const auditEntry = (deps: Deps, principal: Principal, event: AuditEvent) =>
  deps.db.insert(auditLogs).values(auditRow(deps, principal, event));

export interface AuditFilters {
  action?: string | undefined;
  targetId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export async function listAuditLogs(deps: Deps, principal: Principal, filters: AuditFilters, page: PageRequest) {
  requirePermission(principal, "audit_logs.read");
  const conditions: SQL[] = [inCredentialScope(auditLogs, principal)];
  if (filters.action) conditions.push(eq(auditLogs.action, filters.action));
  if (filters.targetId) conditions.push(eq(auditLogs.targetId, filters.targetId));
  if (filters.from) conditions.push(gte(auditLogs.createdAt, filters.from));
  if (filters.to) conditions.push(lte(auditLogs.createdAt, filters.to));
  const where = and(...conditions);
  return newestFirstPage(deps.db, auditLogs, where, page);
}

/**
 * Audit entries past their organization's period (organizations.audit_log_retention_days, 30–2555 days,
 * default 400) deleted by the retention sweeper: at most LIMITS.retentionBatchRows per run, each
 * organization's found through audit_logs_org_idx (organization_id, created_at). Returns how many went.
 */
export async function pruneExpiredAuditLogs(deps: Deps): Promise<number> {
  const result = await deps.env.DB.prepare(
    `DELETE FROM audit_logs WHERE id IN (
       SELECT a.id FROM organizations o JOIN audit_logs a ON a.organization_id = o.id
         AND a.created_at <= strftime('%Y-%m-%dT%H:%M:%fZ', ?1, '-' || o.audit_log_retention_days || ' days')
       LIMIT ?2)`,
  )
    .bind(deps.now().toISOString(), LIMITS.retentionBatchRows)
    .run();
  return result.meta.changes ?? 0;
}
