// Fan-out: an event becomes one delivery per matching enabled endpoint (unique per endpoint + event,
// so doing it twice adds nothing), the event is marked fanned out, and the new deliveries go to their
// endpoints' Durable Objects for the first attempt. Several events at once cost one D1 round trip whatever
// their number (one batch of three statements, the events as one JSON parameter, their SQL written once),
// and each endpoint is then called once with all its deliveries.
import { LIMITS } from "../config";
import type { Deps } from "../deps";
import { newId } from "../lib/ids";
import { endpointStub } from "./endpoint-stub";

/**
 * New pending deliveries, one per (fresh event, matching enabled endpoint of its workspace), in one statement:
 * the events arrive as one JSON parameter of `{e: event id, b: a new id}`, the endpoints' subscriptions
 * (`*`, exact kinds, `upstream.*`) are matched in SQL, and a delivery's id is the event's new id with its last
 * 16 bits replaced by the endpoint's rank among the event's endpoints (still a UUIDv7 of this moment, distinct
 * per endpoint; a workspace has at most 16 endpoints). The (endpoint, event) unique index makes a second
 * fan-out of the same event add nothing. The first attempt is the hand-off: `next_attempt_at` is its lease,
 * after which the alarm or the sweeper takes it up.
 */
const INSERT_DELIVERIES = `WITH fresh AS (
    SELECT v.id, v.organization_id, v.workspace_id, v.type, j.value ->> 'b' AS base
    FROM json_each(?1) AS j JOIN events v ON v.id = j.value ->> 'e'
    WHERE +v.fanned_out_at IS NULL
  ), pairs AS (
    SELECT f.id AS event_id, f.organization_id, f.workspace_id, f.type, f.base, e.id AS endpoint_id,
      row_number() OVER (PARTITION BY f.id ORDER BY e.id) AS rank
    FROM fresh f JOIN webhook_endpoints e
      ON e.organization_id = f.organization_id AND e.workspace_id = f.workspace_id AND e.enabled = 1
    WHERE EXISTS (SELECT 1 FROM json_each(e.event_kinds) AS k
      WHERE k.value = '*' OR k.value = f.type OR (k.value = 'upstream.*' AND substr(f.type, 1, 9) = 'upstream.'))
  )
  INSERT INTO webhook_deliveries
    (id, organization_id, workspace_id, endpoint_id, event_id, event_type, status, attempt_count, scheduled_attempts,
     next_attempt_at, created_at, updated_at)
  SELECT substr(base, 1, 32) || printf('%04x', rank), organization_id, workspace_id, endpoint_id, event_id, type,
    'pending', 0, 0, ?2, ?3, ?3
  FROM pairs WHERE true
  ON CONFLICT DO NOTHING`;

/**
 * Marks the events fanned out (unless an earlier run did), each by its primary key: `+` keeps the planner
 * off the fanned_out_at index, which would walk every event not yet fanned out (a backlog).
 */
const MARK_FANNED_OUT = `UPDATE events SET fanned_out_at = ?2 FROM json_each(?1) AS j
  WHERE events.id = j.value ->> 'e' AND +events.fanned_out_at IS NULL`;

/** The open first attempts of the events: this run's, and any an earlier run left without a hand-off. */
const OPEN_FIRST_ATTEMPTS = `SELECT d.id, d.endpoint_id AS endpointId
  FROM json_each(?1) AS j JOIN webhook_deliveries d ON d.event_id = j.value ->> 'e'
  WHERE d.status = 'pending' AND d.scheduled_attempts = 0`;

/**
 * Fan out events in one D1 round trip whatever their number: one batch inserts the deliveries, marks the
 * events fanned out (in that order, so the insert sees which were not yet) and reads back the open first
 * attempts, returned grouped by endpoint.
 */
export async function fanOutEvents(deps: Deps, eventIds: readonly string[]): Promise<Map<string, string[]>> {
  const byEndpoint = new Map<string, string[]>();
  const ids = [...new Set(eventIds)];
  if (ids.length === 0) return byEndpoint;
  const d1 = deps.db.$client;
  const now = deps.now();
  const at = now.toISOString();
  // The first attempt is this hand-off; the alarm (and the sweeper) take it up only if the hand-off
  // is lost, so in-flight first attempts are never sent twice by the alarm.
  const handOffExpires = new Date(now.getTime() + LIMITS.webhookHandOffLeaseSeconds * 1000).toISOString();
  const events = JSON.stringify(ids.map((e) => ({ e, b: newId() })));
  const [, , open] = await d1.batch<{ id: string; endpointId: string }>([
    d1.prepare(INSERT_DELIVERIES).bind(events, handOffExpires, at),
    d1.prepare(MARK_FANNED_OUT).bind(events, at),
    d1.prepare(OPEN_FIRST_ATTEMPTS).bind(events),
  ]);
  for (const d of open?.results ?? []) {
    const list = byEndpoint.get(d.endpointId);
    if (list) list.push(d.id);
    else byEndpoint.set(d.endpointId, [d.id]);
  }
  return byEndpoint;
}

/** Fan out, then hand each endpoint its deliveries (one Durable Object call per endpoint). */
export async function deliverEvents(deps: Deps, eventIds: readonly string[]): Promise<void> {
  const byEndpoint = await fanOutEvents(deps, eventIds);
  await Promise.all([...byEndpoint].map(([endpointId, ids]) => endpointStub(deps.env, endpointId).deliverNow(endpointId, ids)));
}
