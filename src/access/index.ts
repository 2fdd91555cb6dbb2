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

export function guard(permission: Permission, options: Omit<AuthenticateOptions, "permission"> = {}) {
  return {
    // Authentication checks the permission itself: one middleware fewer on every guarded request.
    middleware: [authenticate({ ...options, permission }), rateLimit(), idempotency()] as MiddlewareHandler<AppEnv>[],
    security: options.allowSession ? BEARER_OR_SESSION_SECURITY : BEARER_SECURITY,
    "x-permission": permission,
  };
}

export { requirePermission, tenantOf, type Principal } from "./principal";
export { ORGANIZATION_HEADER, WORKSPACE_HEADER } from "./authenticate";
