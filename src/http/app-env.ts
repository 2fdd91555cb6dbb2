// The Hono environment every route shares: bindings plus per-request variables.
import type { Env } from "../config";
import type { Principal } from "../lib/principal";
import type { Deps } from "../deps";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** Set once per request by `provideDeps()`: what handlers pass to services. */
    deps: Deps;
    /** The request's D1 session (set by `provideDeps()`): what `deps.db` runs on. */
    d1: D1Database;
    /** Set by `authenticate()`; absent on public routes. */
    principal: Principal;
    /** What the rate limiter counts: set by authentication from the credential (its hash for API keys). */
    rateLimitKey?: string;
  };
}
