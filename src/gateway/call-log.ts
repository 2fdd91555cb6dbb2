// The gateway-api-log, written in batches off the response path: each upstream call adds its row to
// this isolate's buffer, and one flush sends everything pending to the organizations' log stores
// (OrgLogDO, one `append` per organization in the batch) — either at once, from the request that fills
// the buffer, or after a short delay, from the waitUntil of the request that found the buffer empty.
// Rows are plain data, so no I/O crosses from one request's context to another's. A write failure is
// logged and never fails a merchant's call.
//
// This runs on every passthrough call, so it is kept cheap: one timer per batch rather than per row.
import { LIMITS } from "../config";
import type { Deps } from "../deps";
import { orgLogs } from "../db/org-logs/stub";
import type { GatewayCallRecord } from "../db/org-logs/tables";
import { logLine, summarizeError } from "../lib/log";

export type GatewayCallRow = GatewayCallRecord & { organizationId: string };

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
  // The runtime's own timer: the global setTimeout is Node's polyfill under nodejs_compat (a Timeout object per call).
  deps.waitUntil(scheduler.wait(LIMITS.gatewayLogBatchDelayMs).then(() => flushGatewayCalls(deps)));
}

/**
 * The pending rows by organization. Each row goes to its store as it is: the store writes its table's columns
 * only, so the row's organizationId (which the store is) is not copied off first: no object rest (a property
 * copy through V8's slow path) per row on every flush.
 */
function byOrganization(rows: readonly GatewayCallRow[]): Map<string, GatewayCallRecord[]> {
  const groups = new Map<string, GatewayCallRecord[]>();
  for (const row of rows) {
    const group = groups.get(row.organizationId);
    if (group) group.push(row);
    else groups.set(row.organizationId, [row]);
  }
  return groups;
}

export async function flushGatewayCalls(deps: Deps): Promise<void> {
  flushDueAt = 0;
  const rows = pending.splice(0, pending.length);
  if (rows.length === 0) return;
  await Promise.all(
    [...byOrganization(rows)].map(async ([organizationId, gatewayCalls]) => {
      try {
        await orgLogs(deps.env, organizationId).append({ gatewayCalls });
      } catch (err) {
        logLine("warn", "gateway log write failed", { rows: gatewayCalls.length, error: summarizeError(err) });
      }
    }),
  );
}
