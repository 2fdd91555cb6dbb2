// The gateway-api-log, written in batches off the response path: each upstream call adds its row to
// this isolate's buffer, and one flush writes everything pending in one D1 batch — either at once,
// from the request that fills the buffer, or after a short delay, from the waitUntil of the request
// that found the buffer empty. Rows are plain data, so no I/O crosses from one request's context to
// another's. A write failure is logged and never fails a merchant's call.
//
// This runs on every passthrough call, so it is kept cheap: one timer per batch rather than per row,
// and plain prepared statements (built once from the drizzle table) rather than a query builder.
import { getTableColumns } from "drizzle-orm";
import { LIMITS } from "../config";
import type { Deps } from "../deps";
import { gatewayApiLogs } from "../db/schema";
import { logLine, summarizeError } from "../lib/log";

export type GatewayCallRow = typeof gatewayApiLogs.$inferInsert;

const COLUMNS = Object.entries(getTableColumns(gatewayApiLogs)).map(([field, column]) => ({
  field: field as keyof GatewayCallRow,
  name: column.name,
}));
/** D1 binds at most 100 parameters per statement. */
const ROWS_PER_INSERT = Math.floor(100 / COLUMNS.length);
const ROW_PLACEHOLDERS = `(${COLUMNS.map(() => "?").join(", ")})`;
const insertSql = (rows: number) =>
  `INSERT INTO gateway_api_logs (${COLUMNS.map((c) => c.name).join(", ")}) VALUES ${Array(rows).fill(ROW_PLACEHOLDERS).join(", ")}`;
const FULL_INSERT = insertSql(ROWS_PER_INSERT);

const pending: GatewayCallRow[] = [];
/** When the scheduled delayed flush is due; 0 when none is scheduled. */
let flushDueAt = 0;

export function recordGatewayCall(deps: Deps, row: GatewayCallRow): void {
  pending.push(row);
  if (pending.length >= LIMITS.gatewayLogBatchRows) {
    deps.waitUntil(flushGatewayCalls(deps));
    return;
  }
  const now = Date.now();
  // A delayed flush is already on its way, unless it is long overdue (its request's context ended early).
  if (flushDueAt !== 0 && now < flushDueAt + LIMITS.gatewayLogStaleFlushMs) return;
  flushDueAt = now + LIMITS.gatewayLogBatchDelayMs;
  deps.waitUntil(new Promise((resolve) => setTimeout(resolve, LIMITS.gatewayLogBatchDelayMs)).then(() => flushGatewayCalls(deps)));
}

export async function flushGatewayCalls(deps: Deps): Promise<void> {
  flushDueAt = 0;
  const rows = pending.splice(0, pending.length);
  if (rows.length === 0) return;
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_INSERT);
    const values = chunk.flatMap((r) => COLUMNS.map((c) => r[c.field] ?? null));
    statements.push(deps.env.DB.prepare(chunk.length === ROWS_PER_INSERT ? FULL_INSERT : insertSql(chunk.length)).bind(...values));
  }
  try {
    await deps.env.DB.batch(statements);
  } catch (err) {
    logLine("warn", "gateway log write failed", { rows: rows.length, error: summarizeError(err) });
  }
}
