// Who is calling, for which tenant, with which rights: what authentication hands every route.
import type { Permission } from "./permissions";
import type { TenantInEnvironment } from "./tenant";

export interface Principal extends TenantInEnvironment {
  kind: "api_key" | "session";
  /** The API key id or the console user id; what the audit trail records as the actor. */
  actorId: string;
  /** The workspace this request acts in (the key's own, the X-Workspace-Id header's, or the organization's default). */
  workspaceId: string;
  /** True when the credential is bound to one workspace and may not act for the whole organization. */
  workspaceRestricted: boolean;
  permissions: ReadonlySet<Permission>;
}
