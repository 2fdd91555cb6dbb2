// The gateway account a request uses: the workspace's upstream credential for the host's environment.
import { and, eq } from "drizzle-orm";
import { openSecret } from "../auth/secret-box";
import type { Principal } from "../auth/principal";
import type { Deps } from "../deps";
import { gatewayAccounts } from "../db/schema";
import { ApiError } from "../http/errors";

export interface GatewayCredentials {
  accountId: string;
  organizationId: string;
  workspaceId: string;
  /** The decrypted upstream API key; lives only in memory for this request. */
  upstreamKey: string;
}

export async function resolveGatewayAccount(deps: Deps, principal: Principal): Promise<GatewayCredentials> {
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
