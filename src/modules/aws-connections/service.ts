// AWS connections (PLATFORM.md): where a workspace's AWS costs come from. ACCESS_KEY keeps the secret
// sealed (AES-GCM, the connection id as context) and never answers it; ROLE keeps a role ARN and the
// external id Ponte generated, and is reached by AssumeRole with the platform's own credentials.
import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { newestFirstPage } from "../../db/paging";
import { awsConnections, costCategories } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { ApiError, notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { formatExchangeRate, parseExchangeRate } from "../../lib/exchange";
import { newId } from "../../lib/ids";
import { openSecret, randomToken, sealSecret } from "../../lib/secret-box";
import type { Tenant } from "../../lib/tenant";
import { auditEntry } from "../audit/service";
import { AwsCallError, type AwsCredentials, assumeRole, getCallerIdentity } from "./aws-client";
import { logLine, summarizeError } from "../../lib/log";

export type AwsConnectionRow = typeof awsConnections.$inferSelect;

const AuthType = z.enum(["ROLE", "ACCESS_KEY"]);
const Status = z.enum(["PENDING", "ACTIVE", "FAILED", "DISABLED"]);
const RoleArn = z
  .string()
  .regex(/^arn:aws:iam::\d{12}:role\/[\w+=,.@/-]{1,64}$/, "an IAM role ARN: arn:aws:iam::<12-digit account>:role/<name>")
  .openapi({ example: "arn:aws:iam::123456789012:role/PonteCostReader" });
const AccessKeyId = z
  .string()
  .regex(/^[A-Z0-9]{16,128}$/, "an AWS access key id (uppercase letters and digits, e.g. AKIA…)")
  .openapi({ example: "AKIAIOSFODNN7EXAMPLE" });
const SecretAccessKey = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[\x21-\x7e]*$/, "must be printable ASCII characters, without spaces")
  .openapi({ description: "Write-only: stored encrypted, never returned." });
const ExchangeRate = z
  .union([z.string(), z.number()])
  .openapi({ type: "string", example: "5.40", description: "BRL per USD applied to imported costs (≤ 6 decimals)." });

export const CreateAwsConnectionBody = z
  .object({
    name: z.string().trim().min(1).max(120),
    authType: AuthType,
    roleArn: RoleArn.optional().openapi({ description: "ROLE only." }),
    accessKeyId: AccessKeyId.optional().openapi({ description: "ACCESS_KEY only." }),
    secretAccessKey: SecretAccessKey.optional(),
    costCategoryId: z.uuid().optional().openapi({ description: "Where imported costs are filed; default the `infrastructure` category." }),
    exchangeRate: ExchangeRate,
  })
  .strict()
  .openapi("CreateAwsConnection");

export const UpdateAwsConnectionBody = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    roleArn: RoleArn.optional(),
    accessKeyId: AccessKeyId.optional(),
    secretAccessKey: SecretAccessKey.optional(),
    costCategoryId: z.uuid().optional(),
    exchangeRate: ExchangeRate.optional(),
    disabled: z.boolean().optional().openapi({ description: "true: DISABLED (no sync); false: back to PENDING until verified." }),
  })
  .strict()
  .openapi("UpdateAwsConnection");

export const AwsConnection = z
  .object({
    id: z.uuid(),
    object: z.literal("aws_connection"),
    name: z.string(),
    authType: AuthType,
    roleArn: z.string().nullable(),
    externalId: z.string().nullable().openapi({ description: "ROLE: put it in the role's trust policy (sts:ExternalId)." }),
    accessKeyId: z.string().nullable(),
    costCategoryId: z.uuid(),
    exchangeRate: z.string(),
    granularity: z.literal("DAILY"),
    groupBy: z.literal("SERVICE"),
    status: Status,
    awsAccountId: z.string().nullable(),
    lastVerifiedAt: z.string().nullable(),
    lastSyncedAt: z.string().nullable(),
    lastError: z.string().nullable(),
    syncedThrough: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("AwsConnection");

/** Everything but the secret, which never leaves this module. */
export function presentAwsConnection(row: AwsConnectionRow) {
  return {
    id: row.id,
    object: "aws_connection" as const,
    name: row.name,
    authType: row.authType,
    roleArn: row.roleArn,
    externalId: row.externalId,
    accessKeyId: row.accessKeyId,
    costCategoryId: row.costCategoryId,
    exchangeRate: formatExchangeRate(row.exchangeRateMicros),
    granularity: "DAILY" as const,
    groupBy: "SERVICE" as const,
    status: row.status,
    awsAccountId: row.awsAccountId,
    lastVerifiedAt: row.lastVerifiedAt,
    lastSyncedAt: row.lastSyncedAt,
    lastError: row.lastError,
    syncedThrough: row.syncedThrough,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const fieldError = (path: string, message: string) =>
  new ApiError("VALIDATION_FAILED", `Invalid request body: ${path}.`, { fields: [{ path, message, code: "custom" }] });

function rateMicros(input: unknown): number {
  const parsed = parseExchangeRate(input);
  if (!parsed.ok) throw fieldError("body.exchangeRate", parsed.reason);
  return parsed.micros;
}

export async function findAwsConnectionRow(deps: Deps, tenant: Tenant, id: string): Promise<AwsConnectionRow> {
  const row = await deps.db
    .select()
    .from(awsConnections)
    .where(and(eq(awsConnections.id, id), inTenant(awsConnections, tenant)))
    .get();
  if (!row) throw notFound("aws connection", id);
  return row;
}

/** The category imported costs go to: the one named (of this tenant, not archived), else `infrastructure`. */
async function resolveCategory(deps: Deps, tenant: Tenant, id: string | undefined): Promise<string> {
  const row = await deps.db
    .select()
    .from(costCategories)
    .where(and(inTenant(costCategories, tenant), id ? eq(costCategories.id, id) : eq(costCategories.key, "infrastructure")))
    .get();
  if (!row) {
    if (id) throw notFound("cost category", id);
    throw fieldError("body.costCategoryId", "required: this workspace has no `infrastructure` category to default to");
  }
  if (row.archived) throw fieldError("body.costCategoryId", "this cost category is archived");
  return row.id;
}

export async function createAwsConnection(deps: Deps, principal: Principal, input: z.infer<typeof CreateAwsConnectionBody>) {
  requirePermission(principal, "finance.manage");
  const tenant = tenantOf(principal);
  if (input.authType === "ROLE") {
    if (!input.roleArn) throw fieldError("body.roleArn", "required for authType ROLE");
    if (input.accessKeyId || input.secretAccessKey) throw fieldError("body.accessKeyId", "only for authType ACCESS_KEY");
  } else {
    if (!input.accessKeyId) throw fieldError("body.accessKeyId", "required for authType ACCESS_KEY");
    if (!input.secretAccessKey) throw fieldError("body.secretAccessKey", "required for authType ACCESS_KEY");
    if (input.roleArn) throw fieldError("body.roleArn", "only for authType ROLE");
  }
  const exchangeRateMicros = rateMicros(input.exchangeRate);
  const costCategoryId = await resolveCategory(deps, tenant, input.costCategoryId);
  const id = newId();
  const now = deps.now().toISOString();
  const row: AwsConnectionRow = {
    id,
    ...tenant,
    name: input.name,
    authType: input.authType,
    roleArn: input.authType === "ROLE" ? (input.roleArn ?? null) : null,
    externalId: input.authType === "ROLE" ? `ponte-${randomToken(24)}` : null,
    accessKeyId: input.authType === "ACCESS_KEY" ? (input.accessKeyId ?? null) : null,
    secretAccessKeySealed:
      input.authType === "ACCESS_KEY" && input.secretAccessKey ? await sealSecret(deps.env, input.secretAccessKey, id) : null,
    costCategoryId,
    exchangeRateMicros,
    status: "PENDING",
    awsAccountId: null,
    lastVerifiedAt: null,
    lastSyncedAt: null,
    lastError: null,
    syncedThrough: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.batch([
    deps.db.insert(awsConnections).values(row),
    auditEntry(deps, principal, {
      action: "aws_connection.created",
      targetType: "aws_connection",
      targetId: id,
      metadata: { authType: row.authType, accessKeyId: row.accessKeyId, roleArn: row.roleArn },
    }),
  ]);
  return presentAwsConnection(row);
}

export async function listAwsConnections(deps: Deps, principal: Principal, page: PageRequest, status?: AwsConnectionRow["status"]) {
  requirePermission(principal, "finance.read");
  const where = and(inTenant(awsConnections, principal), ...(status ? [eq(awsConnections.status, status)] : []));
  const { rows, totalCount } = await newestFirstPage(deps.db, awsConnections, where, page);
  return { rows: rows.map(presentAwsConnection), totalCount };
}

export async function getAwsConnection(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "finance.read");
  return presentAwsConnection(await findAwsConnectionRow(deps, tenantOf(principal), id));
}

/** New credentials (or role) put the connection back to PENDING until verified; `disabled` stops the syncs. */
export async function updateAwsConnection(deps: Deps, principal: Principal, id: string, input: z.infer<typeof UpdateAwsConnectionBody>) {
  requirePermission(principal, "finance.manage");
  const tenant = tenantOf(principal);
  const row = await findAwsConnectionRow(deps, tenant, id);
  const changes: Partial<AwsConnectionRow> = { updatedAt: deps.now().toISOString() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.exchangeRate !== undefined) changes.exchangeRateMicros = rateMicros(input.exchangeRate);
  if (input.costCategoryId !== undefined) changes.costCategoryId = await resolveCategory(deps, tenant, input.costCategoryId);
  let credentialsChanged = false;
  if (row.authType === "ROLE") {
    if (input.accessKeyId || input.secretAccessKey) throw fieldError("body.accessKeyId", "only for authType ACCESS_KEY");
    if (input.roleArn !== undefined && input.roleArn !== row.roleArn) {
      changes.roleArn = input.roleArn;
      credentialsChanged = true;
    }
  } else {
    if (input.roleArn) throw fieldError("body.roleArn", "only for authType ROLE");
    if ((input.accessKeyId === undefined) !== (input.secretAccessKey === undefined))
      throw fieldError(input.accessKeyId ? "body.secretAccessKey" : "body.accessKeyId", "give accessKeyId and secretAccessKey together");
    if (input.accessKeyId && input.secretAccessKey) {
      changes.accessKeyId = input.accessKeyId;
      changes.secretAccessKeySealed = await sealSecret(deps.env, input.secretAccessKey, id);
      credentialsChanged = true;
    }
  }
  if (credentialsChanged) Object.assign(changes, { status: "PENDING", awsAccountId: null, lastError: null });
  if (input.disabled === true) changes.status = "DISABLED";
  if (input.disabled === false && row.status === "DISABLED" && !credentialsChanged) changes.status = "PENDING";
  await deps.db.batch([
    deps.db.update(awsConnections).set(changes).where(eq(awsConnections.id, id)),
    auditEntry(deps, principal, {
      action: "aws_connection.updated",
      targetType: "aws_connection",
      targetId: id,
      metadata: { fields: Object.keys(input).filter((k) => k !== "secretAccessKey"), credentialsChanged },
    }),
  ]);
  return presentAwsConnection({ ...row, ...changes });
}

/** Deletes the connection; the expenses it imported stay (they are the merchant's real costs). */
export async function deleteAwsConnection(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "finance.manage");
  const tenant = tenantOf(principal);
  const row = await findAwsConnectionRow(deps, tenant, id);
  await deps.db.batch([
    deps.db.delete(awsConnections).where(and(eq(awsConnections.id, id), inTenant(awsConnections, tenant))),
    auditEntry(deps, principal, {
      action: "aws_connection.deleted",
      targetType: "aws_connection",
      targetId: id,
      metadata: { authType: row.authType },
    }),
  ]);
  return { id, object: "aws_connection" as const, deleted: true as const };
}

/** Credentials to call AWS as the merchant: the stored key, or the role assumed with the platform's. */
export async function connectionCredentials(deps: Deps, row: AwsConnectionRow): Promise<AwsCredentials> {
  if (row.authType === "ROLE") {
    if (!row.roleArn || !row.externalId) throw new AwsCallError("NotConfigured", "The connection has no role ARN.", null);
    return assumeRole(deps.env, row.roleArn, row.externalId, `ponte-${row.id}`);
  }
  if (!row.accessKeyId || !row.secretAccessKeySealed) throw new AwsCallError("NotConfigured", "The connection has no access key.", null);
  let secretAccessKey: string;
  try {
    secretAccessKey = await openSecret(deps.env, row.secretAccessKeySealed, row.id);
  } catch {
    throw new AwsCallError("SecretUnreadable", "The stored secret access key cannot be decrypted; set the key again.", null);
  }
  return { accessKeyId: row.accessKeyId, secretAccessKey };
}

/** What `lastError` says about a failure: AWS's code and message, or a generic line (details logged without secrets). */
export function failureSummary(deps: Deps, row: AwsConnectionRow, err: unknown): string {
  if (err instanceof AwsCallError) return err.summary;
  logLine("error", "aws connection failure", { connectionId: row.id, requestId: deps.requestId, error: summarizeError(err) });
  return "InternalError: Ponte could not complete the AWS call; try again later.";
}

/** Marks the connection FAILED with `lastError` (a bad key, a refused role, AWS unreachable…). */
export async function recordFailure(deps: Deps, row: AwsConnectionRow, err: unknown): Promise<AwsConnectionRow> {
  const changes = { status: "FAILED" as const, lastError: failureSummary(deps, row, err), updatedAt: deps.now().toISOString() };
  await deps.db.update(awsConnections).set(changes).where(eq(awsConnections.id, row.id));
  return { ...row, ...changes };
}

/**
 * STS GetCallerIdentity (after AssumeRole for ROLE): ACTIVE with the account id, or FAILED with AWS's
 * error in `lastError` — answered 200 either way, like a gateway account's verification.
 */
export async function verifyAwsConnection(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "finance.manage");
  const row = await findAwsConnectionRow(deps, tenantOf(principal), id);
  if (row.status === "DISABLED")
    throw new ApiError("INVALID_STATE", "This connection is disabled; enable it (PATCH disabled: false) first.", { status: row.status });
  await deps.beforeSideEffect?.();
  let identity: { accountId: string };
  try {
    identity = await getCallerIdentity(deps.env, await connectionCredentials(deps, row));
  } catch (err) {
    return presentAwsConnection(await recordFailure(deps, row, err));
  }
  const now = deps.now().toISOString();
  const changes = { status: "ACTIVE" as const, awsAccountId: identity.accountId, lastVerifiedAt: now, lastError: null, updatedAt: now };
  await deps.db.update(awsConnections).set(changes).where(eq(awsConnections.id, id));
  return presentAwsConnection({ ...row, ...changes });
}
