// The permission check every route and service applies to the caller (the Principal type itself is
// in src/lib/principal.ts, so that lower layers can name it).
import { ApiError } from "../http/errors";
import type { Permission } from "../lib/permissions";
import type { Principal } from "../lib/principal";

export type { Principal } from "../lib/principal";
export { tenantOf } from "../lib/tenant";

export function requirePermission(principal: Principal, permission: Permission): void {
  if (!principal.permissions.has(permission)) {
    throw new ApiError("FORBIDDEN", `This credential lacks the '${permission}' permission.`, { requiredPermission: permission });
  }
}
