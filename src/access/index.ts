// What a protected route spreads into `createRoute`: authenticate, check the permission, rate-limit
// per credential, then idempotency (which needs the organization the credential belongs to). The
// same call documents the permission (`x-permission`) and the security schemes.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/app-env";
import { idempotency } from "../http/idempotency";
import { rateLimit } from "../http/rate-limit";
import { authenticate, type AuthenticateOptions } from "./authenticate";
import type { Permission } from "../lib/permissions";

type SecurityRequirement = Record<string, string[]>[];
export const BEARER_SECURITY: SecurityRequirement = [{ bearerAuth: [] }];
export const BEARER_OR_SESSION_SECURITY: SecurityRequirement = [{ bearerAuth: [] }, { sessionCookie: [] }];

/**
 * The guard's steps as one middleware, each handed the next as its `next`: Hono's chain would spend a
 * dispatch frame on each (bench:js). The same behaviour as three layers: none of the steps does
 * anything after its `next` that an error thrown by a later step would skip (authentication and the
 * rate limit have nothing after it; idempotency's `next` is Hono's, which turns the route's errors
 * into the error response before returning), and an error a step throws reaches Hono's error handler
 * as it did.
 */
function protect(permission: Permission, options: Omit<AuthenticateOptions, "permission">): MiddlewareHandler<AppEnv> {
  const authenticateCaller = authenticate({ ...options, permission });
  const limit = rateLimit();
  const claimKey = idempotency();
  return async (c, next) => {
    // A step that answers by returning a Response (not one of these today) is adopted as Hono would.
    const adopt = (res: unknown) => {
      if (res instanceof Response && !c.finalized) c.res = res;
    };
    await authenticateCaller(c, () => limit(c, () => claimKey(c, next).then(adopt)).then(adopt));
  };
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
