// Idempotency-Key on POST/PUT/PATCH/DELETE: the first response is kept 24 h per credential (API key or
// console user) and replayed to that credential only; another request under the same key (method, path,
// workspace or body differ) gets 422, one still in flight gets 409. Another credential using the same key
// is a fresh request. The stored response may hold a one-time secret, so it is sealed (AES-GCM, the
// secrets key) and opened only to replay it.
//
// Round trips: the claim costs none of its own. It rides in the same D1 batch as the handler's first
// write (src/db/write-gate.ts), or runs just before the first upstream call when that comes first; a
// refused claim (the key is taken) rolls that batch back, so nothing of the duplicate is written. The
// key's answer costs none either when the handler knows it before its last write batch (a PIX create:
// `deps.keyAnswer`): it is stored in that batch, and the middleware checks that the response sent is
// the one stored. Otherwise it is stored after the response (waitUntil); a retry that arrives before it
// lands waits briefly for it. As at Stripe, a request that failed before any write or upstream call (a validation
// error) claims nothing and stores nothing: retrying it simply runs it again.
import { and, eq, sql } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { nextTurn } from "../lib/next-turn";
import { openSecret, sealSecret, sha256Hex } from "../lib/secret-box";
import { LIMITS } from "../config";
import { createSessionDb } from "../db/client";
import { boundValue, preparedStatement } from "../db/prepared";
import { changedRows, eventRecorded } from "../db/guarded-insert";
import { idempotencyKeys } from "../db/schema";
import { deleteExpiredRows } from "../db/retention";
import { gatedD1, type WriteGate } from "../db/write-gate";
import { type Deps, d1Of } from "../deps";
import type { AppEnv } from "./app-env";
import { handleError } from "./error-handler";
import { guardedBodyOf } from "./body-guard";
import { ApiError } from "./errors";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** How long a retry waits for the first request's stored answer before answering 409. */
const IN_FLIGHT_WAIT_MS = [25, 50, 100, 200, 400];

interface StoredKey {
  request_hash: string;
  state: "in_flight" | "completed";
  response_status: number | null;
  response_body: string | null;
  created_at: number;
}

interface KeyRef {
  org: string;
  credential: string;
  key: string;
  hash: string;
}

async function requestFingerprint(c: Context<AppEnv>): Promise<string> {
  // The bytes the body guard read (the same bytes every later reader gets), else a copy of the body.
  const body = guardedBodyOf(c.req.raw) ?? new Uint8Array(await c.req.raw.clone().arrayBuffer());
  const path = new URL(c.req.url).pathname.replace(/\/+$/, "");
  const head = new TextEncoder().encode(`${c.req.method} ${path} ${c.get("principal").workspaceId}\n`);
  const all = new Uint8Array(head.byteLength + body.byteLength);
  all.set(head);
  all.set(body, head.byteLength);
  return sha256Hex(all);
}

/**
 * The claim's refusal: another request holds the key. The claim's upsert turns a live record into a NULL
 * `created_at` (NOT NULL), the UNIQUE violation is the same refusal from an INSERT without the upsert.
 */
const KEY_TAKEN = /(UNIQUE|NOT NULL) constraint failed: idempotency_keys\./;

/** Thrown into the handler when the key is held; the middleware then answers with the key's stored answer. */
class KeyTaken extends ApiError {
  constructor() {
    super("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is being processed; retry shortly.");
  }
}

/**
 * The claim as a write gate, one statement: insert our record, or take over the key's record when it expired
 * or was abandoned in flight; a live record makes the statement fail (its `created_at` set to NULL, a NOT NULL
 * column), and its whole batch with it. Once refused, every later write or upstream call of the request is
 * refused too, so a handler that catches errors cannot go on.
 */
class ClaimGate implements WriteGate {
  state: "pending" | "claimed" | "taken" = "pending";
  constructor(
    private readonly d1: D1Database,
    private readonly ref: KeyRef,
    /** The claim's created_at: tells this request's record from a later one under the same key. */
    readonly now: number,
  ) {}

  get passed() {
    if (this.state === "taken") throw new KeyTaken();
    return this.state === "claimed";
  }

  statements(d1: D1Database) {
    const { org, credential, key, hash } = this.ref;
    return [
      d1
        .prepare(
          `INSERT INTO idempotency_keys (organization_id, credential_id, key, request_hash, state, created_at)
             VALUES (?1, ?2, ?3, ?4, 'in_flight', ?5)
           ON CONFLICT (organization_id, credential_id, key) DO UPDATE SET
             request_hash = excluded.request_hash, state = 'in_flight', response_status = NULL, response_body = NULL,
             created_at = CASE WHEN idempotency_keys.created_at <= ?6
               OR (idempotency_keys.state = 'in_flight' AND idempotency_keys.created_at <= ?7) THEN excluded.created_at END`,
        )
        .bind(
          org,
          credential,
          key,
          hash,
          this.now,
          this.now - LIMITS.idempotencyTtlSeconds,
          this.now - LIMITS.idempotencyInFlightStaleSeconds,
        ),
    ];
  }

  settle(outcome: { ok: true } | { ok: false; error: unknown }) {
    if (outcome.ok) {
      this.state = "claimed";
      return undefined;
    }
    if (KEY_TAKEN.test(String((outcome.error as Error)?.message ?? outcome.error))) {
      this.state = "taken";
      return new KeyTaken();
    }
    return undefined; // the handler's own statement failed: nothing was claimed; a later write tries again
  }

  async pass() {
    if (this.passed) return;
    try {
      await this.d1.batch(this.statements(this.d1));
    } catch (error) {
      throw this.settle({ ok: false, error }) ?? error;
    }
    this.settle({ ok: true });
  }
}

/** The key's answer stored with the handler's last write: only our own claim, still in flight, and only if `eventId` was recorded. */
const storeAnswerIfEvent = preparedStatement<{
  organizationId: string;
  credentialId: string;
  key: string;
  createdAt: number;
  responseStatus: number;
  responseBody: string;
  eventId: string;
}>((db) =>
  db
    .update(idempotencyKeys)
    .set({ state: "completed", responseStatus: boundValue("responseStatus"), responseBody: boundValue("responseBody") })
    .where(
      and(
        eq(idempotencyKeys.organizationId, sql.placeholder("organizationId")),
        eq(idempotencyKeys.credentialId, sql.placeholder("credentialId")),
        eq(idempotencyKeys.key, sql.placeholder("key")),
        eq(idempotencyKeys.createdAt, sql.placeholder("createdAt")),
        eq(idempotencyKeys.state, "in_flight"),
        eventRecorded(sql.placeholder("eventId")),
      ),
    ),
);

export const idempotency = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined || !WRITE_METHODS.has(c.req.method)) return next();
  if (key.length === 0 || key.length > LIMITS.idempotencyKeyMaxLength) {
    throw new ApiError("IDEMPOTENCY_KEY_INVALID", `Idempotency-Key must be 1 to ${LIMITS.idempotencyKeyMaxLength} characters.`, {
      length: key.length,
    });
  }
  const principal = c.get("principal");
  const ref: KeyRef = {
    org: principal.organizationId,
    credential: `${principal.kind}:${principal.actorId}`,
    key,
    hash: await requestFingerprint(c),
  };
  /** Binds a sealed response to its record, so it cannot be replayed under another credential or key. */
  const sealContext = `idempotency:${ref.org}:${ref.credential}:${key}`;
  const db = c.env.DB;
  const session = c.get("d1");
  const gate = new ClaimGate(session, ref, Math.floor(Date.now() / 1000));
  const deps = c.get("deps");
  deps.db = createSessionDb(gatedD1(session, gate));
  deps.beforeSideEffect = () => gate.pass();
  /** The answer the handler stored in its own write batch, if it did. */
  let storedInBatch: { status: number; body: string } | undefined;
  deps.keyAnswer = async (status: number, data: unknown, onlyIf: { eventId: string }) => {
    if (!gate.passed) return undefined;
    const body = JSON.stringify({ data, meta: { requestId: c.get("requestId") } }); // what `ok(c, data, status)` sends
    const sealed = await sealSecret(c.env, body, sealContext);
    const statement = storeAnswerIfEvent(d1Of(deps), {
      organizationId: ref.org,
      credentialId: ref.credential,
      key,
      createdAt: gate.now,
      responseStatus: status,
      responseBody: sealed,
      eventId: onlyIf.eventId,
    });
    return {
      statement,
      settle: (result: unknown) => {
        if (changedRows(result) > 0) storedInBatch = { status, body };
      },
    };
  };

  await next(); // Hono turns a thrown error into c.res before this returns.

  if (gate.state === "taken") {
    c.res = await answerForTakenKey(c, ref, sealContext);
    return;
  }
  if (gate.state === "pending") return; // nothing was written or sent: nothing to replay
  // "Try again" answers (409, 429, 5xx) are not kept, so a retry may succeed; anything else is the key's answer.
  const res = c.res;
  if (res.status >= 500 || res.status === 409 || res.status === 429) {
    await db
      .prepare("DELETE FROM idempotency_keys WHERE organization_id = ?1 AND credential_id = ?3 AND key = ?2")
      .bind(ref.org, key, ref.credential)
      .run();
    return;
  }
  const body = await res.clone().text();
  if (storedInBatch && storedInBatch.status === res.status && storedInBatch.body === body) return; // stored with the last write
  // Started on the next turn of the event loop, i.e. once the response has been handed back.
  deps.waitUntil(
    nextTurn()
      .then(() => sealSecret(c.env, body, sealContext))
      .then((sealed) =>
        db
          .prepare(
            "UPDATE idempotency_keys SET state = 'completed', response_status = ?3, response_body = ?4 WHERE organization_id = ?1 AND credential_id = ?5 AND key = ?2",
          )
          .bind(ref.org, key, res.status, sealed, ref.credential)
          .run(),
      ),
  );
};

/** The key is held: replay its stored answer, or 422 (another request), or 409 (still in flight). */
async function answerForTakenKey(c: Context<AppEnv>, ref: KeyRef, sealContext: string): Promise<Response> {
  const lookup = c.env.DB.prepare(
    "SELECT request_hash, state, response_status, response_body, created_at FROM idempotency_keys WHERE organization_id = ?1 AND credential_id = ?3 AND key = ?2",
  ).bind(ref.org, ref.key, ref.credential);
  let stored = await lookup.first<StoredKey>();
  // The first request's answer is stored just after its response: a quick retry waits for it.
  for (const ms of IN_FLIGHT_WAIT_MS) {
    if (!stored || stored.request_hash !== ref.hash || stored.state !== "in_flight") break;
    await new Promise((r) => setTimeout(r, ms));
    stored = await lookup.first<StoredKey>();
  }
  if (!stored)
    return handleError(new ApiError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is being processed; retry shortly."), c);
  if (stored.request_hash !== ref.hash) {
    return handleError(
      new ApiError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was already used with a different request (method, path or body).", {
        idempotencyKey: ref.key,
      }),
      c,
    );
  }
  if (stored.state === "in_flight") {
    return handleError(
      new ApiError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed; retry shortly.", {
        idempotencyKey: ref.key,
      }),
      c,
    );
  }
  const body = stored.response_body ? await openSecret(c.env, stored.response_body, sealContext) : "";
  const original = JSON.parse(body || "{}") as { meta?: { requestId?: string }; error?: { requestId?: string } };
  const headers = new Headers({ "Content-Type": "application/json", "Idempotent-Replayed": "true" });
  const rid = original.meta?.requestId ?? original.error?.requestId;
  if (rid) headers.set("X-Request-Id", rid);
  return new Response(body, { status: stored.response_status ?? 200, headers });
}

/** Retention: deletes up to LIMITS.retentionBatchRows records past their 24 h (they can no longer be replayed). */
export const pruneExpiredIdempotencyKeys = (deps: Deps) =>
  deleteExpiredRows(
    deps.env.DB,
    { table: "idempotency_keys", key: "rowid", column: "created_at" },
    Math.floor(deps.now().getTime() / 1000) - LIMITS.idempotencyTtlSeconds,
  );
