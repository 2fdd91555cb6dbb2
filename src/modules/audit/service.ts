// The audit trail: every control-plane write records who did what to which record, in the same batch.
// The row is staged in D1 (atomic with the change) and forwarded to the organization's log store
// after the response (db/org-logs/audit-forward.ts); reads merge both. The store's alarm applies the
// organization's audit period.
import { and, eq, gte, lte, type SQL } from "drizzle-orm";
import { inCredentialScope } from "../../db/tenant-scope";
import { type Principal, requirePermission } from "../../access/principal";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { auditLogs } from "../../db/schema";
import type { PageRequest } from "../../http/pagination";
import { newestFirstPage } from "../../db/paging";
import { orgLogs } from "../../db/org-logs/stub";
import type { LogCondition } from "../../db/org-logs/store";
import type { AuditLogRecord } from "../../db/org-logs/tables";

export interface AuditEvent {
  action: string;
  targetType: string;
  targetId: string;
  metadata?: Record<string, unknown>;
}

/** The audit row for an event (see auditEntry). */
export function auditRow(deps: Deps, principal: Principal, event: AuditEvent): typeof auditLogs.$inferInsert {
  deps.stagedAudit?.add(principal.organizationId);
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

/** Staged rows a read takes at least (normally a handful: the forwarder empties the stage within a minute). */
const STAGED_READ_ROWS = 1_000;

export type AuditLogEntry = Omit<typeof auditLogs.$inferSelect, "metadata"> & { metadata: Record<string, unknown> | null };

const newestFirst = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1;

/**
 * A page of the audit trail, newest first: the organization's store merged with the rows still staged in
 * D1 (read-your-writes). A staged row the store already holds (acknowledged, not yet deleted) counts once.
 */
export async function listAuditLogs(deps: Deps, principal: Principal, filters: AuditFilters, page: PageRequest) {
  requirePermission(principal, "audit_logs.read");
  const conditions: SQL[] = [inCredentialScope(auditLogs, principal)];
  const stored: LogCondition<AuditLogRecord>[] = [];
  if (principal.workspaceRestricted) stored.push({ field: "workspaceId", op: "=", value: principal.workspaceId });
  if (filters.action) {
    conditions.push(eq(auditLogs.action, filters.action));
    stored.push({ field: "action", op: "=", value: filters.action });
  }
  if (filters.targetId) {
    conditions.push(eq(auditLogs.targetId, filters.targetId));
    stored.push({ field: "targetId", op: "=", value: filters.targetId });
  }
  if (filters.from) {
    conditions.push(gte(auditLogs.createdAt, filters.from));
    stored.push({ field: "createdAt", op: ">=", value: filters.from });
  }
  if (filters.to) {
    conditions.push(lte(auditLogs.createdAt, filters.to));
    stored.push({ field: "createdAt", op: "<=", value: filters.to });
  }
  const window = page.offset + page.limit;
  const staged = await newestFirstPage(deps.db, auditLogs, and(...conditions), { limit: Math.max(window, STAGED_READ_ROWS), offset: 0 });
  const store = await orgLogs(deps.env, principal.organizationId).auditLogs(
    stored,
    { limit: window, offset: 0 },
    staged.rows.map((r) => r.id),
  );
  const fromStore: AuditLogEntry[] = store.rows.map(({ metadata, ...r }) => ({
    ...r,
    organizationId: principal.organizationId,
    metadata: metadata === null ? null : (JSON.parse(metadata) as Record<string, unknown>),
  }));
  const fromStage: AuditLogEntry[] = staged.rows.map((r) => ({ ...r, metadata: r.metadata ?? null }));
  const rows = [...fromStage, ...fromStore].sort(newestFirst).slice(page.offset, window);
  return { rows, totalCount: staged.totalCount + store.totalCount };
}
