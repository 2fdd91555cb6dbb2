// The gateway-api-log, written in batches off the response path: each upstream call adds its row to
// this isolate's buffer; the request that fills the buffer, or whose own row is still waiting after
// a short delay, writes everything pending in one D1 batch from its own waitUntil. Rows are plain
// data, so no I/O crosses from one request's context to another's. A write failure is logged and
// never fails a merchant's call.
import { LIMITS } from "../config";
import type { Deps } from "../deps";
import { gatewayApiLogs } from "../db/schema";

export type GatewayCallRow = typeof gatewayApiLogs.$inferInsert;

/** D1 binds at most 100 parameters per statement; a row binds 14. */
const ROWS_PER_INSERT = 7;
const pending: GatewayCallRow[] = [];

export function recordGatewayCall(deps: Deps, row: GatewayCallRow): void {
  pending.push(row);
  if (pending.length >= LIMITS.gatewayLogBatchRows) {
    deps.waitUntil(flushGatewayCalls(deps));
    return;
  }
  deps.waitUntil(
    new Promise((resolve) => setTimeout(resolve, LIMITS.gatewayLogBatchDelayMs)).then(() => (pending.includes(row) ? flushGatewayCalls(deps) : undefined)),
  );
}

export async function flushGatewayCalls(deps: Deps): Promise<void> {
  const rows = pending.splice(0, pending.length);
  if (rows.length === 0) return;
  const inserts = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) inserts.push(deps.db.insert(gatewayApiLogs).values(rows.slice(i, i + ROWS_PER_INSERT)));
  try {
    await deps.db.batch(inserts as [(typeof inserts)[number], ...(typeof inserts)[number][]]);
  } catch (err) {
    console.error(JSON.stringify({ level: "warn", msg: "gateway log write failed", rows: rows.length, error: String(err) }));
  }
}
