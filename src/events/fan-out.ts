// Fan-out: an event becomes one delivery per matching enabled endpoint (unique per endpoint + event,
// so doing it twice adds nothing), the event is marked fanned out, and the new deliveries go to their
// endpoints' Durable Objects for the first attempt. Several events at once cost two D1 round trips
// whatever their number (the events with their workspaces' enabled endpoints; one write batch that also
// reads back the open first attempts); the batch's writes are one statement per ROWS_PER_STATEMENT
// rows, not one per row; each endpoint is then called once with all its deliveries.
import { LIMITS } from "../config";
import type { Deps } from "../deps";
import { newId } from "../lib/ids";
import { endpointStub } from "./endpoint-stub";

/** Does an endpoint's subscription (`*`, `upstream.*`, exact kinds) cover this event kind? */
function endpointWants(eventKinds: readonly string[], type: string): boolean {
  return eventKinds.some((k) => k === "*" || k === type || (k === "upstream.*" && type.startsWith("upstream.")));
}

/** Fan out events; returns the open first-attempt deliveries grouped by endpoint. */
export async function fanOutEvents(deps: Deps, eventIds: readonly string[]): Promise<Map<string, string[]>> {
  const byEndpoint = new Map<string, string[]>();
  const ids = [...new Set(eventIds)];
  if (ids.length === 0) return byEndpoint;
  // One round trip reads the events and the enabled endpoints of the workspaces whose events are not fanned out
  // yet (plain D1 statements on the request's session, the ids as one JSON parameter whatever their number).
  const d1 = deps.db.$client;
  const idsJson = JSON.stringify(ids);
  const [eventRead, endpointRead] = await d1.batch([
    d1
      .prepare(
        `SELECT id, organization_id AS organizationId, workspace_id AS workspaceId, type, fanned_out_at AS fannedOutAt
         FROM events WHERE id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(idsJson),
    // By the endpoints' tenant index; `+` keeps the planner on the events' primary key (not the fanned_out_at
    // index, which would walk a backlog).
    d1
      .prepare(
        `SELECT id, organization_id AS organizationId, workspace_id AS workspaceId, event_kinds AS eventKinds
         FROM webhook_endpoints
         WHERE enabled = 1 AND (organization_id, workspace_id) IN (
           SELECT organization_id, workspace_id FROM events WHERE id IN (SELECT value FROM json_each(?1)) AND +fanned_out_at IS NULL)`,
      )
      .bind(idsJson),
  ]);
  const loaded = (eventRead?.results ?? []) as LoadedEvent[];
  if (loaded.length === 0) return byEndpoint;
  const now = deps.now().toISOString();
  // The first attempt is this hand-off; the alarm (and the sweeper) take it up only if the hand-off
  // is lost, so in-flight first attempts are never sent twice by the alarm.
  const handOffExpires = new Date(deps.now().getTime() + LIMITS.webhookHandOffLeaseSeconds * 1000).toISOString();
  const fresh = loaded.filter((e) => e.fannedOutAt === null);
  const endpoints = ((endpointRead?.results ?? []) as EndpointRow[]).map((e) => ({
    ...e,
    eventKinds: JSON.parse(e.eventKinds) as string[],
  }));
  const deliveries: NewDelivery[] = [];
  for (const event of fresh) {
    for (const e of endpoints) {
      if (e.organizationId !== event.organizationId || e.workspaceId !== event.workspaceId || !endpointWants(e.eventKinds, event.type))
        continue;
      deliveries.push({
        id: newId(),
        organizationId: event.organizationId,
        workspaceId: event.workspaceId,
        endpointId: e.id,
        eventId: event.id,
        eventType: event.type,
      });
    }
  }
  // One round trip: the writes, then the open first attempts of every loaded event (this run's and any an
  // earlier run left without a hand-off).
  const writes: D1PreparedStatement[] = [];
  for (let i = 0; i < fresh.length; i += ROWS_PER_STATEMENT)
    writes.push(
      markFannedOut(
        d1,
        fresh.slice(i, i + ROWS_PER_STATEMENT).map((e) => e.id),
        now,
      ),
    );
  for (let i = 0; i < deliveries.length; i += ROWS_PER_STATEMENT)
    writes.push(insertDeliveries(d1, deliveries.slice(i, i + ROWS_PER_STATEMENT), handOffExpires, now));
  const openRead = d1
    .prepare(
      `SELECT id, endpoint_id AS endpointId FROM webhook_deliveries
       WHERE event_id IN (SELECT value FROM json_each(?1)) AND status = 'pending' AND scheduled_attempts = 0`,
    )
    .bind(JSON.stringify(loaded.map((e) => e.id)));
  const results = await d1.batch<{ id: string; endpointId: string }>([...writes, openRead]);
  for (const d of results[writes.length]?.results ?? []) byEndpoint.set(d.endpointId, [...(byEndpoint.get(d.endpointId) ?? []), d.id]);
  return byEndpoint;
}

/** Rows per JSON-array statement (one bound parameter each; a delivery row is ~250 bytes of JSON). */
const ROWS_PER_STATEMENT = 500;

interface LoadedEvent {
  id: string;
  organizationId: string;
  workspaceId: string;
  type: string;
  fannedOutAt: string | null;
}

interface EndpointRow {
  id: string;
  organizationId: string;
  workspaceId: string;
  eventKinds: string;
}

interface NewDelivery {
  id: string;
  organizationId: string;
  workspaceId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
}

/** Marks events fanned out (unless an earlier run did), in one statement. */
function markFannedOut(d1: D1Database | D1DatabaseSession, eventIds: readonly string[], now: string) {
  return (
    d1
      // Each event by its primary key: `+` keeps the planner off the fanned_out_at index, which would walk
      // every event not yet fanned out (a backlog) instead of the few named here.
      .prepare("UPDATE events SET fanned_out_at = ?1 FROM json_each(?2) AS j WHERE events.id = j.value AND +events.fanned_out_at IS NULL")
      .bind(now, JSON.stringify(eventIds))
  );
}

/**
 * New pending deliveries in one statement (their rows as one JSON parameter); the (endpoint, event)
 * unique index makes a second fan-out of the same event add nothing. The first attempt is the hand-off:
 * `next_attempt_at` is its lease, after which the alarm or the sweeper takes it up.
 */
function insertDeliveries(d1: D1Database | D1DatabaseSession, rows: readonly NewDelivery[], handOffExpires: string, now: string) {
  return d1
    .prepare(
      `INSERT INTO webhook_deliveries
         (id, organization_id, workspace_id, endpoint_id, event_id, event_type, status, attempt_count, scheduled_attempts,
          next_attempt_at, created_at, updated_at)
       SELECT r.value ->> 'id', r.value ->> 'organizationId', r.value ->> 'workspaceId', r.value ->> 'endpointId',
         r.value ->> 'eventId', r.value ->> 'eventType', 'pending', 0, 0, ?2, ?3, ?3
       FROM json_each(?1) AS r WHERE true
       ON CONFLICT DO NOTHING`,
    )
    .bind(JSON.stringify(rows), handOffExpires, now);
}

/** Fan out, then hand each endpoint its deliveries (one Durable Object call per endpoint). */
export async function deliverEvents(deps: Deps, eventIds: readonly string[]): Promise<void> {
  const byEndpoint = await fanOutEvents(deps, eventIds);
  await Promise.all([...byEndpoint].map(([endpointId, ids]) => endpointStub(deps.env, endpointId).deliverNow(endpointId, ids)));
}
