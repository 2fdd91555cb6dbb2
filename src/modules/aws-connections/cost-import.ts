// The AWS cost import: Cost Explorer GetCostAndUsage (UnblendedCost, DAILY, by SERVICE, every page)
// becomes one expense per day and service, keyed by `sourceRef` = `aws:<connection>:<day>:<service>`
// (unique per workspace), so a re-sync corrects amounts instead of duplicating them. Each expense write
// carries its metric rollup in the same batch, applied only if the write changed a row; an update or
// delete only applies if the row is still what was read, so two syncs racing never count twice.
import { z } from "@hono/zod-openapi";
import { and, asc, eq, gte, isNull, lt, lte, or } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { awsConnections, expenses } from "../../db/schema";
import type { Deps } from "../../deps";
import { type ExpenseFacts, expenseDeltas, rollupIfChanged } from "../../events/metric-rollups";
import { ApiError } from "../../http/errors";
import { toBrlCents } from "../../lib/exchange";
import { formatMoney, MAX_MONEY_CENTS } from "../../lib/money";
import { newId } from "../../lib/ids";
import { addDays, isDay } from "../../lib/time-zones";
import { getCostAndUsagePage } from "./aws-client";
import {
  AwsConnection,
  type AwsConnectionRow,
  connectionCredentials,
  findAwsConnectionRow,
  presentAwsConnection,
  recordFailure,
} from "./service";
import { dayBoundsProblem } from "../../http/dates";

type ExpenseRow = typeof expenses.$inferSelect;

/** Longest range one sync covers (a longer history: several syncs). */
export const MAX_SYNC_DAYS = 93;
/** A daily sync goes back this far before `syncedThrough`: AWS keeps revising the last days' costs. */
export const RESYNC_DAYS = 3;
/** Cost Explorer pages followed in one sync before giving up (a misbehaving endpoint cannot loop forever). */
const MAX_PAGES = 100;
/** Statements per D1 batch. */
const BATCH_STATEMENTS = 100;

export const SyncBody = z
  .object({
    from: z.string().optional().openapi({ example: "2026-10-01", description: "First day (UTC, inclusive); default 30 days before `to`." }),
    to: z.string().optional().openapi({ example: "2026-10-31", description: "Last day (UTC, inclusive); default today." }),
  })
  .strict()
  .openapi("SyncAwsConnection");

export const AwsSyncResult = z
  .object({
    object: z.literal("aws_sync"),
    ok: z.boolean().openapi({ description: "false: AWS refused or failed; the connection is FAILED and `connection.lastError` says why." }),
    from: z.string(),
    to: z.string(),
    pages: z.number().int().openapi({ description: "Cost Explorer pages read (NextPageToken followed)." }),
    created: z.number().int(),
    updated: z.number().int(),
    deleted: z
      .number()
      .int()
      .openapi({ description: "Imported days/services AWS no longer reports (or now reports as zero or a credit)." }),
    unchanged: z.number().int(),
    connection: AwsConnection,
  })
  .openapi("AwsSyncResult");

const fieldError = (path: string, message: string) =>
  new ApiError("VALIDATION_FAILED", `Invalid request body: ${path}.`, { fields: [{ path, message, code: "custom" }] });

const isRealDay = (d: string | undefined): d is string => isDay(d) && addDays(d, 0) === d;

/** How far back Cost Explorer answers: the current month and the 13 before it (AWS keeps 14 months by default). */
export const COST_EXPLORER_MONTHS = 14;

/** The first day Cost Explorer still answers for: the 1st of the month COST_EXPLORER_MONTHS - 1 months before today's. */
export function earliestCostDay(today: string): string {
  const months = Number(today.slice(0, 4)) * 12 + Number(today.slice(5, 7)) - 1 - (COST_EXPLORER_MONTHS - 1);
  return `${String(Math.floor(months / 12)).padStart(4, "0")}-${String((months % 12) + 1).padStart(2, "0")}-01`;
}

/**
 * The days a manual sync covers: both inclusive, `to` no later than today (UTC), `from` no earlier than Cost
 * Explorer keeps, at most MAX_SYNC_DAYS. A range AWS would refuse is the caller's 400, checked before any call,
 * so it never marks the connection FAILED.
 */
export function syncRange(today: string, input: { from?: string; to?: string }): { from: string; to: string } {
  for (const field of ["from", "to"] as const) {
    const day = input[field];
    if (day === undefined) continue;
    if (!isRealDay(day)) throw fieldError(`body.${field}`, "a date YYYY-MM-DD");
    const outOfBounds = dayBoundsProblem(day);
    if (outOfBounds) throw fieldError(`body.${field}`, outOfBounds);
  }
  const to = input.to ?? today;
  if (to > today) throw fieldError("body.to", "AWS has no costs for future days: at most today (UTC)");
  const from = input.from ?? addDays(to, -30);
  if (from > to) throw fieldError("body.from", "must not be after `to`");
  const earliest = earliestCostDay(today);
  if (from < earliest)
    throw fieldError("body.from", `Cost Explorer keeps ${COST_EXPLORER_MONTHS} months of costs: on or after ${earliest}`);
  if (addDays(from, MAX_SYNC_DAYS - 1) < to) throw fieldError("body.from", `one sync covers at most ${MAX_SYNC_DAYS} days`);
  return { from, to };
}

/** AWS's decimal dollars ("12.3456789012", "-0.01") → cents, rounded half-even; null when unreadable. */
export function usdToCents(amount: string): number | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!m) return null;
  const fraction = m[3] ?? "";
  const scaled = BigInt(`${m[2]}${fraction}`);
  const scale = 10n ** BigInt(fraction.length);
  let cents = (scaled * 100n) / scale;
  const rest = (scaled * 100n) % scale;
  if (rest * 2n > scale || (rest * 2n === scale && cents % 2n === 1n)) cents += 1n;
  const value = Number(cents);
  if (!Number.isSafeInteger(value)) return null;
  return m[1] === "-" ? -value : value;
}

const refOf = (connectionId: string, day: string, service: string) => `aws:${connectionId}:${day}:${service}`;

/** Every page of the range's costs: cents per `day|service` (`end` exclusive), and how many pages it took. */
async function fetchCosts(deps: Deps, row: AwsConnectionRow, from: string, to: string) {
  const creds = await connectionCredentials(deps, row);
  const costs = new Map<string, { day: string; service: string; cents: number }>();
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await getCostAndUsagePage(deps.env, creds, from, addDays(to, 1), token);
    pages++;
    for (const period of page.ResultsByTime ?? []) {
      const day = period.TimePeriod?.Start;
      if (!isRealDay(day) || day < from || day > to) continue;
      for (const group of period.Groups ?? []) {
        const service = group.Keys?.[0]?.trim();
        const amount = group.Metrics?.UnblendedCost?.Amount;
        if (!service || typeof amount !== "string") continue;
        const cents = usdToCents(amount);
        if (cents === null) continue;
        const key = `${day}|${service}`;
        costs.set(key, { day, service, cents: (costs.get(key)?.cents ?? 0) + cents });
      }
    }
    token = page.NextPageToken || undefined;
  } while (token && pages < MAX_PAGES);
  return { costs, pages };
}

const factsOf = (e: Pick<ExpenseRow, "amountBrlCents" | "incurredOn" | "status" | "source" | "costCategoryId">): ExpenseFacts => ({
  amountBrlCents: e.amountBrlCents,
  incurredOn: e.incurredOn,
  status: e.status,
  source: e.source,
  costCategoryId: e.costCategoryId,
});

/** The row, as last read, is still there unchanged (so the write's rollup is the right one). */
const unchangedSince = (e: ExpenseRow) =>
  and(
    eq(expenses.id, e.id),
    eq(expenses.updatedAt, e.updatedAt),
    eq(expenses.amountCents, e.amountCents),
    eq(expenses.amountBrlCents, e.amountBrlCents),
    eq(expenses.costCategoryId, e.costCategoryId),
    eq(expenses.status, e.status),
  );

/**
 * Imports the range's costs into expenses (create / correct / delete), and marks the connection
 * ACTIVE with `lastSyncedAt` and `syncedThrough`. Any failure (credentials, AWS, a malformed answer)
 * marks it FAILED with `lastError` instead of throwing.
 */
export async function importCosts(deps: Deps, row: AwsConnectionRow, range: { from: string; to: string }) {
  const tally = { created: 0, updated: 0, deleted: 0, unchanged: 0 };
  let fetched: Awaited<ReturnType<typeof fetchCosts>>;
  try {
    fetched = await fetchCosts(deps, row, range.from, range.to);
  } catch (err) {
    const failed = await recordFailure(deps, row, err);
    return { object: "aws_sync" as const, ok: false, ...range, pages: 0, ...tally, connection: presentAwsConnection(failed) };
  }
  const tenant = tenantOf(row);
  const prefix = `aws:${row.id}:`;
  const existing = await deps.db
    .select()
    .from(expenses)
    .where(
      and(
        eq(expenses.workspaceId, row.workspaceId),
        gte(expenses.sourceRef, prefix),
        lt(expenses.sourceRef, `aws:${row.id};`),
        gte(expenses.incurredOn, range.from),
        lte(expenses.incurredOn, range.to),
      ),
    )
    .all();
  const byRef = new Map(existing.map((e) => [e.sourceRef ?? "", e]));
  const now = deps.now().toISOString();
  const groups: BatchItem<"sqlite">[][] = [];

  for (const { day, service, cents } of fetched.costs.values()) {
    const ref = refOf(row.id, day, service);
    const before = byRef.get(ref);
    byRef.delete(ref);
    if (cents <= 0) {
      if (before) {
        groups.push([
          deps.db.delete(expenses).where(unchangedSince(before)),
          ...rollupIfChanged(deps.db, tenant, expenseDeltas(factsOf(before), null)),
        ]);
        tally.deleted++;
      }
      continue;
    }
    const amountBrlCents = toBrlCents(cents, row.exchangeRateMicros);
    if (amountBrlCents === null)
      throw new ApiError(
        "LIMIT_EXCEEDED",
        `AWS cost of ${service} converts to more than ${formatMoney(MAX_MONEY_CENTS)} BRL, past the bound on every amount.`,
        {
          service,
          limit: formatMoney(MAX_MONEY_CENTS),
        },
      );
    if (!before) {
      const created: ExpenseRow = {
        id: newId(),
        ...tenant,
        description: `AWS: ${service}`.slice(0, 500),
        amountCents: cents,
        currency: "USD",
        exchangeRateMicros: row.exchangeRateMicros,
        amountBrlCents,
        incurredOn: day,
        dueDate: null,
        paidAt: `${day}T00:00:00.000Z`,
        status: "PAID",
        costCategoryId: row.costCategoryId,
        supplierId: null,
        planId: null,
        customerId: null,
        recurrence: "NONE",
        recurrenceEndsOn: null,
        recurrenceParentId: null,
        source: "AWS",
        sourceRef: ref,
        createdAt: now,
        updatedAt: now,
      };
      groups.push([
        deps.db.insert(expenses).values(created).onConflictDoNothing(),
        ...rollupIfChanged(deps.db, tenant, expenseDeltas(null, factsOf(created))),
      ]);
      tally.created++;
    } else if (
      before.amountCents !== cents ||
      before.amountBrlCents !== amountBrlCents ||
      before.exchangeRateMicros !== row.exchangeRateMicros
    ) {
      // The merchant's category, allocation and status stay; the amount and rate are AWS's and the connection's.
      const after = { ...before, amountCents: cents, amountBrlCents, exchangeRateMicros: row.exchangeRateMicros };
      groups.push([
        deps.db
          .update(expenses)
          .set({ amountCents: cents, amountBrlCents, exchangeRateMicros: row.exchangeRateMicros, updatedAt: now })
          .where(unchangedSince(before)),
        ...rollupIfChanged(deps.db, tenant, expenseDeltas(factsOf(before), factsOf(after))),
      ]);
      tally.updated++;
    } else tally.unchanged++;
  }
  // Imported before, no longer in AWS's answer for the range: AWS corrected it away.
  for (const gone of byRef.values()) {
    groups.push([
      deps.db.delete(expenses).where(unchangedSince(gone)),
      ...rollupIfChanged(deps.db, tenant, expenseDeltas(factsOf(gone), null)),
    ]);
    tally.deleted++;
  }

  const syncedThrough = row.syncedThrough && row.syncedThrough > range.to ? row.syncedThrough : range.to;
  const done = { status: "ACTIVE" as const, lastSyncedAt: now, lastError: null, syncedThrough, updatedAt: now };
  const finish = deps.db.update(awsConnections).set(done).where(eq(awsConnections.id, row.id));
  try {
    const batches: BatchItem<"sqlite">[][] = [[]];
    for (const group of groups) {
      const current = batches[batches.length - 1] ?? [];
      if (current.length + group.length > BATCH_STATEMENTS) batches.push([...group]);
      else current.push(...group);
    }
    batches[batches.length - 1]?.push(finish);
    for (const batch of batches) {
      const [first, ...rest] = batch;
      if (first) await deps.db.batch([first, ...rest]);
    }
  } catch (err) {
    const failed = await recordFailure(deps, row, err);
    return { object: "aws_sync" as const, ok: false, ...range, pages: fetched.pages, ...tally, connection: presentAwsConnection(failed) };
  }
  return {
    object: "aws_sync" as const,
    ok: true,
    ...range,
    pages: fetched.pages,
    ...tally,
    connection: presentAwsConnection({ ...row, ...done }),
  };
}

const todayOf = (deps: Deps) => deps.now().toISOString().slice(0, 10);

/** POST /aws-connections/{id}/sync: any status but DISABLED (a successful sync makes it ACTIVE). */
export async function syncAwsConnection(deps: Deps, principal: Principal, id: string, input: z.infer<typeof SyncBody>) {
  requirePermission(principal, "finance.manage");
  const row = await findAwsConnectionRow(deps, tenantOf(principal), id);
  const range = syncRange(todayOf(deps), input);
  if (row.status === "DISABLED")
    throw new ApiError("INVALID_STATE", "This connection is disabled; enable it (PATCH disabled: false) first.", { status: row.status });
  await deps.beforeSideEffect?.();
  return importCosts(deps, row, range);
}

/** Connections the daily sweep takes per run (the cron fires each minute). */
const SWEEP_BATCH = 2;

/**
 * The daily sync: ACTIVE connections not synced for 24 h, oldest first, from RESYNC_DAYS before
 * `syncedThrough` (or the last 30 days) through today. Failures mark the connection FAILED.
 */
export async function syncDueAwsConnections(deps: Deps): Promise<number> {
  const now = deps.now();
  const dayAgo = new Date(now.getTime() - 24 * 3600_000).toISOString();
  const due = await deps.db
    .select()
    .from(awsConnections)
    .where(and(eq(awsConnections.status, "ACTIVE"), or(isNull(awsConnections.lastSyncedAt), lt(awsConnections.lastSyncedAt, dayAgo))))
    .orderBy(asc(awsConnections.lastSyncedAt))
    .limit(SWEEP_BATCH)
    .all();
  const today = todayOf(deps);
  let synced = 0;
  for (const row of due) {
    const earliest = addDays(today, -(MAX_SYNC_DAYS - 1));
    const resume = row.syncedThrough ? addDays(row.syncedThrough, -RESYNC_DAYS) : addDays(today, -30);
    const result = await importCosts(deps, row, { from: resume < earliest ? earliest : resume, to: today });
    if (result.ok) synced++;
  }
  return synced;
}
