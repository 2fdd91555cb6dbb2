// The automatic attempts of one endpoint's deliveries (first tries and scheduled retries), as an EndpointDO
// runs them: read a wave at a time, sent a few at a time under the object's cap on requests in flight, and
// their outcomes written 50 at a time (the delivery's state in D1, then the attempt rows in the log store).
import { sql } from "drizzle-orm";
import type { AttemptErrorKind } from "../db/schema";
import type { Deps } from "../deps";
import { type AttemptResult, attemptRow, type DeliveryRow, logAttempts, type RecordedAttempt, send } from "./attempts";
import { type AttemptOutcome, type Fetcher, sharedDeadlines } from "./deliver";
import { nextAttemptAt } from "./retry-schedule";
import { SENDS_PER_ENDPOINT, SendSlots } from "./send-slots";
import { SigningKeys } from "./signing-keys";

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

/** The deliveries to attempt, in the order given. */
interface WaveSource {
  /** The next row if it has been read already (the common case: no wait, no promise). */
  ready(): Loaded | undefined;
  /** The next row once read; undefined when none are left. */
  next(): Promise<Loaded | undefined>;
}

/**
 * The deliveries to attempt, wave by wave (WAVE per read, in the order given): a wave's rows are read
 * while the one before it is being sent, so the sends never wait for a read after the first.
 */
function waveSource(deps: Deps, deliveryIds: readonly string[]): WaveSource {
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
  const ready = () => queue.shift();
  const following = async () => {
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
  return { ready, next: following };
}

/**
 * Automatic attempts (first tries or scheduled retries) for deliveries of one endpoint, any number: read
 * WAVE at a time (the next wave's read overlapping the sends), the endpoint's secrets opened once, up to
 * SENDS_PER_ENDPOINT requests at a time without waiting between waves (`slots`: the EndpointDO's, shared by every
 * run it makes, so two runs at once stay within the cap together); every WAVE outcomes, one statement writes
 * their deliveries' new state and then one log-store call writes their attempt rows, while the sends go
 * on (the writes themselves one after another). `proceed` is asked before each send (the EndpointDO stops
 * once the endpoint trips its failure streak) and `settled` told each outcome in the order they finish.
 * Resolves once every outcome is written. Deliveries already settled, or whose endpoint is gone or
 * disabled, are skipped.
 */
export async function runAutomaticAttempts(
  deps: Deps,
  deliveryIds: readonly string[],
  options: {
    fetcher?: Fetcher;
    slots?: SendSlots;
    /** The endpoint's signing keys as its EndpointDO keeps them (unset: imported for this run only). */
    signing?: SigningKeys;
    proceed?: () => boolean;
    settled?: (result: AttemptResult) => Promise<void> | undefined;
  } = {},
): Promise<AttemptResult[]> {
  const results: AttemptResult[] = [];
  const slots = options.slots ?? new SendSlots(SENDS_PER_ENDPOINT);
  // The endpoint's secrets are opened and imported as signing keys once, not once per delivery (kept by the
  // EndpointDO across its runs while the rows say the same secrets sign).
  const signing = options.signing ?? new SigningKeys();
  // The run's attempts share their timers (one per 100 ms of sending; deliver.ts).
  const deadline = sharedDeadlines();
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
  const source = waveSource(deps, deliveryIds);
  // Each step that usually has its answer at hand (the next row, a free slot, the keys, the streak) is
  // taken without an await, so a delivery's only waits are its request and its response.
  const worker = async () => {
    for (let next = source.ready() ?? (await source.next()); next !== undefined; next = source.ready() ?? (await source.next())) {
      if (!slots.tryTake()) await slots.take();
      let result: AttemptResult;
      try {
        if (writeFailed || (options.proceed && !options.proceed())) return;
        const { delivery, endpoint, event } = next;
        const attemptedAt = deps.now();
        const at = attemptedAt.getTime();
        const keys = signing.ready(endpoint, at) ?? (await signing.load(deps, endpoint, at));
        const outcome = await send(deps, endpoint, delivery, event, options.fetcher, keys, deadline);
        const automatic = automaticOutcome(delivery, attemptedAt, outcome);
        result = automatic.result;
        unwritten.push({ delivery, attempt: result.attempt, state: automatic.state });
      } finally {
        slots.give();
      }
      if (unwritten.length >= WAVE) write();
      results.push(result);
      const told = options.settled?.(result);
      if (told) await told;
    }
  };
  await Promise.all(Array.from({ length: Math.min(slots.size, deliveryIds.length) }, worker));
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
