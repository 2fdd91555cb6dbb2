// What a protected route spreads into `createRoute`: authenticate, check the permission, rate-limit
// per credential, then idempotency (which needs the organization the credential belongs to). The
// same call documents the permission (`x-permission`) and the security schemes.
import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppEnv } from "../http/app-env";
import { idempotency } from "../http/idempotency";
import { rateLimit } from "../http/rate-limit";
import { transparentMiddleware } from "../http/route-chain";
import { type AuthenticateOptions, authenticateRequest } from "./authenticate";
import type { Permission } from "../lib/permissions";

type SecurityRequirement = Record<string, string[]>[];
export const BEARER_SECURITY: SecurityRequirement = [{ bearerAuth: [] }];
export const BEARER_OR_SESSION_SECURITY: SecurityRequirement = [{ bearerAuth: [] }, { sessionCookie: [] }];

/** A step that answers by returning a Response (not one of these today) is adopted as Hono would. */
function adopt(c: Context<AppEnv>, res: unknown): void {
  if (res instanceof Response && !c.finalized) c.res = res;
}

/**
 * The guard's steps as one middleware, each handed the next as its `next`: Hono's chain would spend a
 * dispatch frame on each (bench:js). The same behaviour as three layers: none of the steps does
 * anything after its `next` that an error thrown by a later step would skip (authentication and the
 * rate limit have nothing after it; idempotency's `next` is Hono's, which turns the route's errors
 * into the error response before returning), and an error a step throws reaches Hono's error handler
 * as it did. Authentication answered from memory does not wait (authenticateRequest is synchronous
 * then), and a GET or HEAD skips the idempotency step outright: a key is only ever claimed for a write
 * (src/http/idempotency.ts), so that step would only pass it on.
 */
function protect(permission: Permission, options: Omit<AuthenticateOptions, "permission">): MiddlewareHandler<AppEnv> {
  const authentication: AuthenticateOptions = { ...options, permission };
  const limit = rateLimit();
  const claimKey = idempotency();
  // `limit`'s answer is adopted when it settles, without an async frame here (Promise.resolve returns a promise as it is).
  const limitThenNext = (c: Context<AppEnv>, next: Next): Promise<void> => {
    const method = c.req.method;
    const rest = method === "GET" || method === "HEAD" ? next : () => claimKey(c, next).then((res) => adopt(c, res));
    return Promise.resolve(limit(c, rest)).then((res) => adopt(c, res));
  };
  // Transparent on reads (src/http/route-chain.ts): on a GET or HEAD nothing runs after the route's answer
  // and no error is caught (the idempotency step, which does both, only runs for writes).
  return transparentMiddleware((c, next) => {
    const authenticated = authenticateRequest(c, authentication);
    return authenticated instanceof Promise ? authenticated.then(() => limitThenNext(c, next)) : limitThenNext(c, next);
  });
}

export function guard(permission: Permission, options: Omit<AuthenticateOptions, "permission"> = {}) {
  return {
    // Authentication (with the permission check), the rate limit and idempotency, in that order.
    middleware: [protect(permission, options)],
    security: options.allowSession ? BEARER_OR_SESSION_SECURITY : BEARER_SECURITY,
    "x-permission": permission,
  };
}

export { requirePermission, tenantOf, type Principal } from "./principal";
export { ORGANIZATION_HEADER, WORKSPACE_HEADER } from "./authenticate";
