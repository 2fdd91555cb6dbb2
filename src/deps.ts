// What services receive instead of the HTTP context: database, bindings, clock, request id.
// A request's Deps come from `provideDeps` (src/http/provide-deps.ts) as `c.get("deps")`.
import type { Env } from "./config";
import { createDb, type Db } from "./db/client";

/** The Idempotency-Key's answer as an item of the handler's own last write batch (see Deps.keyAnswer). */
export interface KeyAnswerItem {
  /** A raw D1 statement on the request's D1 (deps.db.$client), for a raw D1 batch. */
  statement: D1PreparedStatement;
  /** Called with that item's result once the batch has committed. */
  settle(result: unknown): void;
}

export interface Deps {
  db: Db;
  /**
   * The D1 binding `db` runs on (`db.$client`), when the Deps can name it without building the query
   * builder (a request's: its session). Read it through `d1Of`.
   */
  readonly d1?: D1Database;
  env: Env;
  now: () => Date;
  requestId: string;
  /** Work that may finish after the response (e.g. enqueueing events); falls back to fire-and-forget. */
  waitUntil: (promise: Promise<unknown>) => void;
  /**
   * Awaited before a side effect that is not a D1 write (an upstream call): the request's
   * idempotency claim, when it has not yet ridden along with a write (src/http/idempotency.ts).
   */
  beforeSideEffect?: () => Promise<void>;
  /**
   * Set when the request holds an Idempotency-Key (src/http/idempotency.ts). A handler that knows its
   * answer (`status`, the envelope's `data`) before its last write batch puts the returned statement in
   * that batch: the key's answer is stored with the write, only if the batch recorded the event
   * `onlyIf.eventId` (i.e. this write is the one that committed), instead of one more round trip after
   * the response. Undefined when the key has not been claimed yet.
   */
  keyAnswer?: (status: number, data: unknown, onlyIf: { eventId: string }) => Promise<KeyAnswerItem | undefined>;
  /**
   * Organizations whose audit rows this request staged in D1 (auditRow adds them); provideDeps forwards
   * their staged rows to their log stores after the response (db/org-logs/audit-forward.ts).
   */
  stagedAudit?: Set<string>;
  /** Overrides LIMITS.upstreamTimeoutMs for native billing calls (tests inject a short one). */
  upstreamTimeoutMs?: number;
}

/** The D1 binding the Deps' queries run on, for a raw statement: `deps.db.$client`, without building `db` when not needed. */
export const d1Of = (deps: Deps): D1Database => deps.d1 ?? deps.db.$client;

/** Deps for work outside a request (queue consumer, cron sweepers, Durable Objects): real clock, own id. */
export function backgroundDeps(env: Env, waitUntil?: (promise: Promise<unknown>) => void, requestId = `bg_${crypto.randomUUID()}`): Deps {
  return {
    db: createDb(env.DB),
    env,
    now: () => new Date(),
    requestId,
    waitUntil: waitUntil ?? ((p) => void p.catch(() => undefined)),
  };
}
