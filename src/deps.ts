// What services receive instead of the HTTP context: database, bindings, clock, request id.
import type { Env } from "./config";
import { createDb, type Db } from "./db/client";

export interface Deps {
  db: Db;
  env: Env;
  now: () => Date;
  requestId: string;
  /** Work that may finish after the response (e.g. enqueueing events); falls back to fire-and-forget. */
  waitUntil: (promise: Promise<unknown>) => void;
  /** Overrides LIMITS.upstreamTimeoutMs for native billing calls (tests inject a short one). */
  upstreamTimeoutMs?: number;
}

/** The part of a request's context that deps are built from (a Hono `Context<AppEnv>` is one; this file knows nothing of HTTP). */
export interface RequestScope {
  env: Env;
  get(key: "requestId"): string;
  readonly executionCtx: { waitUntil(promise: Promise<unknown>): void };
}

export function depsFrom(c: RequestScope): Deps {
  return {
    db: createDb(c.env.DB),
    env: c.env,
    now: () => new Date(),
    requestId: c.get("requestId"),
    waitUntil: (p) => {
      try {
        c.executionCtx.waitUntil(p);
      } catch {
        void p.catch(() => undefined);
      }
    },
  };
}

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
