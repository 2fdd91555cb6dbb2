// Writing events: `recordEvent` gives the insert to put in the same D1 batch as the state change it
// describes; `dispatchEvents` enqueues them after the batch commits. An enqueue that is lost is
// recovered by the sweeper (events whose fan-out never happened), so nothing is dropped.
import type { Deps } from "../deps";
import { newId } from "../lib/ids";
import { events } from "../db/schema";
import { insertIfChanged } from "../db/guarded-insert";
import type { EventKind } from "./kinds";
import type { Tenant } from "../lib/tenant";
import { eventRollups, type MetricFacts } from "./metric-rollups";

export interface RecordedEvent {
  id: string;
  type: EventKind;
  createdAt: string;
}

/** The message the events queue carries: just the id; the consumer reads the row. */
export interface EventMessage {
  eventId: string;
}

function eventRow(deps: Deps, tenant: Tenant, type: EventKind, data: Record<string, unknown>) {
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
 * `facts` (the record before and after) let the event move the daily metrics: `rollups` are the upserts
 * to put in the same batch, anywhere after `statement` (they apply only if the event row was written).
 */
export function recordEvent(deps: Deps, tenant: Tenant, type: EventKind, data: Record<string, unknown>, facts?: MetricFacts) {
  const { event, row } = eventRow(deps, tenant, type, data);
  const rollups = eventRollups(deps.db, tenant, event.id, type, event.createdAt, facts);
  return { event, statement: deps.db.insert(events).values(row), rollups };
}

/**
 * The same event, written only if the statement just before it in the batch changed a row. Pairing a
 * guarded UPDATE (`… WHERE status IN (…)`) with it makes "state changed" and "event recorded" one
 * atomic fact, so a webhook that repeats what Ponte already applied emits nothing.
 */
export function recordEventIfChanged(deps: Deps, tenant: Tenant, type: EventKind, data: Record<string, unknown>, facts?: MetricFacts) {
  const { event, row } = eventRow(deps, tenant, type, data);
  const rollups = eventRollups(deps.db, tenant, event.id, type, event.createdAt, facts);
  return { event, statement: insertIfChanged(deps.db, events, row), rollups };
}

/** Enqueue committed events for delivery, off the response path. */
export function dispatchEvents(deps: Deps, recorded: readonly RecordedEvent[]): void {
  const queue = deps.env.EVENTS_QUEUE;
  if (!queue || recorded.length === 0) return;
  const messages = recorded.map((e) => ({ body: { eventId: e.id } satisfies EventMessage, contentType: "json" as const }));
  deps.waitUntil(
    queue.sendBatch(messages).catch((err: unknown) => {
      // The sweeper re-enqueues events whose fan-out never happened; log and move on.
      console.error(
        JSON.stringify({
          level: "warn",
          msg: "event enqueue failed; sweeper will retry",
          events: recorded.map((e) => e.id),
          error: String(err),
        }),
      );
    }),
  );
}
