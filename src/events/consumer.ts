// The events queue consumer: each `{ eventId }` message fans out into one delivery per matching enabled
// endpoint (unique per endpoint+event, so a redelivered message adds nothing), marks the event fanned
// out, and hands the new deliveries to their endpoints' Durable Objects for the first attempt.
// Messages are acked one by one, so a failure mid-batch retries only the messages not yet done.
import { and, eq, isNull } from "drizzle-orm";
import { LIMITS, type Env } from "../config";
import { backgroundDeps, type Deps } from "../deps";
import { newId } from "../lib/ids";
import { events, webhookDeliveries, webhookEndpoints } from "../db/schema";
import type { EventMessage } from "./outbox";
import { inTenant } from "../db/tenant-scope";
import { endpointStub } from "./endpoint-stub";

/** Does an endpoint's subscription (`*`, `upstream.*`, exact kinds) cover this event kind? */
export function endpointWants(eventKinds: readonly string[], type: string): boolean {
  return eventKinds.some((k) => k === "*" || k === type || (k === "upstream.*" && type.startsWith("upstream.")));
}

function isEventMessage(body: unknown): body is EventMessage {
  return typeof body === "object" && body !== null && typeof (body as EventMessage).eventId === "string";
}

/** Fan out one event; returns the open first-attempt deliveries grouped by endpoint. */
export async function fanOutEvent(deps: Deps, eventId: string): Promise<Map<string, string[]>> {
  const byEndpoint = new Map<string, string[]>();
  const event = await deps.db.select().from(events).where(eq(events.id, eventId)).get();
  if (!event) return byEndpoint;
  const now = deps.now().toISOString();
  // The first attempt is the consumer's hand-off; the alarm (and the sweeper) take it up only if
  // that hand-off is lost, so in-flight first attempts are never sent twice by the alarm.
  const handOffExpires = new Date(deps.now().getTime() + LIMITS.webhookHandOffLeaseSeconds * 1000).toISOString();
  if (event.fannedOutAt === null) {
    const endpoints = await deps.db
      .select({ id: webhookEndpoints.id, eventKinds: webhookEndpoints.eventKinds })
      .from(webhookEndpoints)
      .where(and(inTenant(webhookEndpoints, event), eq(webhookEndpoints.enabled, true)));
    const inserts = endpoints
      .filter((e) => endpointWants(e.eventKinds, event.type))
      .map((e) =>
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
    const markFannedOut = deps.db
      .update(events)
      .set({ fannedOutAt: now })
      .where(and(eq(events.id, event.id), isNull(events.fannedOutAt)));
    await deps.db.batch([markFannedOut, ...inserts]);
  }
  // Also picks up deliveries of an earlier run whose hand-off never happened.
  const open = await deps.db
    .select({ id: webhookDeliveries.id, endpointId: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .where(
      and(eq(webhookDeliveries.eventId, event.id), eq(webhookDeliveries.status, "pending"), eq(webhookDeliveries.scheduledAttempts, 0)),
    );
  for (const d of open) byEndpoint.set(d.endpointId, [...(byEndpoint.get(d.endpointId) ?? []), d.id]);
  return byEndpoint;
}

export async function handleEventMessage(deps: Deps, body: unknown): Promise<void> {
  if (!isEventMessage(body)) {
    console.error(
      JSON.stringify({ level: "error", msg: "dropping malformed events-queue message", body: String(JSON.stringify(body)).slice(0, 200) }),
    );
    return;
  }
  const byEndpoint = await fanOutEvent(deps, body.eventId);
  await Promise.all([...byEndpoint].map(([endpointId, ids]) => endpointStub(deps.env, endpointId).deliverNow(endpointId, ids)));
}

export async function consumeEventBatch(batch: MessageBatch<unknown>, env: Env, ctx?: ExecutionContext): Promise<void> {
  const deps = backgroundDeps(env, ctx ? (p) => ctx.waitUntil(p) : undefined);
  await Promise.all(
    batch.messages.map(async (msg) => {
      try {
        await handleEventMessage(deps, msg.body);
        msg.ack();
      } catch (err) {
        console.error(
          JSON.stringify({
            level: "error",
            msg: "event fan-out failed; message will be retried",
            messageId: msg.id,
            attempts: msg.attempts,
            error: String(err),
          }),
        );
        msg.retry({ delaySeconds: Math.min(60, 2 ** msg.attempts) });
      }
    }),
  );
}
