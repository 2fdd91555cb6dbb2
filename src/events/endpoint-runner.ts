// What an EndpointDO does (src/events/endpoint-do.ts is the class the runtime instantiates): the
// automatic attempts, the consecutive-failure streak (disabling the endpoint at 15) and the retry
// alarm. Loaded when an object first does something, so the worker's start-up does not evaluate it.
import { and, asc, eq, inArray, isNotNull, lte, min } from "drizzle-orm";
import { LIMITS, type Env } from "../config";
import { backgroundDeps, type Deps } from "../deps";
import { webhookDeliveries, webhookEndpoints } from "../db/schema";
import { runAutomaticAttempts } from "./automatic-run";
import type { Fetcher } from "./deliver";
import type { SendSlots } from "./send-slots";
import { SigningKeys } from "./signing-keys";
import { logLine } from "../lib/log";

const ACTIVE = ["pending", "retrying"] as const;
/** Deliveries attempted per alarm run (the alarm re-arms at once when more are due). */
const DUE_BATCH = 50;

/** One EndpointDO as its runner sees it: its storage, its clock and fetcher, what it has in flight. */
export interface EndpointObject {
  readonly ctx: DurableObjectState;
  readonly env: Env;
  /** Unset: the runtime's fetch (see deliver.ts). */
  readonly fetcher: Fetcher | undefined;
  readonly now: () => Date;
  /** Deliveries this object is attempting right now. */
  readonly inFlight: Set<string>;
  /** The cap on requests in flight to the endpoint, shared by every run this object makes. */
  readonly sends: SendSlots;
  /** What this object last read or wrote of its endpoint id and streak (it is their only writer). */
  readonly kept: KeptState;
}

/**
 * In-memory copies of two storage values (an attempt asks for the streak twice, storage is read once per object),
 * and the endpoint's imported signing keys (kept across runs; signing-keys.ts says when they are stale).
 */
export interface KeptState {
  endpointId?: string | null;
  streak?: number;
  signing?: SigningKeys;
}

function endpointIdOf(o: EndpointObject): string | null {
  if (o.kept.endpointId === undefined) o.kept.endpointId = o.ctx.storage.kv.get<string>("endpointId") ?? null;
  return o.kept.endpointId;
}

function streakOf(o: EndpointObject): number {
  if (o.kept.streak === undefined) o.kept.streak = o.ctx.storage.kv.get<number>("streak") ?? 0;
  return o.kept.streak;
}

/** The endpoint's signing keys this object keeps across its runs. */
function signingKeysOf(o: EndpointObject): SigningKeys {
  if (o.kept.signing === undefined) o.kept.signing = new SigningKeys();
  return o.kept.signing;
}

function setStreak(o: EndpointObject, streak: number): void {
  o.kept.streak = streak;
  o.ctx.storage.kv.put("streak", streak);
}

/** First attempts for freshly fanned-out deliveries (called by the queue consumer). */
export async function deliverNow(o: EndpointObject, endpointId: string, deliveryIds: string[]): Promise<void> {
  remember(o, endpointId);
  // A run that settled every delivery it was handed leaves nothing of its own to schedule: the alarm is left as
  // it is (one D1 read and one alarm write fewer per hand-off). Anything else re-arms from D1.
  if (await runAttempts(o, deliveryIds)) return;
  await rearm(o);
}

/** Re-arm the alarm from D1 (the sweeper's call for overdue deliveries, and after recover). */
export async function wake(o: EndpointObject, endpointId: string): Promise<number | null> {
  remember(o, endpointId);
  return rearm(o);
}

/** The endpoint was re-enabled: the streak starts over. */
export async function resetStreak(o: EndpointObject, endpointId: string): Promise<void> {
  remember(o, endpointId);
  setStreak(o, 0);
  await rearm(o);
}

export async function alarm(o: EndpointObject): Promise<void> {
  const endpointId = endpointIdOf(o);
  if (!endpointId) return;
  // The alarm stands for its scheduled time, even if it runs a little early (or is run by a test).
  const cutoff = new Date(Math.max(o.now().getTime(), o.ctx.storage.kv.get<number>("alarmAt") ?? 0)).toISOString();
  const due = await deps(o)
    .db.select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        inArray(webhookDeliveries.status, ACTIVE),
        isNotNull(webhookDeliveries.nextAttemptAt),
        lte(webhookDeliveries.nextAttemptAt, cutoff),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(DUE_BATCH);
  o.ctx.storage.kv.delete("alarmAt");
  await runAttempts(
    o,
    due.map((d) => d.id),
  );
  await rearm(o);
}

function deps(o: EndpointObject): Deps {
  return { ...backgroundDeps(o.env, (p) => o.ctx.waitUntil(p)), now: () => o.now() };
}

function remember(o: EndpointObject, endpointId: string): void {
  if (endpointIdOf(o) === endpointId) return;
  o.kept.endpointId = endpointId;
  o.ctx.storage.kv.put("endpointId", endpointId);
}

function disabled(o: EndpointObject): boolean {
  return streakOf(o) >= LIMITS.webhookDisableAfterConsecutiveFailures;
}

/**
 * Attempts the deliveries (runAutomaticAttempts reads and writes them a wave at a time). A delivery already
 * being attempted by this object (a hand-off from the request that committed the event racing the queue's
 * or the alarm's) is skipped, so one delivery is never in flight twice; it stays marked until its outcome
 * is written (the run attempting it re-arms for it). Returns true when every delivery this run took was
 * attempted and succeeded, so none of them is left open.
 */
async function runAttempts(o: EndpointObject, deliveryIds: readonly string[]): Promise<boolean> {
  const mine = [...new Set(deliveryIds)].filter((id) => !o.inFlight.has(id));
  if (mine.length === 0) return true;
  if (disabled(o)) return false;
  for (const id of mine) o.inFlight.add(id);
  try {
    const results = await runAutomaticAttempts(deps(o), mine, {
      fetcher: o.fetcher,
      slots: o.sends,
      signing: signingKeysOf(o),
      proceed: () => !disabled(o),
      settled: (result) => recordOutcome(o, result.attempt.succeeded),
    });
    return results.length === mine.length && results.every((r) => r.attempt.succeeded);
  } finally {
    for (const id of mine) o.inFlight.delete(id);
  }
}

/**
 * A success resets the streak; the 15th consecutive failure disables the endpoint. Returns the D1 write when
 * there is one (a success after a success changes nothing: no write, no promise, the common case).
 */
function recordOutcome(o: EndpointObject, succeeded: boolean): Promise<void> | undefined {
  const endpointId = endpointIdOf(o);
  if (!endpointId) return undefined;
  const before = streakOf(o);
  const streak = succeeded ? 0 : before + 1;
  if (streak === before) return undefined;
  setStreak(o, streak);
  return writeStreak(o, endpointId, before, streak);
}

/** The streak's change in D1: the endpoint's counter, or, at the limit, the endpoint disabled and its deliveries failed. */
async function writeStreak(o: EndpointObject, endpointId: string, before: number, streak: number): Promise<void> {
  const { db } = deps(o);
  const now = o.now().toISOString();
  if (streak < LIMITS.webhookDisableAfterConsecutiveFailures) {
    await db.update(webhookEndpoints).set({ consecutiveFailures: streak }).where(eq(webhookEndpoints.id, endpointId));
    return;
  }
  if (before >= LIMITS.webhookDisableAfterConsecutiveFailures) return;
  // No more attempts: open deliveries fail now; `recover` re-queues them once the endpoint is enabled.
  await db.batch([
    db
      .update(webhookEndpoints)
      .set({ consecutiveFailures: streak, enabled: false, disabledReason: "consecutive_failures", disabledAt: now, updatedAt: now })
      .where(eq(webhookEndpoints.id, endpointId)),
    db
      .update(webhookDeliveries)
      .set({ status: "failed", nextAttemptAt: null, updatedAt: now })
      .where(and(eq(webhookDeliveries.endpointId, endpointId), inArray(webhookDeliveries.status, ACTIVE))),
  ]);
  logLine("warn", "webhook endpoint disabled after consecutive failures", { endpointId, streak });
}

/** Alarm at the earliest open delivery's next attempt (never in the past), or none. */
async function rearm(o: EndpointObject): Promise<number | null> {
  const endpointId = endpointIdOf(o);
  if (!endpointId || disabled(o)) {
    await o.ctx.storage.deleteAlarm();
    return null;
  }
  const [row] = await deps(o)
    .db.select({ next: min(webhookDeliveries.nextAttemptAt) })
    .from(webhookDeliveries)
    // Only while the endpoint is enabled, so a disabled one never spins its alarm.
    .innerJoin(webhookEndpoints, and(eq(webhookEndpoints.id, webhookDeliveries.endpointId), eq(webhookEndpoints.enabled, true)))
    .where(and(eq(webhookDeliveries.endpointId, endpointId), inArray(webhookDeliveries.status, ACTIVE)));
  if (!row?.next) {
    await o.ctx.storage.deleteAlarm();
    o.ctx.storage.kv.delete("alarmAt");
    return null;
  }
  const at = Math.max(Date.parse(row.next), o.now().getTime());
  o.ctx.storage.kv.put("alarmAt", at);
  await o.ctx.storage.setAlarm(at);
  return at;
}
