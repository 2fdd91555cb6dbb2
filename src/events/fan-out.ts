// Fan-out: an event becomes one delivery per matching enabled endpoint (unique per endpoint + event,
// so doing it twice adds nothing), the event is marked fanned out, and the new deliveries go to their
// endpoints' Durable Objects for the first attempt. Several events at once cost three D1 round trips
// (events, endpoints, one write batch that also reads back the open first attempts), whatever their
// number; each endpoint is then called once with all its deliveries.
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { LIMITS } from "../config";
import type { Deps } from "../deps";
import { newId } from "../lib/ids";
import { inListStatements, selectInList } from "../db/in-list";
import { events, webhookDeliveries, webhookEndpoints } from "../db/schema";
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
  const loaded = await selectInList(deps.db, ids, (part) => deps.db.select().from(events).where(inArray(events.id, part)));
  if (loaded.length === 0) return byEndpoint;
  const now = deps.now().toISOString();
  // The first attempt is this hand-off; the alarm (and the sweeper) take it up only if the hand-off
  // is lost, so in-flight first attempts are never sent twice by the alarm.
  const handOffExpires = new Date(deps.now().getTime() + LIMITS.webhookHandOffLeaseSeconds * 1000).toISOString();
  const fresh = loaded.filter((e) => e.fannedOutAt === null);
  const workspaces = [...new Set(fresh.map((e) => e.workspaceId))];
  const endpoints = await selectInList(deps.db, workspaces, (part) =>
    deps.db
      .select({
        id: webhookEndpoints.id,
        organizationId: webhookEndpoints.organizationId,
        workspaceId: webhookEndpoints.workspaceId,
        eventKinds: webhookEndpoints.eventKinds,
      })
      .from(webhookEndpoints)
      .where(and(inArray(webhookEndpoints.workspaceId, part), eq(webhookEndpoints.enabled, true))),
  );
  const writes: BatchItem<"sqlite">[] = [];
  for (const event of fresh) {
    writes.push(
      deps.db
        .update(events)
        .set({ fannedOutAt: now })
        .where(and(eq(events.id, event.id), isNull(events.fannedOutAt))),
    );
    for (const e of endpoints) {
      if (e.organizationId !== event.organizationId || e.workspaceId !== event.workspaceId || !endpointWants(e.eventKinds, event.type))
        continue;
      writes.push(
        deps.db
          .insert(webhookDeliveries)
          .values({
            id: newId(),
            organizationId: event.organizationId,
            workspaceId: event.workspaceId,
            endpointId: e.id,
            eventId: event.id,
            eventType: event.type,
            status: "pending",
            attemptCount: 0,
            scheduledAttempts: 0,
            nextAttemptAt: handOffExpires,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing(),
      );
    }
  }
  // Also picks up deliveries of an earlier run whose hand-off never happened.
  const openReads = inListStatements(
    loaded.map((e) => e.id),
    (part) =>
      deps.db
        .select({ id: webhookDeliveries.id, endpointId: webhookDeliveries.endpointId })
        .from(webhookDeliveries)
        .where(
          and(
            inArray(webhookDeliveries.eventId, part),
            eq(webhookDeliveries.status, "pending"),
            eq(webhookDeliveries.scheduledAttempts, 0),
          ),
        ),
  );
  const results = await deps.db.batch([...writes, ...openReads] as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  const open = (results.slice(writes.length) as { id: string; endpointId: string }[][]).flat();
  for (const d of open) byEndpoint.set(d.endpointId, [...(byEndpoint.get(d.endpointId) ?? []), d.id]);
  return byEndpoint;
}

/** Fan out, then hand each endpoint its deliveries (one Durable Object call per endpoint). */
export async function deliverEvents(deps: Deps, eventIds: readonly string[]): Promise<void> {
  const byEndpoint = await fanOutEvents(deps, eventIds);
  await Promise.all([...byEndpoint].map(([endpointId, ids]) => endpointStub(deps.env, endpointId).deliverNow(endpointId, ids)));
}
