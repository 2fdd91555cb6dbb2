// Console sessions: a random 32-byte token in the `ponte_session` cookie, stored only as its SHA-256.
// One query turns a token plus an optional organization/workspace choice into a Principal.
import type { Context } from "hono";
import { getCookie, setCookie, deleteCookie } from "hono/cookie";
import { keyEnvironmentFor, LIMITS, type Env } from "../config";
import { ApiError } from "../http/errors";
import { ROLE_PERMISSION_SETS, type Role } from "../lib/permissions";
import type { Principal } from "./principal";
import { randomToken, sha256Hex } from "../lib/secret-box";

export const SESSION_COOKIE = "ponte_session";

export const newSessionToken = () => randomToken(32);

export const hashSessionToken = sha256Hex;

/** HttpOnly (no script reads it), Secure (HTTPS only; browsers allow it on http://localhost), SameSite=Lax, Path=/. */
export function setSessionCookie(c: Context, token: string): void {
  setCookie(c, SESSION_COOKIE, token, { httpOnly: true, secure: true, sameSite: "Lax", path: "/", maxAge: LIMITS.sessionTtlSeconds });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { httpOnly: true, secure: true, sameSite: "Lax", path: "/" });
}

export const sessionTokenOf = (c: Context): string | null => getCookie(c, SESSION_COOKIE) || null;

export interface TenantChoice {
  organizationId?: string | null | undefined;
  workspaceId?: string | null | undefined;
}

interface SessionRow {
  session_id: string;
  user_id: string;
  organization_id: string | null;
  role: Role | null;
  workspace_id: string | null;
  workspace_archived_at: string | null;
}

// The session, the chosen (or first) membership, and the chosen (or default) workspace of that organization.
const SESSION_LOOKUP = `
  SELECT s.id AS session_id, s.user_id, m.organization_id, m.role,
         w.id AS workspace_id, w.archived_at AS workspace_archived_at
    FROM sessions s
    LEFT JOIN memberships m ON m.user_id = s.user_id AND (?2 IS NULL OR m.organization_id = ?2)
    LEFT JOIN organizations o ON o.id = m.organization_id
    LEFT JOIN workspaces w ON w.id = COALESCE(?3, o.default_workspace_id) AND w.organization_id = m.organization_id
   WHERE s.token_hash = ?1 AND s.expires_at > ?4
   ORDER BY m.created_at, m.organization_id
   LIMIT 1`;

export interface SessionPrincipal extends Principal {
  kind: "session";
  sessionId: string;
  role: Role;
}

/** Null when the token names no live session; 403 when the choice names a tenant the user may not act in. */
export async function resolveSession(env: Env, token: string, choice: TenantChoice, now: Date): Promise<SessionPrincipal | null> {
  const organizationId = choice.organizationId ?? null;
  const workspaceId = choice.workspaceId ?? null;
  const row = await env.DB.prepare(SESSION_LOOKUP)
    .bind(await hashSessionToken(token), organizationId, workspaceId, now.toISOString())
    .first<SessionRow>();
  if (!row) return null;
  if (!row.organization_id || !row.role) {
    if (organizationId)
      throw new ApiError("FORBIDDEN", "You are not a member of the organization named in X-Organization-Id.", { organizationId });
    throw new ApiError("FORBIDDEN", "You are not a member of any organization.");
  }
  if (!row.workspace_id) {
    if (workspaceId)
      throw new ApiError("FORBIDDEN", "The workspace named in X-Workspace-Id does not belong to this organization.", { workspaceId });
    throw new ApiError("FORBIDDEN", "The organization has no workspace to act in.");
  }
  if (row.workspace_archived_at)
    throw new ApiError("FORBIDDEN", "The workspace is archived; it accepts no requests.", { workspaceId: row.workspace_id });
  return {
    kind: "session",
    sessionId: row.session_id,
    actorId: row.user_id,
    organizationId: row.organization_id,
    workspaceId: row.workspace_id,
    environment: keyEnvironmentFor(env.ENVIRONMENT),
    workspaceRestricted: false,
    role: row.role,
    permissions: ROLE_PERMISSION_SETS[row.role],
  };
}
