// EndpointDO: one per webhook endpoint. It makes the automatic attempts, keeps the consecutive-failure
// streak (disabling the endpoint at 15), and schedules retries with its alarm. Delivery state lives in
// D1 (next_attempt_at), so a lost alarm is re-armed by the cron sweeper from D1 alone.
import { DurableObject } from "cloudflare:workers";
import { and, asc, eq, inArray, isNotNull, lte, min } from "drizzle-orm";
import { LIMITS, type Env } from "../config";
import { backgroundDeps, type Deps } from "../deps";
import { webhookDeliveries, webhookEndpoints } from "../db/schema";
import { runAutomaticAttempts } from "./attempts";
import { globalFetcher, type Fetcher } from "./deliver";

const ACTIVE = ["pending", "retrying"] as const;
/** Deliveries attempted per alarm run (the alarm re-arms at once when more are due). */
const DUE_BATCH = 50;

export class EndpointDO extends DurableObject<Env> {
  /** Outbound fetch; tests swap it through runInDurableObject. */
  fetcher: Fetcher = globalFetcher;
  /** The clock of every attempt, alarm and streak write; tests swap it through runInDurableObject. */
  now: () => Date = () => new Date();
  /** Deliveries this object is attempting right now. */
  private readonly inFlight = new Set<string>();

  /** First attempts for freshly fanned-out deliveries (called by the queue consumer). */
  async deliverNow(endpointId: string, deliveryIds: string[]): Promise<void> {
    this.remember(endpointId);
    await this.runAttempts(deliveryIds);
    await this.rearm();
  }

  /** Re-arm the alarm from D1 (the sweeper's call for overdue deliveries, and after recover). */
  async wake(endpointId: string): Promise<number | null> {
    this.remember(endpointId);
    return this.rearm();
  }

  /** The endpoint was re-enabled: the streak starts over. */
  async resetStreak(endpointId: string): Promise<void> {
    this.remember(endpointId);
    this.ctx.storage.kv.put("streak", 0);
    await this.rearm();
  }

  async streak(): Promise<number> {
    return this.ctx.storage.kv.get<number>("streak") ?? 0;
  }

  override async alarm(): Promise<void> {
    const endpointId = this.ctx.storage.kv.get<string>("endpointId");
    if (!endpointId) return;
    // The alarm stands for its scheduled time, even if it runs a little early (or is run by a test).
    const cutoff = new Date(Math.max(this.now().getTime(), this.ctx.storage.kv.get<number>("alarmAt") ?? 0)).toISOString();
    const due = await this.deps()
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
    this.ctx.storage.kv.delete("alarmAt");
    await this.runAttempts(due.map((d) => d.id));
    await this.rearm();
  }

  private deps(): Deps {
    return { ...backgroundDeps(this.env, (p) => this.ctx.waitUntil(p)), now: () => this.now() };
  }

  private remember(endpointId: string): void {
    if (this.ctx.storage.kv.get<string>("endpointId") !== endpointId) this.ctx.storage.kv.put("endpointId", endpointId);
  }

  private disabled(): boolean {
    return (this.ctx.storage.kv.get<number>("streak") ?? 0) >= LIMITS.webhookDisableAfterConsecutiveFailures;
  }

  /**
   * Attempts in chunks of DUE_BATCH (one read and one write batch each). A delivery already being
   * attempted by this object (a hand-off from the request that committed the event racing the queue's
   * or the alarm's) is skipped, so one delivery is never in flight twice.
   */
  private async runAttempts(deliveryIds: readonly string[]): Promise<void> {
    const mine = deliveryIds.filter((id) => !this.inFlight.has(id));
    for (const id of mine) this.inFlight.add(id);
    try {
      for (let i = 0; i < mine.length && !this.disabled(); i += DUE_BATCH) {
        await runAutomaticAttempts(this.deps(), mine.slice(i, i + DUE_BATCH), {
          fetcher: this.fetcher,
          proceed: () => !this.disabled(),
          settled: (result) => this.recordOutcome(result.attempt.succeeded),
        });
      }
    } finally {
      for (const id of mine) this.inFlight.delete(id);
    }
  }

  /** A success resets the streak; the 15th consecutive failure disables the endpoint. */
  private async recordOutcome(succeeded: boolean): Promise<void> {
    const endpointId = this.ctx.storage.kv.get<string>("endpointId");
    if (!endpointId) return;
    const before = this.ctx.storage.kv.get<number>("streak") ?? 0;
    const streak = succeeded ? 0 : before + 1;
    this.ctx.storage.kv.put("streak", streak);
    if (streak === before) return;
    const { db } = this.deps();
    const now = this.now().toISOString();
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
    console.warn(JSON.stringify({ level: "warn", msg: "webhook endpoint disabled after consecutive failures", endpointId, streak }));
  }

  /** Alarm at the earliest open delivery's next attempt (never in the past), or none. */
  private async rearm(): Promise<number | null> {
    const endpointId = this.ctx.storage.kv.get<string>("endpointId");
    if (!endpointId || this.disabled()) {
      await this.ctx.storage.deleteAlarm();
      return null;
    }
    const [row] = await this.deps()
      .db.select({ next: min(webhookDeliveries.nextAttemptAt) })
      .from(webhookDeliveries)
      // Only while the endpoint is enabled, so a disabled one never spins its alarm.
      .innerJoin(webhookEndpoints, and(eq(webhookEndpoints.id, webhookDeliveries.endpointId), eq(webhookEndpoints.enabled, true)))
      .where(and(eq(webhookDeliveries.endpointId, endpointId), inArray(webhookDeliveries.status, ACTIVE)));
    if (!row?.next) {
      await this.ctx.storage.deleteAlarm();
      this.ctx.storage.kv.delete("alarmAt");
      return null;
    }
    const at = Math.max(Date.parse(row.next), this.now().getTime());
    this.ctx.storage.kv.put("alarmAt", at);
    await this.ctx.storage.setAlarm(at);
    return at;
  }
}
