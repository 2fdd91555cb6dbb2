// The one-off copy of the logs D1 held before OrgLogDO (gateway_api_logs, webhook_attempts) into each
// organization's log store, run by the cron in bounded batches. Resumable and safe to re-run: each table
// is read in id order (UUIDv7: write order) from a cursor kept in log_copy_progress, the cursor moves
// only after every organization in the batch has taken its rows, and a store keeps the first copy of an
// id it already holds. A table is done when a batch comes back short; migration 0024 (deferred; dropping the old
// tables) is applied only after both report done (docs/operating.md, Retention). The audit trail is not
// copied here: its D1 rows are a staging outbox the audit forwarder empties (audit-forward.ts).
import type { Env } from "../../config";
import { orgLogs } from "./stub";
import type { LogBatch } from "./org-log-do";
import type { GatewayCallRecord, WebhookAttemptRecord } from "./tables";

/**
 * Rows per batch: one D1 read (two bound parameters, any size) and one `append` per organization in the batch,
 * which the store writes in one transaction. Measured by `npm run bench:scale` (a million rows).
 */
export const LOG_COPY_BATCH_ROWS = 2_000;
/** Batches per table per cron run: at most 20,000 rows a table a minute, so a million rows take ~50 runs. */
export const LOG_COPY_BATCHES_PER_RUN = 10;

type Source = "gateway_api_logs" | "webhook_attempts";

interface CopiedRow {
  organizationId: string;
  id: string;
  batch: LogBatch;
}

/** Each source: its rows after the cursor, each with its organization and the log batch it goes into. */
const READERS: Record<Source, (db: D1Database, after: string, limit: number) => Promise<CopiedRow[]>> = {
  gateway_api_logs: async (db, after, limit) => {
    const { results } = await db
      .prepare(
        `SELECT id, organization_id, workspace_id, gateway_account_id, operation_id, method, surface_path, upstream_path,
           upstream_status, latency_ms, error_code, request_id, created_at
         FROM gateway_api_logs WHERE id > ?1 ORDER BY id LIMIT ?2`,
      )
      .bind(after, limit)
      .all<Record<string, string | number | null>>();
    return results.map((r) => {
      const call: GatewayCallRecord = {
        id: String(r.id),
        workspaceId: String(r.workspace_id),
        gatewayAccountId: String(r.gateway_account_id),
        operationId: String(r.operation_id),
        method: String(r.method),
        surfacePath: r.surface_path === null ? null : String(r.surface_path),
        upstreamPath: String(r.upstream_path),
        upstreamStatus: r.upstream_status === null ? null : Number(r.upstream_status),
        latencyMs: Number(r.latency_ms),
        errorCode: r.error_code === null ? null : String(r.error_code),
        requestId: String(r.request_id),
        createdAt: String(r.created_at),
      };
      return { organizationId: String(r.organization_id), id: call.id, batch: { gatewayCalls: [call] } };
    });
  },
  // An attempt's organization is its delivery's; an attempt whose delivery is gone has no store to go to.
  webhook_attempts: async (db, after, limit) => {
    const { results } = await db
      .prepare(
        `SELECT a.id, a.delivery_id, a.trigger, a.attempted_at, a.status_code, a.duration_ms, a.error_kind, a.error_message,
           a.response_excerpt, d.organization_id, d.workspace_id
         FROM webhook_attempts a LEFT JOIN webhook_deliveries d ON d.id = a.delivery_id
         WHERE a.id > ?1 ORDER BY a.id LIMIT ?2`,
      )
      .bind(after, limit)
      .all<Record<string, string | number | null>>();
    return results.map((r) => {
      const attempt: WebhookAttemptRecord = {
        id: String(r.id),
        deliveryId: String(r.delivery_id),
        workspaceId: String(r.workspace_id),
        trigger: String(r.trigger) as WebhookAttemptRecord["trigger"],
        attemptedAt: String(r.attempted_at),
        statusCode: r.status_code === null ? null : Number(r.status_code),
        durationMs: Number(r.duration_ms),
        errorKind: r.error_kind === null ? null : (String(r.error_kind) as WebhookAttemptRecord["errorKind"]),
        errorMessage: r.error_message === null ? null : String(r.error_message),
        responseExcerpt: r.response_excerpt === null ? null : String(r.response_excerpt),
      };
      return {
        organizationId: r.organization_id === null ? "" : String(r.organization_id),
        id: attempt.id,
        batch: { webhookAttempts: [attempt] },
      };
    });
  },
};

type CopyBatch = Required<Pick<LogBatch, "gatewayCalls" | "webhookAttempts">>;

/** One batch per organization: the rows of each store, merged. */
function perOrganization(rows: readonly CopiedRow[]): Map<string, CopyBatch> {
  const groups = new Map<string, CopyBatch>();
  for (const row of rows) {
    if (row.organizationId === "") continue;
    let group = groups.get(row.organizationId);
    if (!group) {
      group = { gatewayCalls: [], webhookAttempts: [] };
      groups.set(row.organizationId, group);
    }
    group.gatewayCalls.push(...(row.batch.gatewayCalls ?? []));
    group.webhookAttempts.push(...(row.batch.webhookAttempts ?? []));
  }
  return groups;
}

/** Copies one batch of one table and moves its cursor; returns the rows read and whether the table is done. */
async function copyBatch(env: Env, source: Source, now: Date, limit: number): Promise<{ rows: number; done: boolean }> {
  const progress = await env.DB.prepare("SELECT last_id, done_at FROM log_copy_progress WHERE source_table = ?")
    .bind(source)
    .first<{ last_id: string | null; done_at: string | null }>();
  if (progress?.done_at) return { rows: 0, done: true };
  const rows = await READERS[source](env.DB, progress?.last_id ?? "", limit);
  await Promise.all([...perOrganization(rows)].map(([organizationId, batch]) => orgLogs(env, organizationId).append(batch)));
  const done = rows.length < limit;
  await env.DB.prepare(
    `INSERT INTO log_copy_progress (source_table, last_id, copied_rows, done_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
     ON CONFLICT (source_table) DO UPDATE SET last_id = coalesce(?2, last_id), copied_rows = copied_rows + ?3, done_at = ?4, updated_at = ?5`,
  )
    .bind(source, rows.at(-1)?.id ?? null, rows.length, done ? now.toISOString() : null, now.toISOString())
    .run();
  return { rows: rows.length, done };
}

/** A cron run's share of the copy: up to LOG_COPY_BATCHES_PER_RUN batches per table; returns rows copied. */
export async function copyLogsToStores(env: Env, now: Date, options: { batchRows?: number; batchesPerRun?: number } = {}): Promise<number> {
  const limit = options.batchRows ?? LOG_COPY_BATCH_ROWS;
  let copied = 0;
  for (const source of Object.keys(READERS) as Source[]) {
    for (let i = 0; i < (options.batchesPerRun ?? LOG_COPY_BATCHES_PER_RUN); i++) {
      const { rows, done } = await copyBatch(env, source, now, limit);
      copied += rows;
      if (done) break;
    }
  }
  return copied;
}
