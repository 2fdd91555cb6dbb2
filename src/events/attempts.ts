// Making and recording one attempt of a stored delivery: load delivery + endpoint + event, sign, POST,
// then write the delivery's new state in D1 and the attempt row in the organization's log store (OrgLogDO),
// after the state commits. The streak lives in EndpointDO; the automatic attempts' runs, in automatic-run.ts.
import { eq } from "drizzle-orm";
import { openSecret } from "../lib/secret-box";
import type { Deps } from "../deps";
import { newId } from "../lib/ids";
import { events, webhookDeliveries, webhookEndpoints } from "../db/schema";
import { orgLogs } from "../db/org-logs/stub";
import type { WebhookAttemptRecord } from "../db/org-logs/tables";
import { logLine, summarizeError } from "../lib/log";
import { attemptHttpDelivery, type AttemptOutcome, type Deadline, type Fetcher } from "./deliver";
import { deliveryHeaders, envelopeBody } from "./event-body";
import { listenFetcher } from "./listen-stub";
import { listenSessionId } from "../lib/url-policy";

export type AttemptTrigger = "automatic" | "manual" | "test";
/** What an attempt reads of its endpoint, its delivery and its event (a manual attempt passes whole rows). */
export type EndpointRow = Pick<
  typeof webhookEndpoints.$inferSelect,
  "id" | "url" | "enabled" | "secretSealed" | "previousSecretSealed" | "previousSecretExpiresAt"
>;
export type DeliveryRow = Pick<
  typeof webhookDeliveries.$inferSelect,
  "id" | "organizationId" | "workspaceId" | "status" | "scheduledAttempts"
>;
export type EventRow = Pick<typeof events.$inferSelect, "id" | "type" | "createdAt" | "data">;

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

/** The sealed previous secret while it still signs (until its overlap ends at `previousSecretExpiresAt`), else null. */
export function previousSigning(endpoint: EndpointRow, nowMs: number): string | null {
  if (!endpoint.previousSecretSealed || endpoint.previousSecretExpiresAt === null) return null;
  return Date.parse(endpoint.previousSecretExpiresAt) > nowMs ? endpoint.previousSecretSealed : null;
}

/** The secrets that sign at `nowMs`: the current one, plus the previous one until its overlap ends. */
export async function signingSecrets(deps: Deps, endpoint: EndpointRow, nowMs = deps.now().getTime()): Promise<string[]> {
  const key = deps.env;
  const secrets = [await openSecret(key, endpoint.secretSealed, endpoint.id)];
  const previous = previousSigning(endpoint, nowMs);
  if (previous !== null) secrets.push(await openSecret(key, previous, endpoint.id));
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

/**
 * Sign and POST once; nothing is written. `secrets`: the endpoint's, when the caller already opened (imported)
 * them; `deadline`: the run's shared attempt timers (deliver.ts), when the caller makes many attempts.
 */
export async function send(
  deps: Deps,
  endpoint: EndpointRow,
  delivery: DeliveryRow,
  event: EventRow,
  fetcher: Fetcher | undefined,
  secrets?: readonly (string | CryptoKey)[],
  deadline?: (timeoutMs: number) => Deadline,
) {
  const body = envelopeBody({ id: event.id, type: event.type, createdAt: event.createdAt, data: event.data }, deps.env.ENVIRONMENT);
  const timestamp = Math.floor(deps.now().getTime() / 1000);
  const headers = await deliveryHeaders({
    eventType: event.type,
    deliveryId: delivery.id,
    environment: deps.env.ENVIRONMENT,
    secrets: secrets ?? (await signingSecrets(deps, endpoint)),
    timestamp,
    body,
  });
  // A `ponte-listen://` endpoint's attempt goes to its ListenDO (the CLI's WebSocket), never to the network.
  const via = listenSessionId(endpoint.url) !== null ? listenFetcher(deps.env, endpoint.id) : fetcher;
  return attemptHttpDelivery(endpoint.url, headers, body, {
    allowLocalhostHttp: deps.env.ENVIRONMENT === "local",
    ...(via ? { fetcher: via } : {}),
    ...(deadline ? { deadline } : {}),
  });
}

export function attemptRow(deliveryId: string, trigger: AttemptTrigger, attemptedAt: string, outcome: AttemptOutcome): RecordedAttempt {
  return { attemptId: newId(), deliveryId, attemptedAt, trigger, ...outcome };
}

function attemptRecord(delivery: DeliveryRow, a: RecordedAttempt): WebhookAttemptRecord {
  return {
    id: a.attemptId,
    deliveryId: a.deliveryId,
    workspaceId: delivery.workspaceId,
    trigger: a.trigger,
    attemptedAt: a.attemptedAt,
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    errorKind: a.errorKind,
    errorMessage: a.errorMessage,
    responseExcerpt: a.responseExcerpt,
  };
}

/**
 * The attempts' rows, into their organization's log store once the deliveries' state has committed
 * (one call per organization; a batch is one endpoint's, so one call). The attempt happened whatever
 * this write does: a failure is logged, and the delivery's counters still show it.
 */
export async function logAttempts(deps: Deps, attempts: readonly { delivery: DeliveryRow; attempt: RecordedAttempt }[]): Promise<void> {
  const byOrganization = new Map<string, WebhookAttemptRecord[]>();
  for (const { delivery, attempt } of attempts) {
    const rows = byOrganization.get(delivery.organizationId) ?? [];
    rows.push(attemptRecord(delivery, attempt));
    byOrganization.set(delivery.organizationId, rows);
  }
  await Promise.all(
    [...byOrganization].map(([organizationId, webhookAttempts]) =>
      orgLogs(deps.env, organizationId)
        .append({ webhookAttempts })
        .catch((err: unknown) =>
          logLine("warn", "webhook attempt log write failed", { rows: webhookAttempts.length, error: summarizeError(err) }),
        ),
    ),
  );
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
  await deps.db
    .update(webhookDeliveries)
    .set({ ...common, ...settled })
    .where(eq(webhookDeliveries.id, delivery.id));
  await logAttempts(deps, [{ delivery, attempt }]);
  return attempt;
}
