// Cron sweepers that make "nothing lost" true: events whose enqueue was lost are re-enqueued, and
// deliveries whose next attempt is overdue (a lost alarm, a failed hand-off) wake their EndpointDO.
import { and, asc, inArray, isNotNull, isNull, lte } from "drizzle-orm";
import { LIMITS } from "../config";
import type { Deps } from "../deps";
import { events, webhookDeliveries } from "../db/schema";
import type { EventMessage } from "./outbox";
import { endpointStub } from "./endpoint-stub";

const SWEEP_BATCH = 500;
const QUEUE_SEND_BATCH = 100;

const graceCutoff = (deps: Deps) => new Date(deps.now().getTime() - LIMITS.webhookSweepGraceSeconds * 1000).toISOString();

/** Re-enqueue events not fanned out within the grace period. Returns how many were sent. */
export async function sweepUnfannedEvents(deps: Deps): Promise<number> {
  const stale = await deps.db
    .select({ id: events.id })
    .from(events)
    .where(and(isNull(events.fannedOutAt), lte(events.createdAt, graceCutoff(deps))))
    .orderBy(asc(events.createdAt))
    .limit(SWEEP_BATCH);
  for (let i = 0; i < stale.length; i += QUEUE_SEND_BATCH) {
    const chunk = stale.slice(i, i + QUEUE_SEND_BATCH);
    await deps.env.EVENTS_QUEUE.sendBatch(
      chunk.map((e) => ({ body: { eventId: e.id } satisfies EventMessage, contentType: "json" as const })),
    );
  }
  return stale.length;
}

/** Wake the EndpointDO of every endpoint with an overdue open delivery. Returns how many endpoints. */
export async function sweepOverdueDeliveries(deps: Deps): Promise<number> {
  const overdue = await deps.db
    .selectDistinct({ endpointId: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.status, ["pending", "retrying"]),
        isNotNull(webhookDeliveries.nextAttemptAt),
        lte(webhookDeliveries.nextAttemptAt, graceCutoff(deps)),
      ),
    )
    .limit(SWEEP_BATCH);
  await Promise.all(overdue.map(({ endpointId }) => endpointStub(deps.env, endpointId).wake(endpointId)));
  return overdue.length;
}
