// The gateway account a request uses: the workspace's upstream credential for the host's environment.
import { and, eq } from "drizzle-orm";
import { openSecret } from "../auth/secret-box";
import type { Principal } from "../auth/principal";
import type { Deps } from "../deps";
import { gatewayAccounts } from "../db/schema";
import { ApiError } from "../http/errors";
import { LIMITS } from "../config";

export interface GatewayCredentials {
  accountId: string;
  organizationId: string;
  workspaceId: string;
  /** The decrypted upstream API key; lives only in memory for this request. */
  upstreamKey: string;
}

// Per-isolate cache: a passthrough call then costs no D1 read or decryption for the credential. Writes
// in this isolate drop the entry at once; other isolates see a replaced or deleted account within
// LIMITS.gatewayCredentialCacheMs.
const cache = new Map<string, { credentials: GatewayCredentials; expiresAt: number }>();
const cacheKey = (t: { organizationId: string; workspaceId: string; environment: string }) => `${t.organizationId}:${t.workspaceId}:${t.environment}`;

/** Drops the cached credential of a workspace+environment (after the account is created, replaced or deleted). */
export function forgetGatewayAccount(tenant: { organizationId: string; workspaceId: string; environment: string }): void {
  cache.delete(cacheKey(tenant));
}

export async function resolveGatewayAccount(deps: Deps, principal: Principal): Promise<GatewayCredentials> {
  const key = cacheKey(principal);
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.expiresAt > now) return hit.credentials;
  const credentials = await readGatewayAccount(deps, principal);
  if (cache.size >= LIMITS.gatewayCredentialCacheEntries) cache.delete(cache.keys().next().value!);
  cache.set(key, { credentials, expiresAt: now + LIMITS.gatewayCredentialCacheMs });
  return credentials;
}

async function readGatewayAccount(deps: Deps, principal: Principal): Promise<GatewayCredentials> {
  const row = await deps.db
    .select({ id: gatewayAccounts.id, sealed: gatewayAccounts.upstreamKeySealed })
    .from(gatewayAccounts)
    .where(and(eq(gatewayAccounts.workspaceId, principal.workspaceId), eq(gatewayAccounts.organizationId, principal.organizationId), eq(gatewayAccounts.environment, principal.environment)))
    .get();
  if (!row) {
    throw new ApiError(
      "GATEWAY_ACCOUNT_MISSING",
      `This workspace has no gateway account for the ${principal.environment} environment. Create one with POST /api/v1/gateway-accounts (your upstream API key) before calling the upstream.`,
      { workspaceId: principal.workspaceId, environment: principal.environment },
    );
  }
  return {
    accountId: row.id,
    organizationId: principal.organizationId,
    workspaceId: principal.workspaceId,
    upstreamKey: await openSecret(deps.env.SECRETS_ENCRYPTION_KEY, row.sealed, row.id),
  };
}
