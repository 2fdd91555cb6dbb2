// The adoption sweep: subscriptions and payments the upstream made for a workspace whose webhook never
// reached Ponte (lost, disabled, or sent before the account was connected) are listed from the upstream
// and adopted, through the same adoption as webhooks and passthrough answers (origin `upstream`,
// subscription.* and payment.* events). Subscriptions first, so their payments link to them.
//
// The work stays small however many accounts there are (issue 28 #4). Each run visits at most
// ACCOUNTS_PER_RUN accounts — those never visited first (newest connection first: its history before the
// connection is what no webhook brought), then the longest unvisited, none more often than every
// REVISIT_MINUTES — and reads at most `maxPages` upstream pages per list per account. Where it stands is
// kept per account in `adoption_cursors`: a pass lists what the upstream created on or after `since`
// (payments by the upstream's `dateCreated[ge]` filter; subscriptions newest first until one older than
// `since`), a run that runs out of pages stores its offset and the next run resumes there (the upstream
// lists newest first, so what arrives meanwhile shifts items later: re-read, never skipped), and a
// completed pass moves `since` to the day it started — the next pass re-lists only the days that may be new,
// not two days of every account every time.
import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { credentialsFor, upstreamJson } from "../../billing/upstream";
import { keyEnvironmentFor } from "../../config";
import { adoptionCursors, gatewayAccounts, payments, subscriptions } from "../../db/schema";
import { selectInList } from "../../db/in-list";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import type { Tenant } from "../../lib/tenant";
import { adoptUpstreamPayment, isUpstreamPayment } from "../payments/adoption";
import { adoptUpstreamSubscription, isUpstreamSubscription } from "../subscriptions/adoption";
import { logLine, summarizeError } from "../../lib/log";

export interface AdoptionSweepOptions {
  /** How far back an account's first pass lists the upstream's creation dates (days, Brazilian calendar). */
  lookbackDays?: number;
  /** Upstream pages (of 100) read per list per account per run. */
  maxPages?: number;
  /** Accounts visited per run. */
  accountsPerRun?: number;
  /** Items per upstream page (the upstream's maximum, 100, unless a test pages finer). */
  pageSize?: number;
}

export const ACCOUNTS_PER_RUN = 25;
export const REVISIT_MINUTES = 15;

interface UpstreamPage {
  data?: unknown[];
  hasMore?: boolean;
}

/** One list's place: the pass lists items created on or after `since`, and has read `offset` of them. */
export interface ListCursor {
  since: string;
  offset: number;
  passStartedOn: string;
}

type Cursor = typeof adoptionCursors.$inferSelect;

/** The Brazilian calendar day of an instant (UTC−3, the upstream's dates). */
const brazilDay = (ms: number) => new Date(ms - 3 * 3_600_000).toISOString().slice(0, 10);

/** Where the pass goes after a run read `read` items from `cursor` and the list ended (`done`) or not. */
export function advance(cursor: ListCursor, read: number, done: boolean): ListCursor {
  return done
    ? { since: cursor.passStartedOn, offset: 0, passStartedOn: cursor.passStartedOn }
    : { ...cursor, offset: cursor.offset + read };
}

/** A run starting on `today`: a pass at offset 0 starts now. */
const starting = (cursor: ListCursor, today: string): ListCursor => (cursor.offset === 0 ? { ...cursor, passStartedOn: today } : cursor);

async function unknownUpstreamIds(deps: Deps, tenant: Tenant, table: typeof payments | typeof subscriptions, ids: string[]) {
  const known = await selectInList(deps.db, ids, (part) =>
    deps.db
      .select({ upstreamId: table.upstreamId })
      .from(table)
      .where(and(inTenant(table, tenant), inArray(table.upstreamId, part))),
  );
  const knownIds = new Set(known.map((k) => k.upstreamId));
  return (id: string) => !knownIds.has(id);
}

/** The upstream lists subscriptions newest first without a creation-date filter: read until one older than `since`. */
async function adoptSubscriptions(deps: Deps, tenant: Tenant, cursor: ListCursor, maxPages: number, pageSize: number) {
  const credentials = await credentialsFor(deps, tenant);
  let adopted = 0;
  let read = 0;
  for (let page = 0; page < maxPages; page++) {
    const answer = await upstreamJson<UpstreamPage>(deps, credentials, {
      flow: "adopt-missed",
      method: "GET",
      path: "/v3/subscriptions",
      query: `offset=${cursor.offset + read}&limit=${pageSize}`,
    });
    const items = answer.data ?? [];
    read += items.length;
    const listed = items.filter(isUpstreamSubscription);
    const createdOn = (s: unknown) => (s as { dateCreated?: unknown }).dateCreated;
    const recent = listed.filter((s) => {
      const day = createdOn(s);
      return typeof day !== "string" || day.slice(0, 10) >= cursor.since;
    });
    if (recent.length > 0) {
      const isNew = await unknownUpstreamIds(
        deps,
        tenant,
        subscriptions,
        recent.map((s) => s.id),
      );
      for (const sub of recent) if (isNew(sub.id) && (await adoptUpstreamSubscription(deps, tenant, sub, "upstream"))) adopted++;
    }
    if (!answer.hasMore || recent.length < listed.length) return { adopted, cursor: advance(cursor, read, true) };
  }
  return { adopted, cursor: advance(cursor, read, false) };
}

async function adoptPayments(deps: Deps, tenant: Tenant, cursor: ListCursor, maxPages: number, pageSize: number) {
  const credentials = await credentialsFor(deps, tenant);
  let adopted = 0;
  let read = 0;
  for (let page = 0; page < maxPages; page++) {
    const answer = await upstreamJson<UpstreamPage>(deps, credentials, {
      flow: "adopt-missed",
      method: "GET",
      path: "/v3/payments",
      query: `dateCreated%5Bge%5D=${cursor.since}&offset=${cursor.offset + read}&limit=${pageSize}`,
    });
    const items = answer.data ?? [];
    read += items.length;
    const listed = items.filter(isUpstreamPayment);
    if (listed.length > 0) {
      const isNew = await unknownUpstreamIds(
        deps,
        tenant,
        payments,
        listed.map((p) => p.id),
      );
      for (const payment of listed) if (isNew(payment.id) && (await adoptUpstreamPayment(deps, tenant, payment, "upstream"))) adopted++;
    }
    if (!answer.hasMore) return { adopted, cursor: advance(cursor, read, true) };
  }
  return { adopted, cursor: advance(cursor, read, false) };
}

interface DueAccount extends Tenant {
  gatewayAccountId: string;
  cursor: Cursor | null;
}

async function visit(deps: Deps, account: DueAccount, options: AdoptionSweepOptions): Promise<number> {
  const nowMs = deps.now().getTime();
  const today = brazilDay(nowMs);
  const first = brazilDay(nowMs - (options.lookbackDays ?? 2) * 86_400_000);
  const c = account.cursor;
  const subsCursor = starting(
    c
      ? { since: c.subscriptionsSince, offset: c.subscriptionsOffset, passStartedOn: c.subscriptionsPassStartedOn }
      : { since: first, offset: 0, passStartedOn: today },
    today,
  );
  const paysCursor = starting(
    c
      ? { since: c.paymentsSince, offset: c.paymentsOffset, passStartedOn: c.paymentsPassStartedOn }
      : { since: first, offset: 0, passStartedOn: today },
    today,
  );
  const maxPages = options.maxPages ?? 5;
  let subs = { adopted: 0, cursor: subsCursor };
  let pays = { adopted: 0, cursor: paysCursor };
  try {
    subs = await adoptSubscriptions(deps, account, subsCursor, maxPages, options.pageSize ?? 100);
    pays = await adoptPayments(deps, account, paysCursor, maxPages, options.pageSize ?? 100);
  } catch (err) {
    // Visited all the same (the cursor stays where it was): a failing account waits its turn instead of taking a slot every run.
    logLine("warn", "adoption sweep: account skipped", { workspaceId: account.workspaceId, error: summarizeError(err) });
  }
  const row = {
    gatewayAccountId: account.gatewayAccountId,
    organizationId: account.organizationId,
    workspaceId: account.workspaceId,
    visitedAt: deps.now().toISOString(),
    paymentsSince: pays.cursor.since,
    paymentsOffset: pays.cursor.offset,
    paymentsPassStartedOn: pays.cursor.passStartedOn,
    subscriptionsSince: subs.cursor.since,
    subscriptionsOffset: subs.cursor.offset,
    subscriptionsPassStartedOn: subs.cursor.passStartedOn,
  };
  const { gatewayAccountId: _key, ...update } = row;
  await deps.db.insert(adoptionCursors).values(row).onConflictDoUpdate({ target: adoptionCursors.gatewayAccountId, set: update });
  return subs.adopted + pays.adopted;
}

/** The accounts this run visits: active in the host's environment, never visited or not for REVISIT_MINUTES. */
async function dueAccounts(deps: Deps, limit: number): Promise<DueAccount[]> {
  const cutoff = new Date(deps.now().getTime() - REVISIT_MINUTES * 60_000).toISOString();
  const rows = await deps.db
    .select({ account: gatewayAccounts, cursor: adoptionCursors })
    .from(gatewayAccounts)
    .leftJoin(adoptionCursors, eq(adoptionCursors.gatewayAccountId, gatewayAccounts.id))
    .where(
      and(
        eq(gatewayAccounts.status, "active"),
        eq(gatewayAccounts.environment, keyEnvironmentFor(deps.env.ENVIRONMENT)),
        or(isNull(adoptionCursors.visitedAt), lte(adoptionCursors.visitedAt, cutoff)),
      ),
    )
    .orderBy(sql`${adoptionCursors.visitedAt} IS NOT NULL`, asc(adoptionCursors.visitedAt), desc(gatewayAccounts.createdAt))
    .limit(limit)
    .all();
  return rows.map(({ account, cursor }) => ({
    gatewayAccountId: account.id,
    organizationId: account.organizationId,
    workspaceId: account.workspaceId,
    cursor,
  }));
}

/** Adopts what the webhooks missed (subscriptions, then payments) for the accounts due this run. Returns how many. */
export async function adoptMissedPayments(deps: Deps, options: AdoptionSweepOptions = {}): Promise<number> {
  const accounts = await dueAccounts(deps, options.accountsPerRun ?? ACCOUNTS_PER_RUN);
  let adopted = 0;
  for (const account of accounts) {
    adopted += await visit(deps, account, options);
  }
  return adopted;
}
