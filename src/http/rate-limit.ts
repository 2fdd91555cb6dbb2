// Per-credential rate limiting through the Workers rate-limiting binding, off the request's path:
// each request asks the binding in the background, and once the binding says a credential is over
// its budget, this isolate refuses that credential's requests with 429 until Retry-After passes.
// The binding itself is eventually consistent, so deciding one request later loses no precision
// that mattered, and an allowed request never waits for the limiter.
//
// The binding counts units of RATE_LIMIT_UNIT requests: an isolate asks it on a credential's 1st,
// 11th, 21st… request, each call paying for that request and the next nine. The budgets in
// wrangler.toml are therefore in units (600 units = 6000 requests per 60 s). A credential is counted
// at most one unit high per isolate, never low, and the limiter costs a tenth of the calls.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import { ApiError } from "./errors";
import { logLine, summarizeError } from "../lib/log";

/** The binding counts per 60 s period (see wrangler.toml); a refused client waits out the period. */
export const RATE_LIMIT_RETRY_AFTER_SECONDS = 60;
/** Requests paid for by one call to the binding (see wrangler.toml's budgets). */
export const RATE_LIMIT_UNIT = 10;
const MAX_TRACKED_CREDENTIALS = 10_000;

/** Credential → epoch ms until which it is refused, in this isolate. */
const blockedUntil = new Map<string, number>();
/** Credential → requests served from its current unit in this isolate (0 = the next request pays a new unit). */
const servedFromUnit = new Map<string, number>();

export function rateLimitKeyFor(kind: string, id: string): string {
  return `${kind}:${id}`;
}

function block(key: string, now: number) {
  if (blockedUntil.size >= MAX_TRACKED_CREDENTIALS) blockedUntil.clear();
  blockedUntil.set(key, now + RATE_LIMIT_RETRY_AFTER_SECONDS * 1000);
}

export const rateLimit = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const principal = c.get("principal");
  const key = c.get("rateLimitKey") ?? rateLimitKeyFor(principal.kind, principal.actorId);
  const now = Date.now();
  const until = blockedUntil.get(key);
  if (until !== undefined && until > now) {
    const retryAfter = String(Math.ceil((until - now) / 1000));
    throw new ApiError(
      "RATE_LIMITED",
      `Too many requests for this credential; retry after ${retryAfter} seconds.`,
      { retryAfterSeconds: Number(retryAfter) },
      { "Retry-After": retryAfter },
    );
  }
  if (until !== undefined) blockedUntil.delete(key);

  const served = servedFromUnit.get(key) ?? 0;
  if (servedFromUnit.size >= MAX_TRACKED_CREDENTIALS && served === 0) servedFromUnit.clear(); // forgetting only makes the next request pay a unit early
  servedFromUnit.set(key, (served + 1) % RATE_LIMIT_UNIT);
  if (served > 0) return next();

  const check = c.env.API_RATE_LIMITER.limit({ key }).then(
    ({ success }) => {
      if (!success) block(key, Date.now());
    },
    (err: unknown) => logLine("warn", "rate limiter unavailable", { error: summarizeError(err) }),
  );
  c.get("deps").waitUntil(check);
  await next();
};
