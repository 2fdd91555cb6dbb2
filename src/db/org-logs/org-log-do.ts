// OrgLogDO: one per organization (named by its id), holding that organization's logs in its own SQLite —
// the gateway-api-log, webhook delivery attempts and
// the audit trail (forwarded from its D1 staging rows, audit-forward.ts) — so they neither fill D1 nor queue
// behind business writes for D1's single writer. Writers send a request's rows in one `append` after the
// response; readers page through them. Its alarm deletes what is past the organization's retention
// periods (retention.ts), a bounded number of rows per table per run.
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../config";
import { type LogRetention, RETENTION_DEFAULTS, retentionCutoff } from "./retention";
import { allRows, appendRows, deleteRowsThrough, type LogCondition, type LogPage, migrateLogStore, pageRows } from "./store";
import {
  AUDIT_LOGS,
  type AuditLogRecord,
  GATEWAY_CALLS,
  type GatewayCallRecord,
  type LogTable,
  WEBHOOK_ATTEMPTS,
  type WebhookAttemptRecord,
} from "./tables";

/** What one writer sends at once: any of the logs' new rows. */
export interface LogBatch {
  gatewayCalls?: GatewayCallRecord[];
  webhookAttempts?: WebhookAttemptRecord[];
  auditLogs?: AuditLogRecord[];
}

export interface PageWindow {
  limit: number;
  offset: number;
}

/** Rows each table loses at most per alarm run; a full run re-arms the alarm at once for the rest. */
export const RETENTION_ROWS_PER_RUN = 5_000;
/** Between retention runs when nothing is left behind. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

const RETENTION_KEY = "retention";
const PRUNED: readonly [LogTable<unknown>, keyof LogRetention][] = [
  [GATEWAY_CALLS as LogTable<unknown>, "gatewayApiLogDays"],
  [WEBHOOK_ATTEMPTS as LogTable<unknown>, "webhookAttemptDays"],
  [AUDIT_LOGS as LogTable<unknown>, "auditLogDays"],
];

export class OrgLogDO extends DurableObject<Env> {
  /** The clock of retention runs; tests swap it through runInDurableObject. */
  now: () => Date = () => new Date();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrateLogStore(ctx.storage);
  }

  async append(batch: LogBatch): Promise<{ written: number }> {
    const storage = this.ctx.storage;
    const written =
      appendRows(storage, GATEWAY_CALLS, batch.gatewayCalls ?? []) +
      appendRows(storage, WEBHOOK_ATTEMPTS, batch.webhookAttempts ?? []) +
      appendRows(storage, AUDIT_LOGS, batch.auditLogs ?? []);
    if ((await storage.getAlarm()) === null) await storage.setAlarm(Date.now() + RETENTION_INTERVAL_MS);
    return { written };
  }

  async setRetention(retention: LogRetention): Promise<void> {
    this.ctx.storage.kv.put(RETENTION_KEY, retention);
  }

  async retention(): Promise<LogRetention> {
    return this.ctx.storage.kv.get<LogRetention>(RETENTION_KEY) ?? RETENTION_DEFAULTS;
  }

  async gatewayCalls(conditions: LogCondition<GatewayCallRecord>[], page: PageWindow): Promise<LogPage<GatewayCallRecord>> {
    return pageRows(this.ctx.storage, GATEWAY_CALLS, conditions, page);
  }

  async gatewayCall(id: string, workspaceId: string): Promise<GatewayCallRecord | null> {
    const conditions: LogCondition<GatewayCallRecord>[] = [
      { field: "id", op: "=", value: id },
      { field: "workspaceId", op: "=", value: workspaceId },
    ];
    return allRows(this.ctx.storage, GATEWAY_CALLS, conditions)[0] ?? null;
  }

  /** A page of the audit trail, newest first, without the ids the caller still has staged in D1. */
  async auditLogs(
    conditions: LogCondition<AuditLogRecord>[],
    page: PageWindow,
    excludeIds: string[] = [],
  ): Promise<LogPage<AuditLogRecord>> {
    return pageRows(this.ctx.storage, AUDIT_LOGS, conditions, page, excludeIds);
  }

  /** A delivery's attempts, oldest first. */
  async attemptsOf(deliveryId: string): Promise<WebhookAttemptRecord[]> {
    return allRows(this.ctx.storage, WEBHOOK_ATTEMPTS, [{ field: "deliveryId", op: "=", value: deliveryId }]);
  }

  override async alarm(): Promise<void> {
    await this.pruneExpired();
  }

  /** Deletes what is past each log's period (a bounded amount), then arms the next run. Returns rows deleted per table. */
  async pruneExpired(): Promise<Record<string, number>> {
    const retention = await this.retention();
    const now = this.now();
    const deleted: Record<string, number> = {};
    let behind = false;
    for (const [table, field] of PRUNED) {
      const n = deleteRowsThrough(this.ctx.storage, table, retentionCutoff(now, retention[field]), RETENTION_ROWS_PER_RUN);
      deleted[table.name] = n;
      if (n === RETENTION_ROWS_PER_RUN) behind = true;
    }
    await this.ctx.storage.setAlarm(Date.now() + (behind ? 1_000 : RETENTION_INTERVAL_MS));
    return deleted;
  }
}
