// Per-credential rate limiting through the Workers rate-limiting binding, off the request's path:
// each request asks the binding in the background, and once the binding says a credential is over
// its budget, this isolate refuses that credential's requests with 429 until Retry-After passes.
// The binding itself is eventually consistent, so deciding one request later loses no precision
// that mattered, and an allowed request never waits for the limiter.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import { ApiError } from "./errors";

/** The binding counts per 60 s period (see wrangler.toml); a refused client waits out the period. */
export const RATE_LIMIT_RETRY_AFTER_SECONDS = 60;
const MAX_TRACKED_CREDENTIALS = 10_000;

/** Credential → epoch ms until which it is refused, in this isolate. */
const blockedUntil = new Map<string, number>();

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

  const check = c.env.API_RATE_LIMITER.limit({ key }).then(
    ({ success }) => {
      if (!success) block(key, Date.now());
    },
    (err: unknown) => console.error(JSON.stringify({ level: "warn", msg: "rate limiter unavailable", error: String(err) })),
  );
  try {
    c.executionCtx.waitUntil(check);
  } catch {
    void check;
  }
  await next();
};
