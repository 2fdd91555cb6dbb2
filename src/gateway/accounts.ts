// The gateway account a request uses: the workspace's upstream credential for the host's environment.
import { and, eq } from "drizzle-orm";
import { openSecret } from "../lib/secret-box";
import type { Deps } from "../deps";
import { gatewayAccounts } from "../db/schema";
import { ApiError } from "../http/errors";
import { LIMITS } from "../config";
import { setBounded } from "../lib/bounded-map";
import { inTenant } from "../db/tenant-scope";
import type { Tenant, TenantInEnvironment } from "../lib/tenant";

/** A tenant's upstream credential: its gateway account and the decrypted key. */
export interface GatewayCredentials extends Tenant {
  accountId: string;
  /** The decrypted upstream API key; lives only in memory for this request. */
  upstreamKey: string;
}

// Per-isolate cache: a passthrough call then costs no D1 read or decryption for the credential. Writes
// in this isolate drop the entry at once; other isolates see a replaced or deleted account within
// LIMITS.gatewayCredentialCacheMs.
const cache = new Map<string, { credentials: GatewayCredentials; expiresAt: number }>();
const cacheKey = (t: TenantInEnvironment) => `${t.organizationId}:${t.workspaceId}:${t.environment}`;

/** Drops the cached credential of a workspace+environment (after the account is created, replaced or deleted). */
export function forgetGatewayAccount(tenant: TenantInEnvironment): void {
  cache.delete(cacheKey(tenant));
}

/** The credential of a tenant in one key environment (a request's principal, or a stored row's tenant in the host's environment). */
export async function resolveGatewayAccount(deps: Deps, tenant: TenantInEnvironment): Promise<GatewayCredentials> {
  const key = cacheKey(tenant);
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.expiresAt > now) return hit.credentials;
  const credentials = await readGatewayAccount(deps, tenant);
  setBounded(cache, key, { credentials, expiresAt: now + LIMITS.gatewayCredentialCacheMs }, LIMITS.gatewayCredentialCacheEntries);
  return credentials;
}

async function readGatewayAccount(deps: Deps, tenant: TenantInEnvironment): Promise<GatewayCredentials> {
  const row = await deps.db
    .select({ id: gatewayAccounts.id, sealed: gatewayAccounts.upstreamKeySealed })
    .from(gatewayAccounts)
    .where(and(inTenant(gatewayAccounts, tenant), eq(gatewayAccounts.environment, tenant.environment)))
    .get();
  if (!row) {
    throw new ApiError(
      "GATEWAY_ACCOUNT_MISSING",
      `This workspace has no gateway account for the ${tenant.environment} environment. Create one with POST /api/v1/gateway-accounts (your upstream API key) before calling the upstream.`,
      { workspaceId: tenant.workspaceId, environment: tenant.environment },
    );
  }
  return {
    accountId: row.id,
    organizationId: tenant.organizationId,
    workspaceId: tenant.workspaceId,
    upstreamKey: await openSecret(deps.env, row.sealed, row.id),
  };
}
