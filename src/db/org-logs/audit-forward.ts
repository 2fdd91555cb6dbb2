// The audit trail's way into the organization's log store. An audit row is written to D1's `audit_logs`
// in the same batch as the change it records (atomic with it, sometimes only if a guarded update changed
// a row), so that table is a staging outbox: after the response, the request that staged rows forwards
// its organization's (one `append` per organization, normally one), and the cron's `audit-forward` step
// forwards whatever is left (a failed or skipped forward, the rows staged before the store existed) in
// bounded batches. A row leaves D1 only once its store has acknowledged it; a retried append is harmless
// (the store keeps the first copy of an id). Readers merge the staged rows with the store's
// (modules/audit/service.ts), so a change's audit row is visible at once.
import type { Env } from "../../config";
import { logLine, summarizeError } from "../../lib/log";
import { orgLogs } from "./stub";
import type { AuditLogRecord } from "./tables";

/** Staged rows one request forwards for its organization at most (the rest go with the next forward or the cron). */
export const AUDIT_FORWARD_REQUEST_ROWS = 200;
export const AUDIT_FORWARD_BATCH_ROWS = 500;
/** Batches per cron run. */
export const AUDIT_FORWARD_BATCHES_PER_RUN = 4;

type StagedRow = Record<string, string | number | null>;

const COLUMNS = "id, organization_id, workspace_id, actor_type, actor_id, action, target_type, target_id, request_id, metadata, created_at";

const str = (v: string | number | null | undefined) => (v === null || v === undefined ? null : String(v));

/** A staged D1 row as the store keeps it (without its organization: the store is the organization's). */
export function auditRecordOf(r: StagedRow): AuditLogRecord {
  return {
    id: String(r.id),
    workspaceId: str(r.workspace_id),
    actorType: String(r.actor_type) as AuditLogRecord["actorType"],
    actorId: String(r.actor_id),
    action: String(r.action),
    targetType: String(r.target_type),
    targetId: String(r.target_id),
    requestId: String(r.request_id),
    metadata: str(r.metadata),
    createdAt: String(r.created_at),
  };
}

/** Appends one organization's rows to its store, then (acknowledged) deletes them from D1. */
async function forwardTo(env: Pick<Env, "DB" | "ORG_LOGS">, organizationId: string, rows: readonly StagedRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  await orgLogs(env, organizationId).append({ auditLogs: rows.map(auditRecordOf) });
  // One bound parameter whatever the count (D1 binds at most 100).
  await env.DB.prepare("DELETE FROM audit_logs WHERE id IN (SELECT value FROM json_each(?1))")
    .bind(JSON.stringify(rows.map((r) => String(r.id))))
    .run();
  return rows.length;
}

/** After a response: the organization's staged rows, oldest first, to its store. A failure is logged; the cron retries. */
export async function forwardStagedAudit(env: Pick<Env, "DB" | "ORG_LOGS">, organizationId: string): Promise<number> {
  try {
    const { results } = await env.DB.prepare(
      `SELECT ${COLUMNS} FROM audit_logs WHERE organization_id = ?1 ORDER BY created_at, id LIMIT ?2`,
    )
      .bind(organizationId, AUDIT_FORWARD_REQUEST_ROWS)
      .all<StagedRow>();
    return await forwardTo(env, organizationId, results);
  } catch (err) {
    logLine("warn", "audit forward failed", { error: summarizeError(err) });
    return 0;
  }
}

/**
 * The cron's share: up to `batchesPerRun` batches of staged rows in id order, each split by organization.
 * An organization whose store fails keeps its rows for the next run, and the run's cursor moves past them,
 * so it never holds back the others. Returns rows forwarded.
 */
export async function forwardStagedAuditBacklog(
  env: Pick<Env, "DB" | "ORG_LOGS">,
  options: { batchRows?: number; batchesPerRun?: number } = {},
): Promise<number> {
  const limit = options.batchRows ?? AUDIT_FORWARD_BATCH_ROWS;
  let after = "";
  let forwarded = 0;
  for (let i = 0; i < (options.batchesPerRun ?? AUDIT_FORWARD_BATCHES_PER_RUN); i++) {
    const { results } = await env.DB.prepare(`SELECT ${COLUMNS} FROM audit_logs WHERE id > ?1 ORDER BY id LIMIT ?2`)
      .bind(after, limit)
      .all<StagedRow>();
    const groups = new Map<string, StagedRow[]>();
    for (const row of results) {
      const organizationId = String(row.organization_id);
      const group = groups.get(organizationId);
      if (group) group.push(row);
      else groups.set(organizationId, [row]);
    }
    const outcomes = await Promise.allSettled([...groups].map(([organizationId, rows]) => forwardTo(env, organizationId, rows)));
    for (const outcome of outcomes) {
      if (outcome.status === "fulfilled") forwarded += outcome.value;
      else logLine("warn", "audit forward failed", { error: summarizeError(outcome.reason) });
    }
    if (results.length < limit) break;
    after = String(results.at(-1)?.id);
  }
  return forwarded;
}
