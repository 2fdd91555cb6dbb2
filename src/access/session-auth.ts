// Console session cookies as an API credential (guard(…, { allowSession: true })). Writes must be same-origin.
import type { Context } from "hono";
import type { AppEnv } from "../http/app-env";
import { ORGANIZATION_HEADER, WORKSPACE_HEADER } from "../http/tenant-headers";
import type { Principal } from "./principal";
import { isWriteMethod, requireSameOrigin } from "./same-origin";
import { resolveSession, sessionTokenOf } from "./session";

export async function sessionPrincipal(c: Context<AppEnv>): Promise<Principal | null> {
  const token = sessionTokenOf(c);
  if (!token) return null;
  if (isWriteMethod(c.req.method)) requireSameOrigin(c);
  return resolveSession(
    c.env,
    token,
    { organizationId: c.req.header(ORGANIZATION_HEADER), workspaceId: c.req.header(WORKSPACE_HEADER) },
    new Date(),
  );
}
