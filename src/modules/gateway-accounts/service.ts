// Gateway accounts: a workspace's upstream API key per environment (sealed at rest) and the inbound
// webhook token the upstream sends back. Neither the key nor the token hash ever leaves this file.
import { and, eq } from "drizzle-orm";
import { type Principal, requirePermission } from "../../access/principal";
import { openSecret, randomToken, sealSecret, sha256Hex } from "../../lib/secret-box";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { gatewayAccounts } from "../../db/schema";
import { forgetGatewayAccount, type GatewayCredentials } from "../../gateway/accounts";
import { callUpstream } from "../../gateway/client";
import { upstreamFailure } from "../../gateway/errors";
import { configureUpstreamWebhook, removeUpstreamWebhook } from "../../gateway/webhook-config";
import { publicOrigin } from "../../config";
import { ApiError, notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { auditEntry } from "../audit/service";
import { newestFirstPage } from "../../db/paging";
import { inTenant } from "../../db/tenant-scope";

type GatewayAccountRow = typeof gatewayAccounts.$inferSelect;

/** Where the upstream's webhooks for an account land: the deployment's public origin plus a fixed path. */
export function inboundWebhookUrl(deps: Deps, accountId: string): string {
  return `${publicOrigin(deps.env)}/api/v1/webhooks/upstream/${accountId}`;
}

function present(deps: Deps, row: GatewayAccountRow) {
  return {
    id: row.id,
    object: "gateway_account" as const,
    workspaceId: row.workspaceId,
    environment: row.environment,
    upstreamKeyLast4: row.upstreamKeyLast4,
    status: row.status,
    verifiedAt: row.verifiedAt,
    inboundWebhookUrl: inboundWebhookUrl(deps, row.id),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** 32 random bytes, base64url: the token the upstream presents on every inbound webhook. */
const newWebhookToken = () => randomToken(32);

const scope = (principal: Principal) => [inTenant(gatewayAccounts, principal)];

async function findAccount(deps: Deps, principal: Principal, id: string): Promise<GatewayAccountRow> {
  const row = await deps.db
    .select()
    .from(gatewayAccounts)
    .where(and(eq(gatewayAccounts.id, id), ...scope(principal)))
    .get();
  if (!row) throw notFound("gateway account", id);
  return row;
}

const credentialsOf = (row: GatewayAccountRow, upstreamKey: string): GatewayCredentials => ({
  accountId: row.id,
  organizationId: row.organizationId,
  workspaceId: row.workspaceId,
  upstreamKey,
});

const isUniqueViolation = (err: unknown) => /UNIQUE constraint failed/i.test(String((err as { cause?: unknown })?.cause ?? err));

export interface GatewayKeyInput {
  upstreamApiKey: string;
}

export async function createGatewayAccount(deps: Deps, principal: Principal, input: GatewayKeyInput) {
  requirePermission(principal, "gateway_accounts.manage");
  const conflict = () =>
    new ApiError(
      "CONFLICT",
      `This workspace already has a gateway account for the ${principal.environment} environment; replace its key with PATCH.`,
      {
        workspaceId: principal.workspaceId,
        environment: principal.environment,
      },
    );
  const existing = await deps.db
    .select({ id: gatewayAccounts.id })
    .from(gatewayAccounts)
    .where(and(...scope(principal), eq(gatewayAccounts.environment, principal.environment)))
    .get();
  if (existing) throw conflict();
  const id = newId();
  const token = newWebhookToken();
  const now = deps.now().toISOString();
  const row: GatewayAccountRow = {
    id,
    organizationId: principal.organizationId,
    workspaceId: principal.workspaceId,
    environment: principal.environment,
    upstreamKeySealed: await sealSecret(deps.env, input.upstreamApiKey, id),
    upstreamKeyLast4: input.upstreamApiKey.slice(-4),
    webhookTokenHash: await sha256Hex(token),
    status: "unverified",
    verifiedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.db.batch([
      deps.db.insert(gatewayAccounts).values(row),
      auditEntry(deps, principal, {
        action: "gateway_account.created",
        targetType: "gateway_account",
        targetId: id,
        metadata: { environment: row.environment, upstreamKeyLast4: row.upstreamKeyLast4 },
      }),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict();
    throw err;
  }
  forgetGatewayAccount(row);
  const upstreamWebhook = await configureUpstreamWebhook(
    deps,
    credentialsOf(row, input.upstreamApiKey),
    inboundWebhookUrl(deps, id),
    token,
  );
  return { ...present(deps, row), inboundWebhookToken: token, upstreamWebhook };
}

export async function listGatewayAccounts(deps: Deps, principal: Principal, page: PageRequest) {
  requirePermission(principal, "gateway_accounts.read");
  const where = and(...scope(principal));
  const { rows, totalCount } = await newestFirstPage(deps.db, gatewayAccounts, where, page);
  return { rows: rows.map((r) => present(deps, r)), totalCount };
}

export async function getGatewayAccount(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "gateway_accounts.read");
  return present(deps, await findAccount(deps, principal, id));
}

/** Replaces the upstream key; the account must be verified again. The webhook token is unchanged. */
export async function updateGatewayAccount(deps: Deps, principal: Principal, id: string, input: GatewayKeyInput) {
  requirePermission(principal, "gateway_accounts.manage");
  const row = await findAccount(deps, principal, id);
  const now = deps.now().toISOString();
  const changes = {
    upstreamKeySealed: await sealSecret(deps.env, input.upstreamApiKey, id),
    upstreamKeyLast4: input.upstreamApiKey.slice(-4),
    status: "unverified" as const,
    verifiedAt: null,
    updatedAt: now,
  };
  await deps.db.batch([
    deps.db.update(gatewayAccounts).set(changes).where(eq(gatewayAccounts.id, id)),
    auditEntry(deps, principal, {
      action: "gateway_account.key_replaced",
      targetType: "gateway_account",
      targetId: id,
      metadata: { upstreamKeyLast4: changes.upstreamKeyLast4 },
    }),
  ]);
  forgetGatewayAccount(row);
  return present(deps, { ...row, ...changes });
}

/** Asks the upstream whether the key works: 2xx → active, 401/403 → invalid_credentials; other failures change nothing. */
export async function verifyGatewayAccount(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "gateway_accounts.manage");
  const row = await findAccount(deps, principal, id);
  const key = await openSecret(deps.env, row.upstreamKeySealed, row.id);
  const result = await callUpstream(deps, credentialsOf(row, key), {
    operationId: "native:verify-gateway-account",
    method: "GET",
    path: "/v3/myAccount/status",
  });
  let status: GatewayAccountRow["status"];
  if (result.status >= 200 && result.status < 300) status = "active";
  else if (result.status === 401 || result.status === 403) status = "invalid_credentials";
  else throw upstreamFailure(result.status, result.body, result.headers) ?? new Error(`upstream status ${result.status} is not a failure`);
  const now = deps.now().toISOString();
  const changes = { status, verifiedAt: status === "active" ? now : row.verifiedAt, updatedAt: now };
  await deps.db.batch([
    deps.db.update(gatewayAccounts).set(changes).where(eq(gatewayAccounts.id, id)),
    auditEntry(deps, principal, {
      action: "gateway_account.verified",
      targetType: "gateway_account",
      targetId: id,
      metadata: { status, upstreamStatus: result.status },
    }),
  ]);
  return present(deps, { ...row, ...changes });
}

/** A new inbound token (shown once); the old one stops working at once. The upstream webhook is re-pointed best effort. */
export async function rotateWebhookToken(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "gateway_accounts.manage");
  const row = await findAccount(deps, principal, id);
  const token = newWebhookToken();
  const now = deps.now().toISOString();
  const changes = { webhookTokenHash: await sha256Hex(token), updatedAt: now };
  await deps.db.batch([
    deps.db.update(gatewayAccounts).set(changes).where(eq(gatewayAccounts.id, id)),
    auditEntry(deps, principal, { action: "gateway_account.webhook_token_rotated", targetType: "gateway_account", targetId: id }),
  ]);
  const key = await openSecret(deps.env, row.upstreamKeySealed, row.id);
  const upstreamWebhook = await configureUpstreamWebhook(deps, credentialsOf(row, key), inboundWebhookUrl(deps, id), token);
  return { ...present(deps, { ...row, ...changes }), inboundWebhookToken: token, upstreamWebhook };
}

/**
 * Deletes the account, then asks the upstream (best effort, with the key being deleted) to drop the
 * webhook config pointing at this account's inbound URL, which would otherwise keep sending events
 * Ponte can only refuse. The record goes first: a failed upstream call never keeps an account alive.
 */
export async function deleteGatewayAccount(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "gateway_accounts.manage");
  const row = await findAccount(deps, principal, id);
  await deps.db.batch([
    deps.db.delete(gatewayAccounts).where(eq(gatewayAccounts.id, id)),
    auditEntry(deps, principal, {
      action: "gateway_account.deleted",
      targetType: "gateway_account",
      targetId: id,
      metadata: { environment: row.environment },
    }),
  ]);
  forgetGatewayAccount(row);
  const key = await openSecret(deps.env, row.upstreamKeySealed, row.id);
  const upstreamWebhook = await removeUpstreamWebhook(deps, credentialsOf(row, key), inboundWebhookUrl(deps, id));
  return { ...present(deps, row), upstreamWebhook };
}
