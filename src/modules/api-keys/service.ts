// Issuing, listing, revoking and rotating API keys. Secrets exist only in the create/rotate answer.
import { and, eq, isNull, type SQL } from "drizzle-orm";
import { inCredentialScope } from "../../db/tenant-scope";
import { generateApiKeySecret, displayParts, hashApiKey } from "../../access/api-key-secret";
import { forgetApiKey } from "../../access/key-cache";
import { isPermission } from "../../lib/permissions";
import { type Principal, requirePermission } from "../../access/principal";
import { keyEnvironmentFor } from "../../config";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { apiKeys, workspaces } from "../../db/schema";
import { ApiError, notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { auditEntry } from "../audit/service";
import { closeListenStreamsOf } from "../listen/service";
import { newestFirstPage } from "../../db/paging";

type ApiKeyRow = typeof apiKeys.$inferSelect;

export function presentApiKey(row: ApiKeyRow) {
  return {
    id: row.id,
    object: "api_key" as const,
    name: row.name,
    environment: row.environment,
    workspaceId: row.workspaceId,
    permissions: row.permissions,
    displayPrefix: row.displayPrefix,
    last4: row.last4,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
    replacedBy: row.replacedBy,
  };
}

function scope(principal: Principal): SQL[] {
  return [inCredentialScope(apiKeys, principal)];
}

/**
 * A credential may create, rotate or revoke only a key whose every permission it holds itself: it can never
 * mint a more powerful key, nor take one away from (or re-issue one for) a more powerful holder.
 * 403 FORBIDDEN with `details.missingPermissions`.
 */
function assertHoldsAll(principal: Principal, permissions: readonly string[], verb: "grant" | "rotate" | "revoke"): void {
  const missing = [...new Set(permissions.filter((p) => !isPermission(p) || !principal.permissions.has(p)))].sort();
  if (missing.length === 0) return;
  const what = verb === "grant" ? "grant permissions you do not hold" : `${verb} a key holding permissions you do not hold`;
  throw new ApiError("FORBIDDEN", `You cannot ${what}: ${missing.join(", ")}.`, { missingPermissions: missing });
}

export interface CreateApiKeyInput {
  name: string;
  permissions: string[];
  workspaceId?: string | null | undefined;
  environment?: "live" | "test" | undefined;
}

async function buildKey(deps: Deps, principal: Principal, input: CreateApiKeyInput) {
  const hostEnvironment = keyEnvironmentFor(deps.env.ENVIRONMENT);
  const environment = input.environment ?? hostEnvironment;
  if (environment !== hostEnvironment) {
    throw new ApiError(
      "VALIDATION_FAILED",
      `This host issues ${hostEnvironment} keys only; create ${environment} keys on the ${environment === "live" ? "production" : "sandbox"} host.`,
      {
        fields: [{ path: "body.environment", message: `must be '${hostEnvironment}' on this host`, code: "invalid_value" }],
      },
    );
  }
  assertHoldsAll(principal, input.permissions, "grant");
  let workspaceId = input.workspaceId ?? null;
  if (principal.workspaceRestricted) {
    if (workspaceId !== null && workspaceId !== principal.workspaceId) throw notFound("workspace", workspaceId);
    workspaceId = principal.workspaceId;
  }
  if (workspaceId !== null) {
    const ws = await deps.db
      .select({ id: workspaces.id, archivedAt: workspaces.archivedAt })
      .from(workspaces)
      .where(and(eq(workspaces.id, workspaceId), eq(workspaces.organizationId, principal.organizationId)))
      .get();
    if (!ws) throw notFound("workspace", workspaceId);
    if (ws.archivedAt) throw new ApiError("INVALID_STATE", "The workspace is archived.", { workspaceId, status: "archived" });
  }
  const secret = generateApiKeySecret(environment);
  const now = deps.now().toISOString();
  const row: ApiKeyRow = {
    id: newId(),
    organizationId: principal.organizationId,
    workspaceId,
    environment,
    name: input.name,
    keyHash: await hashApiKey(secret),
    ...displayParts(secret),
    permissions: [...new Set(input.permissions)].sort(),
    createdBy: principal.actorId,
    lastUsedAt: null,
    revokedAt: null,
    replacedBy: null,
    createdAt: now,
    updatedAt: now,
  };
  return { row, secret };
}

export async function createApiKey(deps: Deps, principal: Principal, input: CreateApiKeyInput) {
  requirePermission(principal, "api_keys.manage");
  const { row, secret } = await buildKey(deps, principal, input);
  await deps.db.batch([
    deps.db.insert(apiKeys).values(row),
    auditEntry(deps, principal, {
      action: "api_key.created",
      targetType: "api_key",
      targetId: row.id,
      metadata: { name: row.name, permissions: row.permissions },
    }),
  ]);
  return { ...presentApiKey(row), secret };
}

export async function listApiKeys(deps: Deps, principal: Principal, page: PageRequest) {
  requirePermission(principal, "api_keys.read");
  const where = and(...scope(principal));
  const { rows, totalCount } = await newestFirstPage(deps.db, apiKeys, where, page);
  return { rows: rows.map(presentApiKey), totalCount };
}

async function findKey(deps: Deps, principal: Principal, id: string): Promise<ApiKeyRow> {
  const row = await deps.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), ...scope(principal)))
    .get();
  if (!row) throw notFound("API key", id);
  return row;
}

export async function getApiKey(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "api_keys.read");
  return presentApiKey(await findKey(deps, principal, id));
}

export async function revokeApiKey(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "api_keys.manage");
  const row = await findKey(deps, principal, id);
  assertHoldsAll(principal, row.permissions, "revoke");
  if (row.revokedAt) return presentApiKey(row);
  const now = deps.now().toISOString();
  await deps.db.batch([
    deps.db
      .update(apiKeys)
      .set({ revokedAt: now, updatedAt: now })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))),
    auditEntry(deps, principal, { action: "api_key.revoked", targetType: "api_key", targetId: id }),
  ]);
  forgetApiKey(row.keyHash);
  await closeListenStreamsOf(deps, row, "the API key has been revoked");
  return presentApiKey({ ...row, revokedAt: now, updatedAt: now });
}

/** A new key with the same name, scope and permissions; the old one is revoked in the same batch. */
export async function rotateApiKey(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "api_keys.manage");
  const old = await findKey(deps, principal, id);
  assertHoldsAll(principal, old.permissions, "rotate");
  if (old.revokedAt) throw new ApiError("INVALID_STATE", "A revoked key cannot be rotated.", { status: "revoked" });
  const { row, secret } = await buildKey(deps, principal, {
    name: old.name,
    permissions: old.permissions,
    workspaceId: old.workspaceId,
    environment: old.environment,
  });
  const now = row.createdAt;
  await deps.db.batch([
    deps.db.insert(apiKeys).values(row),
    deps.db.update(apiKeys).set({ revokedAt: now, replacedBy: row.id, updatedAt: now }).where(eq(apiKeys.id, old.id)),
    auditEntry(deps, principal, { action: "api_key.rotated", targetType: "api_key", targetId: old.id, metadata: { replacedBy: row.id } }),
  ]);
  forgetApiKey(old.keyHash);
  await closeListenStreamsOf(deps, old, "the API key has been rotated");
  return { ...presentApiKey(row), secret };
}
