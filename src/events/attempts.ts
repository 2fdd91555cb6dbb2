// Making and recording one attempt of a stored delivery: load delivery + endpoint + event, sign, POST,
// then write the delivery's new state in D1 and the attempt row in the organization's log store (OrgLogDO),
// after the state commits. The streak lives in EndpointDO.
import { eq, sql } from "drizzle-orm";
import { openSecret } from "../lib/secret-box";
import type { Deps } from "../deps";
import { newId } from "../lib/ids";
import { type AttemptErrorKind, events, webhookDeliveries, webhookEndpoints } from "../db/schema";
import { orgLogs } from "../db/org-logs/stub";
import type { WebhookAttemptRecord } from "../db/org-logs/tables";
import { logLine, summarizeError } from "../lib/log";
import { attemptHttpDelivery, type AttemptOutcome, type Fetcher } from "./deliver";
import { deliveryHeaders, envelopeBody } from "./event-body";
import { importSigningKey } from "./signature";
import { nextAttemptAt } from "./retry-schedule";
import { listenFetcher } from "./listen-stub";
import { listenSessionId } from "../lib/url-policy";

export type AttemptTrigger = "automatic" | "manual" | "test";
/** What an attempt reads of its endpoint, its delivery and its event (a manual attempt passes whole rows). */
type EndpointRow = Pick<
  typeof webhookEndpoints.$inferSelect,
  "id" | "url" | "enabled" | "secretSealed" | "previousSecretSealed" | "previousSecretExpiresAt"
>;
type DeliveryRow = Pick<typeof webhookDeliveries.$inferSelect, "id" | "organizationId" | "workspaceId" | "status" | "scheduledAttempts">;
type EventRow = Pick<typeof events.$inferSelect, "id" | "type" | "createdAt" | "data">;

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
  const key = deps.env;
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

/** Sign and POST once; nothing is written. `secrets`: the endpoint's, when the caller already opened (imported) them. */
async function send(
  deps: Deps,
  endpoint: EndpointRow,
  delivery: DeliveryRow,
  event: EventRow,
  fetcher: Fetcher | undefined,
  secrets?: Promise<readonly (string | CryptoKey)[]>,
) {
  const body = envelopeBody({ id: event.id, type: event.type, createdAt: event.createdAt, data: event.data }, deps.env.ENVIRONMENT);
  const timestamp = Math.floor(deps.now().getTime() / 1000);
  const headers = await deliveryHeaders({
    eventType: event.type,
    deliveryId: delivery.id,
    environment: deps.env.ENVIRONMENT,
    secrets: await (secrets ?? signingSecrets(deps, endpoint)),
    timestamp,
    body,
  });
  // A `ponte-listen://` endpoint's attempt goes to its ListenDO (the CLI's WebSocket), never to the network.
  const via = listenSessionId(endpoint.url) !== null ? listenFetcher(deps.env, endpoint.id) : fetcher;
  return attemptHttpDelivery(endpoint.url, headers, body, {
    allowLocalhostHttp: deps.env.ENVIRONMENT === "local",
    ...(via ? { fetcher: via } : {}),
  });
}

function attemptRow(deliveryId: string, trigger: AttemptTrigger, attemptedAt: string, outcome: AttemptOutcome): RecordedAttempt {
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
async function logAttempts(deps: Deps, attempts: readonly { delivery: DeliveryRow; attempt: RecordedAttempt }[]): Promise<void> {
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

/** Concurrent requests to one receiver (per run). */
const CONCURRENCY = 10;
/** Deliveries read per query, and attempts written per state statement and log-store call. */
const WAVE = 50;

/**
 * The deliveries still open on an enabled endpoint, with what their attempts need, in the order given: one
 * statement (the ids as one JSON parameter, so any number stays within D1's bound-parameter limit), its SQL
 * written once, only the columns an attempt uses.
 */
const LOAD_FOR_ATTEMPT = `SELECT d.id, d.organization_id AS organizationId, d.workspace_id AS workspaceId, d.status,
    d.scheduled_attempts AS scheduledAttempts, e.id AS endpointId, e.url, e.secret_sealed AS secretSealed,
    e.previous_secret_sealed AS previousSecretSealed, e.previous_secret_expires_at AS previousSecretExpiresAt,
    v.id AS eventId, v.type, v.created_at AS createdAt, v.data
  FROM json_each(?1) AS j
  JOIN webhook_deliveries d ON d.id = j.value
  JOIN webhook_endpoints e ON e.id = d.endpoint_id
  JOIN events v ON v.id = d.event_id
  WHERE e.enabled = 1 AND d.status IN ('pending', 'retrying')
  ORDER BY j.key`;

interface LoadedRow {
  id: string;
  organizationId: string;
  workspaceId: string;
  status: DeliveryRow["status"];
  scheduledAttempts: number;
  endpointId: string;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: string | null;
  eventId: string;
  type: string;
  createdAt: string;
  data: string;
}

async function loadDeliveries(deps: Deps, deliveryIds: readonly string[]) {
  const { results } = await deps.db.$client.prepare(LOAD_FOR_ATTEMPT).bind(JSON.stringify(deliveryIds)).all<LoadedRow>();
  return results.map((r) => ({
    delivery: {
      id: r.id,
      organizationId: r.organizationId,
      workspaceId: r.workspaceId,
      status: r.status,
      scheduledAttempts: r.scheduledAttempts,
    },
    endpoint: {
      id: r.endpointId,
      url: r.url,
      enabled: true,
      secretSealed: r.secretSealed,
      previousSecretSealed: r.previousSecretSealed,
      previousSecretExpiresAt: r.previousSecretExpiresAt,
    },
    event: { id: r.eventId, type: r.type, createdAt: r.createdAt, data: JSON.parse(r.data) as Record<string, unknown> },
  }));
}
type Loaded = Awaited<ReturnType<typeof loadDeliveries>>[number];

/**
 * The deliveries to attempt, wave by wave (WAVE per read, in the order given): a wave's rows are read
 * while the one before it is being sent, so the sends never wait for a read after the first.
 */
function waveSource(deps: Deps, deliveryIds: readonly string[]): () => Promise<Loaded | undefined> {
  const queue: Loaded[] = [];
  let next = 0;
  const read = () => {
    const part = deliveryIds.slice(next, next + WAVE);
    next += WAVE;
    if (part.length === 0) return null;
    const rows = loadDeliveries(deps, part);
    rows.catch(() => undefined); // a read ahead that is never taken (the run stopped) fails unseen; a taken one throws to its taker
    return rows;
  };
  let reading = read();
  return async () => {
    for (;;) {
      const row = queue.shift();
      if (row !== undefined) return row;
      const current = reading;
      if (current === null) return undefined;
      const rows = await current;
      // The first worker back takes the wave and starts reading the next one.
      if (reading === current) {
        queue.push(...rows);
        reading = read();
      }
    }
  };
}

/**
 * Automatic attempts (first tries or scheduled retries) for deliveries of one endpoint, any number: read
 * WAVE at a time (the next wave's read overlapping the sends), the endpoint's secrets opened once, up to
 * CONCURRENCY requests at a time without waiting between waves; every WAVE outcomes, one statement writes
 * their deliveries' new state and then one log-store call writes their attempt rows, while the sends go
 * on (the writes themselves one after another). `proceed` is asked before each send (the EndpointDO stops
 * once the endpoint trips its failure streak) and `settled` told each outcome in the order they finish.
 * Resolves once every outcome is written. Deliveries already settled, or whose endpoint is gone or
 * disabled, are skipped.
 */
export async function runAutomaticAttempts(
  deps: Deps,
  deliveryIds: readonly string[],
  options: { fetcher?: Fetcher; proceed?: () => boolean; settled?: (result: AttemptResult) => Promise<void> | void } = {},
): Promise<AttemptResult[]> {
  const results: AttemptResult[] = [];
  // One endpoint's secrets are opened and imported as signing keys once per run, not once per delivery.
  const keys = new Map<string, Promise<CryptoKey[]>>();
  const keysOf = (endpoint: EndpointRow) => {
    let imported = keys.get(endpoint.id);
    if (!imported) {
      imported = signingSecrets(deps, endpoint).then((secrets) => Promise.all(secrets.map(importSigningKey)));
      keys.set(endpoint.id, imported);
    }
    return imported;
  };
  let unwritten: Attempted[] = [];
  let writes: Promise<void> = Promise.resolve();
  let writeFailed = false;
  const write = () => {
    const batch = unwritten;
    unwritten = [];
    writes = writes.then(() => recordAttempts(deps, batch));
    writes.catch(() => {
      writeFailed = true; // no more sends: their outcomes could not be written either
    });
  };
  const take = waveSource(deps, deliveryIds);
  const worker = async () => {
    for (let next = await take(); next !== undefined; next = await take()) {
      if (writeFailed || (options.proceed && !options.proceed())) return;
      const { delivery, endpoint, event } = next;
      const attemptedAt = deps.now();
      const outcome = await send(deps, endpoint, delivery, event, options.fetcher, keysOf(endpoint));
      const { result, state } = automaticOutcome(delivery, attemptedAt, outcome);
      unwritten.push({ delivery, attempt: result.attempt, state });
      if (unwritten.length >= WAVE) write();
      results.push(result);
      await options.settled?.(result);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (unwritten.length > 0) write();
  await writes;
  return results;
}

interface Attempted {
  delivery: DeliveryRow;
  attempt: RecordedAttempt;
  state: DeliveryState;
}

/** One statement for the deliveries' new state, then, once it has committed, one log-store call for the attempts. */
async function recordAttempts(deps: Deps, attempted: readonly Attempted[]): Promise<void> {
  await settleDeliveries(
    deps,
    attempted.map((a) => a.state),
  );
  await logAttempts(deps, attempted);
}

/** A delivery's state after one automatic attempt, as the settling statement reads it (JSON). */
interface DeliveryState {
  id: string;
  succeeded: boolean;
  status: "succeeded" | "retrying" | "failed";
  scheduledAttempts: number;
  nextAttemptAt: string | null;
  attemptedAt: string;
  statusCode: number | null;
  errorKind: AttemptErrorKind | null;
}

/**
 * Every attempted delivery's new state in one statement (one bound parameter: the states as JSON), however
 * many there are. A failure never overwrites a success recorded meanwhile (a manual redeliver); the attempt
 * count adds this attempt to whatever the row holds now.
 */
async function settleDeliveries(deps: Deps, states: readonly DeliveryState[]): Promise<void> {
  await deps.db.run(sql`UPDATE webhook_deliveries AS d SET
      status = s.value ->> 'status',
      attempt_count = d.attempt_count + 1,
      scheduled_attempts = s.value ->> 'scheduledAttempts',
      next_attempt_at = s.value ->> 'nextAttemptAt',
      last_attempt_at = s.value ->> 'attemptedAt',
      last_status_code = s.value ->> 'statusCode',
      last_error_kind = s.value ->> 'errorKind',
      updated_at = s.value ->> 'attemptedAt'
    FROM json_each(${JSON.stringify(states)}) AS s
    WHERE d.id = s.value ->> 'id' AND (s.value ->> 'succeeded' OR d.status IN ('pending', 'retrying'))`);
}

/** One automatic attempt (kept for callers with a single delivery). */
export async function runAutomaticAttempt(deps: Deps, deliveryId: string, fetcher?: Fetcher): Promise<AttemptResult | null> {
  const [result] = await runAutomaticAttempts(deps, [deliveryId], fetcher ? { fetcher } : {});
  return result ?? null;
}

/** The attempt and the delivery's new state (retry time from the schedule). */
function automaticOutcome(delivery: DeliveryRow, attemptedAt: Date, outcome: AttemptOutcome) {
  const attempt = attemptRow(delivery.id, "automatic", attemptedAt.toISOString(), outcome);
  const scheduledAttempts = delivery.scheduledAttempts + 1;
  const next = outcome.succeeded ? null : nextAttemptAt(scheduledAttempts, new Date(attemptedAt.getTime() + outcome.durationMs));
  const status = outcome.succeeded ? "succeeded" : next ? "retrying" : "failed";
  const state: DeliveryState = {
    id: delivery.id,
    succeeded: outcome.succeeded,
    status,
    scheduledAttempts,
    nextAttemptAt: next?.toISOString() ?? null,
    attemptedAt: attempt.attemptedAt,
    statusCode: outcome.statusCode,
    errorKind: outcome.errorKind,
  };
  return { result: { attempt, exhausted: status === "failed" } satisfies AttemptResult, state };
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
