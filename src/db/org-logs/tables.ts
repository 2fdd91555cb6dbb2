// The tables of an organization's log store (OrgLogDO's SQLite): each log's columns, the camelCase field
// each maps to, and the DDL, applied in order once per object (the index of the last step applied is
// kept in the object's KV). Rows are keyed by Ponte's id, so writing one twice keeps the first (a copy
// re-run, a retried append).
import type { ATTEMPT_ERROR_KINDS } from "../schema";

export interface LogTable<Row> {
  name: string;
  /** Field → column, in insert order; the first is the primary key. */
  columns: Record<keyof Row & string, string>;
  /** The column retention and newest-first ordering use. */
  timeColumn: string;
}

export interface GatewayCallRecord {
  id: string;
  workspaceId: string;
  gatewayAccountId: string;
  operationId: string;
  method: string;
  surfacePath: string | null;
  upstreamPath: string;
  upstreamStatus: number | null;
  latencyMs: number;
  errorCode: string | null;
  requestId: string;
  createdAt: string;
}

export interface WebhookAttemptRecord {
  id: string;
  deliveryId: string;
  workspaceId: string;
  trigger: "automatic" | "manual" | "test";
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  errorKind: (typeof ATTEMPT_ERROR_KINDS)[number] | null;
  errorMessage: string | null;
  responseExcerpt: string | null;
}

export const GATEWAY_CALLS: LogTable<GatewayCallRecord> = {
  name: "gateway_api_logs",
  columns: {
    id: "id",
    workspaceId: "workspace_id",
    gatewayAccountId: "gateway_account_id",
    operationId: "operation_id",
    method: "method",
    surfacePath: "surface_path",
    upstreamPath: "upstream_path",
    upstreamStatus: "upstream_status",
    latencyMs: "latency_ms",
    errorCode: "error_code",
    requestId: "request_id",
    createdAt: "created_at",
  },
  timeColumn: "created_at",
};

export const WEBHOOK_ATTEMPTS: LogTable<WebhookAttemptRecord> = {
  name: "webhook_attempts",
  columns: {
    id: "id",
    deliveryId: "delivery_id",
    workspaceId: "workspace_id",
    trigger: "trigger",
    attemptedAt: "attempted_at",
    statusCode: "status_code",
    durationMs: "duration_ms",
    errorKind: "error_kind",
    errorMessage: "error_message",
    responseExcerpt: "response_excerpt",
  },
  timeColumn: "attempted_at",
};

/** An audit-trail entry as the store keeps it; `metadata` is the JSON text D1 staged it with. */
export interface AuditLogRecord {
  id: string;
  workspaceId: string | null;
  actorType: "api_key" | "user" | "system";
  actorId: string;
  action: string;
  targetType: string;
  targetId: string;
  requestId: string;
  metadata: string | null;
  createdAt: string;
}

export const AUDIT_LOGS: LogTable<AuditLogRecord> = {
  name: "audit_logs",
  columns: {
    id: "id",
    workspaceId: "workspace_id",
    actorType: "actor_type",
    actorId: "actor_id",
    action: "action",
    targetType: "target_type",
    targetId: "target_id",
    requestId: "request_id",
    metadata: "metadata",
    createdAt: "created_at",
  },
  timeColumn: "created_at",
};

/** Schema steps, applied in order; append new steps, never edit an applied one. */
export const SCHEMA_STEPS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS gateway_api_logs (
    id TEXT PRIMARY KEY NOT NULL, workspace_id TEXT NOT NULL, gateway_account_id TEXT NOT NULL,
    operation_id TEXT NOT NULL, method TEXT NOT NULL, surface_path TEXT, upstream_path TEXT NOT NULL,
    upstream_status INTEGER, latency_ms INTEGER NOT NULL, error_code TEXT, request_id TEXT NOT NULL,
    created_at TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS gateway_api_logs_workspace_idx ON gateway_api_logs (workspace_id, created_at, id);
  CREATE INDEX IF NOT EXISTS gateway_api_logs_created_idx ON gateway_api_logs (created_at);
  CREATE TABLE IF NOT EXISTS webhook_attempts (
    id TEXT PRIMARY KEY NOT NULL, delivery_id TEXT NOT NULL, workspace_id TEXT NOT NULL, trigger TEXT NOT NULL,
    attempted_at TEXT NOT NULL, status_code INTEGER, duration_ms INTEGER NOT NULL, error_kind TEXT,
    error_message TEXT, response_excerpt TEXT);
  CREATE INDEX IF NOT EXISTS webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempted_at, id);
  CREATE INDEX IF NOT EXISTS webhook_attempts_attempted_idx ON webhook_attempts (attempted_at);`,
  `CREATE TABLE IF NOT EXISTS audit_logs (
    id TEXT PRIMARY KEY NOT NULL, workspace_id TEXT, actor_type TEXT NOT NULL, actor_id TEXT NOT NULL,
    action TEXT NOT NULL, target_type TEXT NOT NULL, target_id TEXT NOT NULL, request_id TEXT NOT NULL,
    metadata TEXT, created_at TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS audit_logs_created_idx ON audit_logs (created_at, id);`,
];
