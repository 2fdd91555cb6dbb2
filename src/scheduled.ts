// The cron entry: every sweeper runs each minute, independently (one failing never stops another).
import type { Env } from "./config";
import { backgroundDeps, type Deps } from "./deps";
import { reconcilePendingSync } from "./modules/reconciliation/sweeper";
import { adoptMissedPayments } from "./modules/reconciliation/adopt-missed";
import { sweepOverdueDeliveries, sweepUnfannedEvents } from "./events/sweeper";
import { pruneExpiredIdempotencyKeys } from "./http/idempotency";
import { pruneEndedAuthAttempts } from "./modules/accounts/throttle";
import { pruneExpiredSessions } from "./modules/accounts/service";
import { materialiseRecurringExpenses } from "./modules/expenses/recurrence";
import { syncDueAwsConnections } from "./modules/aws-connections/cost-import";
import { resealOutdatedSecrets } from "./db/reseal";
import { logLine, summarizeError } from "./lib/log";
import { pruneDeliveredEvents } from "./events/outbox";
import { forwardStagedAuditBacklog } from "./db/org-logs/audit-forward";
import { copyLogsToStores } from "./db/org-logs/copy";

/** Records reconciled with the upstream (linked, re-created or failed) in one sweep. */
async function reconcileBilling(deps: Deps): Promise<number> {
  const report = await reconcilePendingSync(deps);
  return Object.values(report).reduce((n, r) => n + r.synced + r.failed, 0);
}

/**
 * Rows past their lifetime deleted in one sweep: idempotency records (24 h), sessions, login failures (15 min),
 * delivered events (LIMITS.outboxRetentionDays). The logs in OrgLogDO, the audit trail among them, are pruned
 * by each object's own alarm.
 */
async function pruneExpiredRecords(deps: Deps): Promise<number> {
  const counts = await Promise.all([
    pruneExpiredIdempotencyKeys(deps),
    pruneExpiredSessions(deps),
    pruneEndedAuthAttempts(deps),
    pruneDeliveredEvents(deps),
  ]);
  return counts.reduce((a, b) => a + b, 0);
}

export interface Sweeper {
  name: string;
  run: (deps: Deps) => Promise<number>;
}

/** Add a capability's sweeper here. */
export const SWEEPERS: readonly Sweeper[] = [
  { name: "webhook-events", run: sweepUnfannedEvents },
  { name: "webhook-deliveries", run: sweepOverdueDeliveries },
  { name: "billing-sync", run: reconcileBilling },
  // A few accounts per run, each at most every 15 minutes, resuming from its cursor (adopt-missed.ts).
  { name: "billing-adoption", run: (deps) => adoptMissedPayments(deps) },
  { name: "retention", run: pruneExpiredRecords },
  // The one-off copy of the logs D1 held into the organizations' log stores; nothing to do once done.
  // Audit rows still staged in D1 (a forward that failed or never ran, rows older than the store) to their stores.
  { name: "audit-forward", run: (deps) => forwardStagedAuditBacklog(deps.env) },
  { name: "log-copy", run: (deps) => copyLogsToStores(deps.env, deps.now()) },
  { name: "expense-recurrence", run: materialiseRecurringExpenses },
  // Each ACTIVE AWS connection once a day (a few per run, those synced longest ago first).
  { name: "aws-costs", run: syncDueAwsConnections },
  // During a SECRETS_ENCRYPTION_KEY rotation only: values sealed with the previous key, re-sealed with the current one.
  { name: "secret-reseal", run: async (deps) => (await resealOutdatedSecrets(deps.env)).resealed },
];

export async function runSweepers(env: Env, ctx?: ExecutionContext): Promise<Record<string, number | string>> {
  const deps = backgroundDeps(env, ctx ? (p) => ctx.waitUntil(p) : undefined);
  const results = await Promise.allSettled(SWEEPERS.map((s) => s.run(deps)));
  const summary: Record<string, number | string> = {};
  results.forEach((r, i) => {
    const name = SWEEPERS[i]?.name ?? String(i);
    summary[name] = r.status === "fulfilled" ? r.value : `error: ${summarizeError(r.reason).errorClass}`;
  });
  const failures = results.flatMap((r, i) =>
    r.status === "rejected" ? [{ sweeper: SWEEPERS[i]?.name, error: summarizeError(r.reason) }] : [],
  );
  if (failures.length > 0) logLine("error", "sweeper failed", { summary, failures });
  return summary;
}
