// Per-credential rate limiting through the Workers rate-limiting binding.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import { ApiError } from "./errors";

/** The binding counts per period of 60 s (see wrangler.toml); a refused client waits out the period. */
export const RATE_LIMIT_RETRY_AFTER_SECONDS = 60;

export const rateLimit = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const principal = c.get("principal");
  const { success } = await (c.get("rateLimitCheck") ?? c.env.API_RATE_LIMITER.limit({ key: `${principal.kind}:${principal.actorId}` }));
  if (!success) {
    throw new ApiError(
      "RATE_LIMITED",
      `Too many requests for this credential; retry after ${RATE_LIMIT_RETRY_AFTER_SECONDS} seconds.`,
      { retryAfterSeconds: RATE_LIMIT_RETRY_AFTER_SECONDS },
      { "Retry-After": String(RATE_LIMIT_RETRY_AFTER_SECONDS) },
    );
  }
  await next();
};
