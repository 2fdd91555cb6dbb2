// The Hono environment every route shares: bindings plus per-request variables.
import type { Env } from "../config";
import type { Principal } from "../auth/principal";

export interface RateLimitOutcome {
  success: boolean;
}

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** Set by `authenticate()`; absent on public routes. */
    principal: Principal;
    /** Started by authentication alongside the credential lookup, so the two cost one round trip of time. */
    rateLimitCheck?: Promise<RateLimitOutcome>;
  };
}
