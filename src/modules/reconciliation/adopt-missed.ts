// The adoption sweep: subscriptions and payments the upstream made for a workspace whose webhook never
// reached Ponte (lost, disabled, or sent before the account was connected) are listed from the upstream
// and adopted, through the same adoption as webhooks and passthrough answers (origin `upstream`,
// subscription.* and payment.* events). Subscriptions first, so their payments link to them.
import { and, eq, inArray } from "drizzle-orm";
import { credentialsFor, upstreamJson } from "../../billing/upstream";
import { keyEnvironmentFor } from "../../config";
import { gatewayAccounts, payments, subscriptions } from "../../db/schema";
import { selectInList } from "../../db/in-list";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import type { Tenant } from "../../lib/tenant";
import { adoptUpstreamPayment, isUpstreamPayment } from "../payments/adoption";
import { adoptUpstreamSubscription, isUpstreamSubscription } from "../subscriptions/adoption";

export interface AdoptionSweepOptions {
  /** How far back the upstream's creation dates are listed (days, Brazilian calendar). */
  lookbackDays?: number;
  /** Upstream pages (of 100) read per account per run. */
  maxPages?: number;
}

interface UpstreamPage {
  data?: unknown[];
  hasMore?: boolean;
}

const PAGE_SIZE = 100;

/** The upstream lists subscriptions newest first without a creation-date filter: the newest pages are read. */
async function adoptSubscriptionsForAccount(deps: Deps, tenant: Tenant, maxPages: number): Promise<number> {
  const credentials = await credentialsFor(deps, tenant);
  let adopted = 0;
  for (let page = 0; page < maxPages; page++) {
    const answer = await upstreamJson<UpstreamPage>(deps, credentials, {
      flow: "adopt-missed",
      method: "GET",
      path: "/v3/subscriptions",
      query: `offset=${page * PAGE_SIZE}&limit=${PAGE_SIZE}`,
    });
    const listed = (answer.data ?? []).filter(isUpstreamSubscription);
    if (listed.length > 0) {
      const known = await selectInList(
        deps.db,
        listed.map((s) => s.id),
        (part) =>
          deps.db
            .select({ upstreamId: subscriptions.upstreamId })
            .from(subscriptions)
            .where(and(inTenant(subscriptions, tenant), inArray(subscriptions.upstreamId, part))),
      );
      const knownIds = new Set(known.map((k) => k.upstreamId));
      for (const sub of listed) {
        if (knownIds.has(sub.id)) continue;
        if (await adoptUpstreamSubscription(deps, tenant, sub, "upstream")) adopted++;
      }
    }
    if (!answer.hasMore) break;
  }
  return adopted;
}

async function adoptForAccount(deps: Deps, tenant: Tenant, since: string, maxPages: number): Promise<number> {
  const credentials = await credentialsFor(deps, tenant);
  let adopted = await adoptSubscriptionsForAccount(deps, tenant, maxPages);
  for (let page = 0; page < maxPages; page++) {
    const answer = await upstreamJson<UpstreamPage>(deps, credentials, {
      flow: "adopt-missed",
      method: "GET",
      path: "/v3/payments",
      query: `dateCreated%5Bge%5D=${since}&offset=${page * PAGE_SIZE}&limit=${PAGE_SIZE}`,
    });
    const listed = (answer.data ?? []).filter(isUpstreamPayment);
    if (listed.length > 0) {
      const known = await selectInList(
        deps.db,
        listed.map((p) => p.id),
        (part) =>
          deps.db
            .select({ upstreamId: payments.upstreamId })
            .from(payments)
            .where(and(inTenant(payments, tenant), inArray(payments.upstreamId, part))),
      );
      const knownIds = new Set(known.map((k) => k.upstreamId));
      for (const payment of listed) {
        if (knownIds.has(payment.id)) continue;
        if (await adoptUpstreamPayment(deps, tenant, payment, "upstream")) adopted++;
      }
    }
    if (!answer.hasMore) break;
  }
  return adopted;
}

/** Adopts what the webhooks missed (subscriptions, then payments), for every active gateway account of the host environment. Returns how many. */
export async function adoptMissedPayments(deps: Deps, options: AdoptionSweepOptions = {}): Promise<number> {
  const since = new Date(deps.now().getTime() - 3 * 3_600_000 - (options.lookbackDays ?? 2) * 86_400_000).toISOString().slice(0, 10);
  const accounts = await deps.db
    .select({ organizationId: gatewayAccounts.organizationId, workspaceId: gatewayAccounts.workspaceId })
    .from(gatewayAccounts)
    .where(and(eq(gatewayAccounts.status, "active"), eq(gatewayAccounts.environment, keyEnvironmentFor(deps.env.ENVIRONMENT))));
  let adopted = 0;
  for (const tenant of accounts) {
    try {
      adopted += await adoptForAccount(deps, tenant, since, options.maxPages ?? 5);
    } catch (err) {
      console.error(
        JSON.stringify({ level: "warn", msg: "adoption sweep: account skipped", workspaceId: tenant.workspaceId, error: String(err) }),
      );
    }
  }
  return adopted;
}
