// Bearer-key authentication and tenant selection, in at most one D1 query per request.
import type { Context, MiddlewareHandler } from "hono";
import { type KeyEnvironment, keyEnvironmentFor, LIMITS } from "../config";
import type { AppEnv } from "../http/app-env";
import { asaasKeyOf } from "../http/asaas-key";
import { ApiError } from "../http/errors";
import { rateLimitKeyFor } from "../http/rate-limit";
import { hashPresentedApiKey, keyEnvironmentOf, knownPresentedHash } from "./api-key-secret";
import { cachedKeyLookup, freshKeyRow } from "./key-cache";
import { expandStoredPermissions, type Permission } from "../lib/permissions";
import { type Principal, requirePermission } from "./principal";
import { sessionPrincipal } from "./session-auth";
import { ORGANIZATION_HEADER, WORKSPACE_HEADER } from "../http/tenant-headers";

export { ORGANIZATION_HEADER, WORKSPACE_HEADER };

interface KeyRow {
  id: string;
  organization_id: string;
  workspace_id: string | null;
  environment: "live" | "test";
  permissions: string;
  revoked_at: string | null;
  last_used_at: string | null;
  default_workspace_id: string | null;
  selected_workspace_id: string | null;
  selected_workspace_archived_at: string | null;
  /** `last_used_at` in epoch ms, parsed once per cached row (not a column). */
  lastUsedMs?: number;
  /** What the row grants, built once per cached row (not a column; a re-read row builds its own). */
  principal?: Principal;
  /** What the rate limiter counts this key as, once per cached row (not a column). */
  rateLimitKey?: string;
}

// One statement: the key, its organization's default workspace, and the workspace the header names
// (only if it belongs to the key's organization).
const KEY_LOOKUP = `
  SELECT k.id, k.organization_id, k.workspace_id, k.environment, k.permissions, k.revoked_at, k.last_used_at,
         o.default_workspace_id,
         w.id AS selected_workspace_id, w.archived_at AS selected_workspace_archived_at
    FROM api_keys k
    JOIN organizations o ON o.id = k.organization_id
    LEFT JOIN workspaces w ON w.id = COALESCE(?2, k.workspace_id, o.default_workspace_id) AND w.organization_id = k.organization_id
   WHERE k.key_hash = ?1`;

const unauthorized = (message: string) => new ApiError("UNAUTHORIZED", message);

const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** `Bearer ` then at least one character, none of them whitespace: the token is the rest. */
const PLAIN_TOKEN = /^Bearer \S+$/;

/**
 * The API key: `Authorization: Bearer <key>`, or (only when Authorization is absent) Asaas's
 * `access_token: <key>` / `access-token: <key>` (the Asaas dialect, src/http/asaas-key.ts).
 */
export function bearerToken(c: Context): string | null {
  const headers = c.req.raw.headers;
  const header = headers.get("authorization");
  if (!header) return asaasKeyOf(headers);
  // The usual spelling, `Bearer <token>` with one space and no other whitespace, is sliced without a match array.
  if (PLAIN_TOKEN.test(header)) return header.slice(7);
  const token = BEARER.exec(header)?.[1];
  if (!token) throw unauthorized("Authorization header must be 'Bearer <API key>'.");
  return token;
}

/**
 * The Principal of a presented API key. A key this isolate hashed recently whose row it read within
 * LIMITS.apiKeyCacheFreshMs (nearly every request of an integration) is answered synchronously: no
 * promise, closure or lookup options per request; anything else waits for the hash or the row.
 */
function apiKeyPrincipal(c: Context<AppEnv>, secret: string): Principal | Promise<Principal> {
  const claimed = checkedKeyEnvironment(c, secret);
  const headerWorkspace = c.req.header(WORKSPACE_HEADER) ?? null;
  const now = Date.now();
  const keyHash = knownPresentedHash(secret);
  const row = keyHash === undefined ? undefined : freshKeyRow<KeyRow>(keyHash, headerWorkspace ?? "", now);
  return row && keyHash !== undefined
    ? principalOfRow(c, row, claimed, headerWorkspace, keyHash, now)
    : lookedUpPrincipal(c, secret, claimed, headerWorkspace);
}

/** The environment the key claims, which must be this host's: decided before any lookup, so a live key never touches the sandbox database and vice versa. */
function checkedKeyEnvironment(c: Context<AppEnv>, secret: string): KeyEnvironment {
  const expected = keyEnvironmentFor(c.env.ENVIRONMENT);
  const claimed = keyEnvironmentOf(secret);
  if (!claimed) throw unauthorized("Invalid API key.");
  if (claimed !== expected) {
    throw new ApiError(
      "ENVIRONMENT_MISMATCH",
      `This host accepts ${expected} keys (ponte_${expected}_…); the key sent is a ${claimed} key.`,
      {
        hostEnvironment: c.env.ENVIRONMENT,
        keyEnvironment: claimed,
      },
    );
  }
  return claimed;
}

async function lookedUpPrincipal(
  c: Context<AppEnv>,
  secret: string,
  claimed: KeyEnvironment,
  headerWorkspace: string | null,
): Promise<Principal> {
  const keyHash = await hashPresentedApiKey(secret);
  const row = await cachedKeyLookup<KeyRow>({
    keyHash,
    variant: headerWorkspace ?? "",
    load: () => c.env.DB.prepare(KEY_LOOKUP).bind(keyHash, headerWorkspace).first<KeyRow>(),
    waitUntil: c.get("deps").waitUntil,
  });
  return principalOfRow(c, row, claimed, headerWorkspace, keyHash, Date.now());
}

/** What the key's row grants this request, after every check the row and the tenant headers call for. */
function principalOfRow(
  c: Context<AppEnv>,
  row: KeyRow | null,
  claimed: KeyEnvironment,
  headerWorkspace: string | null,
  keyHash: string,
  now: number,
): Principal {
  if (!row || row.environment !== claimed) throw unauthorized("Invalid API key.");
  if (row.revoked_at) throw unauthorized("This API key has been revoked.");

  const headerOrg = c.req.header(ORGANIZATION_HEADER);
  if (headerOrg !== undefined && headerOrg !== row.organization_id) {
    throw new ApiError("FORBIDDEN", "This API key does not belong to the organization named in X-Organization-Id.", {
      organizationId: headerOrg,
    });
  }
  if (headerWorkspace !== null) {
    const restricted = row.workspace_id !== null && row.workspace_id !== headerWorkspace;
    if (restricted || row.selected_workspace_id === null) {
      throw new ApiError("FORBIDDEN", "This API key does not have access to the workspace named in X-Workspace-Id.", {
        workspaceId: headerWorkspace,
      });
    }
  }
  if (row.selected_workspace_id === null) throw new ApiError("FORBIDDEN", "The organization has no workspace to act in.");
  if (row.selected_workspace_archived_at) {
    throw new ApiError("FORBIDDEN", "The workspace is archived; it accepts no API requests.", { workspaceId: row.selected_workspace_id });
  }

  touchLastUsed(c, row, now);
  row.rateLimitKey ??= rateLimitKeyFor("api_key", keyHash.slice(0, 32));
  c.set("rateLimitKey", row.rateLimitKey);
  // Shared by the requests the cached row answers: a Principal is never modified (a narrower one is a copy).
  row.principal ??= {
    kind: "api_key",
    actorId: row.id,
    organizationId: row.organization_id,
    workspaceId: row.selected_workspace_id,
    environment: row.environment,
    workspaceRestricted: row.workspace_id !== null,
    permissions: expandStoredPermissions(row.permissions),
  };
  return row.principal;
}

// Off the request path and at most once a minute per key, so a read stays at one query.
function touchLastUsed(c: Context<AppEnv>, row: KeyRow, now: number) {
  row.lastUsedMs ??= row.last_used_at ? Date.parse(row.last_used_at) : Number.NEGATIVE_INFINITY;
  if (now - row.lastUsedMs < LIMITS.apiKeyLastUsedResolutionSeconds * 1000) return;
  row.lastUsedMs = now; // the cached row too, so the next request skips the write
  row.last_used_at = new Date(now).toISOString();
  c.get("deps").waitUntil(c.env.DB.prepare("UPDATE api_keys SET last_used_at = ?1 WHERE id = ?2").bind(row.last_used_at, row.id).run());
}

export interface AuthenticateOptions {
  /** Also accept the console's session cookie (native subscription routes and the control plane). */
  allowSession?: boolean;
  /**
   * The permission the route needs, checked as soon as the caller is known (403 FORBIDDEN naming it):
   * in the same middleware, so a guarded route's chain is one layer shorter (src/access/index.ts).
   */
  permission?: Permission;
}

/**
 * Sets `principal` (and checks its permission when given) or throws the 401/403 ApiError. Synchronous
 * when the key is answered from memory; a promise otherwise (a lookup, the console's session).
 */
export function authenticateRequest(c: Context<AppEnv>, options: AuthenticateOptions): void | Promise<void> {
  const token = bearerToken(c);
  if (token === null) return authenticateSession(c, options);
  const principal = apiKeyPrincipal(c, token);
  if (principal instanceof Promise) return principal.then((p) => admit(c, p, options));
  admit(c, principal, options);
}

function admit(c: Context<AppEnv>, principal: Principal, options: AuthenticateOptions): void {
  c.set("principal", principal);
  if (options.permission !== undefined) requirePermission(principal, options.permission);
}

async function authenticateSession(c: Context<AppEnv>, options: AuthenticateOptions): Promise<void> {
  const session = options.allowSession ? await sessionPrincipal(c) : null;
  if (!session) {
    throw unauthorized(
      options.allowSession
        ? "Authentication required: send 'Authorization: Bearer <API key>' or sign in to the console."
        : "Authentication required: send 'Authorization: Bearer <API key>'.",
    );
  }
  admit(c, session, options);
}

/** Route middleware: sets `principal` (and checks its permission when given) or answers 401/403 in the error envelope. */
export const authenticate =
  (options: AuthenticateOptions = {}): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    await authenticateRequest(c, options);
    await next();
  };
