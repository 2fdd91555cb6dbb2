// Who is calling, for which tenant, with which rights: what authentication hands every route.
import type { KeyEnvironment } from "../config";
import { ApiError } from "../http/errors";
import type { Permission } from "./permissions";

export interface Principal {
  kind: "api_key" | "session";
  /** The API key id or the console user id; what the audit trail records as the actor. */
  actorId: string;
  organizationId: string;
  /** The workspace this request acts in (the key's own, the X-Workspace-Id header's, or the organization's default). */
  workspaceId: string;
  environment: KeyEnvironment;
  /** True when the credential is bound to one workspace and may not act for the whole organization. */
  workspaceRestricted: boolean;
  permissions: ReadonlySet<Permission>;
}

export function requirePermission(principal: Principal, permission: Permission): void {
  if (!principal.permissions.has(permission)) {
    throw new ApiError("FORBIDDEN", `This credential lacks the '${permission}' permission.`, { requiredPermission: permission });
  }
}

/** Tenant filter values for queries: every row of tenant data carries both. */
export const tenantOf = (p: Principal) => ({ organizationId: p.organizationId, workspaceId: p.workspaceId });
