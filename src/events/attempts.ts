// Making and recording one attempt of a stored delivery: load delivery + endpoint + event, sign, POST,
// then write the attempt row and the delivery's new state in one batch. The streak lives in EndpointDO.
import { and, eq, inArray } from "drizzle-orm";
import { openSecret } from "../lib/secret-box";
import type { Deps } from "../deps";
import { newId } from "../lib/ids";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../db/schema";
import { attemptHttpDelivery, type AttemptOutcome, type Fetcher } from "./deliver";
import { deliveryHeaders, envelopeBody } from "./event-body";
import { nextAttemptAt } from "./retry-schedule";

export type AttemptTrigger = "automatic" | "manual" | "test";
type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export interface RecordedAttempt extends AttemptOutcome {
  attemptId: string;
  deliveryId: string;
  attemptedAt: string;
  trigger: AttemptTrigger;
}

export interface AttemptResult {
  attempt: RecordedAttempt;
  /** True when this automatic attempt was the delivery's last (it is now `failed`). */
  exhausted: boolean;
}

/** The secrets that sign now: the current one, plus the previous one until its overlap ends. */
export async function signingSecrets(deps: Deps, endpoint: EndpointRow): Promise<string[]> {
  const key = deps.env.SECRETS_ENCRYPTION_KEY;
  const secrets = [await openSecret(key, endpoint.secretSealed, endpoint.id)];
  const overlapLasts = endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > deps.now().toISOString();
  if (endpoint.previousSecretSealed && overlapLasts) secrets.push(await openSecret(key, endpoint.previousSecretSealed, endpoint.id));
  return secrets;
}

async function loadDelivery(deps: Deps, deliveryId: string) {
  return deps.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: events })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, deliveryId))
    .get();
}

/** Sign and POST once; nothing is written. */
async function send(
  deps: Deps,
  endpoint: EndpointRow,
  delivery: DeliveryRow,
  event: typeof events.$inferSelect,
  fetcher: Fetcher | undefined,
) {
  const body = envelopeBody({ id: event.id, type: event.type, createdAt: event.createdAt, data: event.data }, deps.env.ENVIRONMENT);
  const timestamp = Math.floor(deps.now().getTime() / 1000);
  const headers = await deliveryHeaders({
    eventType: event.type,
    deliveryId: delivery.id,
    environment: deps.env.ENVIRONMENT,
    secrets: await signingSecrets(deps, endpoint),
    timestamp,
    body,
  });
  return attemptHttpDelivery(endpoint.url, headers, body, {
    allowLocalhostHttp: deps.env.ENVIRONMENT === "local",
    ...(fetcher ? { fetcher } : {}),
  });
}

function attemptRow(deliveryId: string, trigger: AttemptTrigger, attemptedAt: string, outcome: AttemptOutcome): RecordedAttempt {
  return { attemptId: newId(), deliveryId, attemptedAt, trigger, ...outcome };
}

function insertAttempt(deps: Deps, a: RecordedAttempt) {
  return deps.db.insert(webhookAttempts).values({
    id: a.attemptId,
    deliveryId: a.deliveryId,
    trigger: a.trigger,
    attemptedAt: a.attemptedAt,
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    errorKind: a.errorKind,
    errorMessage: a.errorMessage,
    responseExcerpt: a.responseExcerpt,
  });
}

/**
 * An automatic attempt (first try or scheduled retry). Returns null when there is nothing to do: the
 * delivery is already settled, or its endpoint is gone or disabled.
 */
export async function runAutomaticAttempt(deps: Deps, deliveryId: string, fetcher?: Fetcher): Promise<AttemptResult | null> {
  const loaded = await loadDelivery(deps, deliveryId);
  if (!loaded) return null;
  const { delivery, endpoint, event } = loaded;
  if (!endpoint.enabled || (delivery.status !== "pending" && delivery.status !== "retrying")) return null;

  const attemptedAt = deps.now();
  const outcome = await send(deps, endpoint, delivery, event, fetcher);
  const attempt = attemptRow(delivery.id, "automatic", attemptedAt.toISOString(), outcome);
  const scheduledAttempts = delivery.scheduledAttempts + 1;
  const next = outcome.succeeded ? null : nextAttemptAt(scheduledAttempts, new Date(attemptedAt.getTime() + outcome.durationMs));
  const status = outcome.succeeded ? "succeeded" : next ? "retrying" : "failed";
  const common = {
    attemptCount: delivery.attemptCount + 1,
    lastAttemptAt: attempt.attemptedAt,
    lastStatusCode: outcome.statusCode,
    lastErrorKind: outcome.errorKind,
    updatedAt: attempt.attemptedAt,
  };
  await deps.db.batch([
    insertAttempt(deps, attempt),
    outcome.succeeded
      ? deps.db
          .update(webhookDeliveries)
          .set({ ...common, status, scheduledAttempts, nextAttemptAt: null })
          .where(eq(webhookDeliveries.id, delivery.id))
      : // A failure never overwrites a success recorded meanwhile (a manual redeliver).
        deps.db
          .update(webhookDeliveries)
          .set({ ...common, status, scheduledAttempts, nextAttemptAt: next?.toISOString() ?? null })
          .where(and(eq(webhookDeliveries.id, delivery.id), inArray(webhookDeliveries.status, ["pending", "retrying"]))),
  ]);
  return { attempt, exhausted: status === "failed" };
}

/**
 * A manual attempt (redeliver, Test action): made even to a disabled endpoint, outside the retry
 * schedule and the failure streak. Success settles the delivery; failure leaves its state as it was,
 * except a fresh test ping, which becomes `failed`.
 */
export async function runManualAttempt(
  deps: Deps,
  deliveryId: string,
  trigger: "manual" | "test",
  fetcher?: Fetcher,
): Promise<RecordedAttempt | null> {
  const loaded = await loadDelivery(deps, deliveryId);
  if (!loaded) return null;
  const { delivery, endpoint, event } = loaded;
  const attemptedAt = deps.now().toISOString();
  const outcome = await send(deps, endpoint, delivery, event, fetcher);
  const attempt = attemptRow(delivery.id, trigger, attemptedAt, outcome);
  const common = {
    attemptCount: delivery.attemptCount + 1,
    lastAttemptAt: attemptedAt,
    lastStatusCode: outcome.statusCode,
    lastErrorKind: outcome.errorKind,
    updatedAt: attemptedAt,
  };
  const settled = outcome.succeeded
    ? { status: "succeeded" as const, nextAttemptAt: null }
    : trigger === "test"
      ? { status: "failed" as const, nextAttemptAt: null }
      : {};
  await deps.db.batch([
    insertAttempt(deps, attempt),
    deps.db
      .update(webhookDeliveries)
      .set({ ...common, ...settled })
      .where(eq(webhookDeliveries.id, delivery.id)),
  ]);
  return attempt;
}
