// Writing events: `recordEvent` gives the insert to put in the same D1 batch as the state change it
// describes; `dispatchEvents` delivers them after the batch commits (the queue and the sweeper are the
// safety nets), so nothing is dropped.
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Deps } from "../deps";
import { newId } from "../lib/ids";
import { nextTurn } from "../lib/next-turn";
import { events, webhookEndpoints } from "../db/schema";
import { insertIfChanged } from "../db/guarded-insert";
import type { EventKind } from "./kinds";
import type { Tenant } from "../lib/tenant";
import { eventRollups, type MetricFacts } from "./metric-rollups";
import { deliverEvents } from "./fan-out";
import { logLine, summarizeError } from "../lib/log";
import { LIMITS } from "../config";

export interface RecordedEvent {
  id: string;
  type: EventKind;
  createdAt: string;
}

/** The message the events queue carries: just the id; the consumer reads the row. */
export interface EventMessage {
  eventId: string;
}

/** A new event's row and its id, for a statement built elsewhere (a prepared insert); `recordEvent…` build theirs. */
export function eventRow(deps: Deps, tenant: Tenant, type: EventKind, data: Record<string, unknown>) {
  const event: RecordedEvent = { id: newId(), type, createdAt: deps.now().toISOString() };
  const row: typeof events.$inferInsert = {
    id: event.id,
    organizationId: tenant.organizationId,
    workspaceId: tenant.workspaceId,
    type,
    data,
    createdAt: event.createdAt,
    fannedOutAt: null,
  };
  return { event, row };
}

/**
 * The `fanned_out_at` an event is written with: its own `createdAt` when its workspace has no enabled
 * endpoint at that moment (there is nobody to deliver to, so it is fanned out at birth and its committer
 * need not fan it out after the response), NULL otherwise (fan-out to come). Decided in the insert itself,
 * so an endpoint enabled a moment earlier is always seen; one enabled after the insert is not owed the
 * event, as with fan-out. An `INSERT … RETURNING fanned_out_at` tells the committer which case it was
 * (`needsFanOut`); fan-out and the sweeper only ever take events whose `fanned_out_at` is NULL.
 */
export function fannedOutAtBirth(organizationId: SQL | string, workspaceId: SQL | string, createdAt: SQL | string): SQL {
  return sql`CASE WHEN EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${and(
    eq(webhookEndpoints.organizationId, organizationId),
    eq(webhookEndpoints.workspaceId, workspaceId),
    eq(webhookEndpoints.enabled, true),
  )}) THEN NULL ELSE ${createdAt} END`;
}

/** From a `RETURNING fanned_out_at` row of an event insert: whether the event still has to be fanned out. */
export const needsFanOut = (returned: Record<string, unknown> | undefined): boolean =>
  returned !== undefined && returned[events.fannedOutAt.name] === null;

/**
 * `facts` (the record before and after) let the event move the daily metrics: `rollups` are the upserts
 * to put in the same batch, anywhere after `statement` (they apply only if the event row was written).
 */
export function recordEvent(deps: Deps, tenant: Tenant, type: EventKind, data: Record<string, unknown>, facts?: MetricFacts) {
  const { event, row } = eventRow(deps, tenant, type, data);
  const rollups = eventRollups(deps.db, tenant, event.id, facts);
  return { event, statement: deps.db.insert(events).values(row), rollups };
}

/**
 * The same event, written only if the statement just before it in the batch changed a row. Pairing a
 * guarded UPDATE (`… WHERE status IN (…)`) with it makes "state changed" and "event recorded" one
 * atomic fact, so a webhook that repeats what Ponte already applied emits nothing.
 */
export function recordEventIfChanged(deps: Deps, tenant: Tenant, type: EventKind, data: Record<string, unknown>, facts?: MetricFacts) {
  const { event, row } = eventRow(deps, tenant, type, data);
  const rollups = eventRollups(deps.db, tenant, event.id, facts);
  return { event, row, statement: insertIfChanged(deps.db, events, row), rollups };
}

/**
 * Delivers committed events off the response path: the committing request fans them out and hands them
 * to their endpoints itself (its waitUntil), so a single event reaches its receiver in one hop instead
 * of waiting for a queue batch. If that hand-off fails, the events go to the queue; if the isolate dies
 * first, the sweeper re-enqueues events never fanned out. Either way nothing is lost, and fan-out adds
 * a delivery only once.
 */
export function dispatchEvents(deps: Deps, recorded: readonly RecordedEvent[]): void {
  if (recorded.length === 0) return;
  const ids = recorded.map((e) => e.id);
  deps.waitUntil(
    nextTurn()
      .then(() => deliverEvents(deps, ids))
      .catch((handOffError: unknown) => {
        const queue = deps.env.EVENTS_QUEUE;
        const messages = ids.map((eventId) => ({ body: { eventId } satisfies EventMessage, contentType: "json" as const }));
        return queue.sendBatch(messages).catch((err: unknown) => {
          // The sweeper re-enqueues events whose fan-out never happened; log and move on.
          logLine("warn", "event hand-off and enqueue failed; sweeper will retry", {
            events: ids,
            error: summarizeError(err),
            handOffError: summarizeError(handOffError),
          });
        });
      }),
  );
}

/**
 * The outbox stays in D1 (an event commits with the records it describes) but not for ever: events fanned
 * out more than LIMITS.outboxRetentionDays ago, none of whose deliveries is still pending or retrying, go —
 * at most LIMITS.retentionBatchRows per run, oldest first. Returns how many went.
 */
export async function pruneDeliveredEvents(deps: Deps): Promise<number> {
  const cutoff = new Date(deps.now().getTime() - LIMITS.outboxRetentionDays * 24 * 60 * 60 * 1000).toISOString();
  const result = await deps.env.DB.prepare(
    `DELETE FROM events WHERE id IN (
       SELECT e.id FROM events e
       WHERE e.fanned_out_at <= ?1
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status IN ('pending', 'retrying'))
       ORDER BY e.fanned_out_at LIMIT ?2)`,
  )
    .bind(cutoff, LIMITS.retentionBatchRows)
    .run();
  return result.meta.changes ?? 0;
}
