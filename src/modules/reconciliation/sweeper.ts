// The sync sweeper (cron): records left `pending` by an upstream timeout are looked up upstream by
// externalReference (Ponte's id) and linked, or created only if the upstream has none — so a retry
// never makes a second upstream record.
import { and, asc, eq, lte } from "drizzle-orm";
import type { Deps } from "../../deps";
import { payments, customers, subscriptions } from "../../db/schema";
import { reconcileCustomer } from "../customers/service";
import { reconcilePayment } from "../payments/service";
import { reconcileSubscription } from "../subscriptions/service";
import { credentialsFor, type GatewayCredentials } from "../../billing/upstream";
import type { Tenant } from "../../lib/tenant";
import { logLine, summarizeError } from "../../lib/log";

export interface SweepOptions {
  /** Leave records younger than this alone: their own request may still be finishing. */
  graceMs?: number;
  /** Records per table per run. */
  batchSize?: number;
}

export interface SweepReport {
  customers: { synced: number; failed: number };
  payments: { synced: number; failed: number };
  subscriptions: { synced: number; failed: number };
}

export async function reconcilePendingSync(deps: Deps, options: SweepOptions = {}): Promise<SweepReport> {
  const cutoff = new Date(deps.now().getTime() - (options.graceMs ?? 60_000)).toISOString();
  const limit = options.batchSize ?? 50;
  const report: SweepReport = {
    customers: { synced: 0, failed: 0 },
    payments: { synced: 0, failed: 0 },
    subscriptions: { synced: 0, failed: 0 },
  };
  const credentialCache = new Map<string, Promise<GatewayCredentials>>();
  const credentials = (t: Tenant) => {
    let c = credentialCache.get(t.workspaceId);
    if (!c) {
      c = credentialsFor(deps, t);
      credentialCache.set(t.workspaceId, c);
    }
    return c;
  };
  async function each<T extends Tenant & { id: string }>(
    rows: T[],
    tally: { synced: number; failed: number },
    fn: (c: GatewayCredentials, row: T) => Promise<{ syncStatus: string }>,
  ) {
    for (const row of rows) {
      try {
        const after = await fn(await credentials(row), row);
        if (after.syncStatus === "pending") tally.failed++;
        else tally.synced++;
      } catch (err) {
        tally.failed++;
        logLine("warn", "sync sweep: record still pending", { id: row.id, error: summarizeError(err) });
      }
    }
  }
  // Customers first: payments and subscriptions need their customer's upstream id.
  const pendingCustomers = await deps.db
    .select()
    .from(customers)
    .where(and(eq(customers.syncStatus, "pending"), lte(customers.createdAt, cutoff)))
    .orderBy(asc(customers.createdAt))
    .limit(limit);
  await each(pendingCustomers, report.customers, (c, row) => reconcileCustomer(deps, c, row));
  const pendingPayments = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.syncStatus, "pending"), lte(payments.createdAt, cutoff)))
    .orderBy(asc(payments.createdAt))
    .limit(limit);
  await each(pendingPayments, report.payments, (c, row) => reconcilePayment(deps, c, row));
  const pendingSubs = await deps.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.syncStatus, "pending"), lte(subscriptions.createdAt, cutoff)))
    .orderBy(asc(subscriptions.createdAt))
    .limit(limit);
  await each(pendingSubs, report.subscriptions, (c, row) => reconcileSubscription(deps, c, row));
  return report;
}
