// Webhook endpoints of the caller's workspace: register, list, edit, delete, rotate the secret, re-enable,
// send a test ping, and re-queue failed deliveries. The signing secret exists only in create/rotate answers.
import { and, eq, gte, inArray, ne, sql } from "drizzle-orm";
import { type Principal, requirePermission } from "../../access/principal";
import { sealSecret } from "../../lib/secret-box";
import { LIMITS } from "../../config";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { auditLogs, events, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { changedRows, insertWhere } from "../../db/guarded-insert";
import { runManualAttempt, type RecordedAttempt } from "../../events/attempts";
import type { Fetcher } from "../../events/deliver";
import { generateSigningSecret } from "../../events/signature";
import { ApiError, notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { auditEntry, auditRow } from "../audit/service";
import { checkWebhookUrl } from "../../lib/url-policy";
import { newestFirstPage } from "../../db/paging";
import { inTenant } from "../../db/tenant-scope";
import { endpointStub } from "../../events/endpoint-stub";

type EndpointRow = typeof webhookEndpoints.$inferSelect;

export function presentEndpoint(row: EndpointRow) {
  return {
    id: row.id,
    object: "webhook_endpoint" as const,
    url: row.url,
    description: row.description,
    eventKinds: row.eventKinds,
    enabled: row.enabled,
    disabledReason: row.disabledReason as "consecutive_failures" | "manual" | null,
    disabledAt: row.disabledAt,
    consecutiveFailures: row.consecutiveFailures,
    secretRotatedAt: row.secretRotatedAt,
    previousSecretExpiresAt: row.previousSecretExpiresAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function presentAttempt(a: RecordedAttempt) {
  return {
    object: "webhook_attempt" as const,
    id: a.attemptId,
    deliveryId: a.deliveryId,
    trigger: a.trigger,
    attemptedAt: a.attemptedAt,
    succeeded: a.succeeded,
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    errorKind: a.errorKind,
    errorMessage: a.errorMessage,
    responseExcerpt: a.responseExcerpt,
  };
}

const scope = (p: Principal) => [inTenant(webhookEndpoints, p)];

function validUrl(deps: Deps, url: string): string {
  const result = checkWebhookUrl(url, { allowLocalhostHttp: deps.env.ENVIRONMENT === "local" });
  if (!result.ok)
    throw new ApiError("VALIDATION_FAILED", `Invalid webhook URL: ${result.reason}.`, {
      fields: [{ path: "body.url", message: result.reason, code: "invalid_url" }],
    });
  return result.url;
}

export async function findEndpoint(deps: Deps, principal: Principal, id: string): Promise<EndpointRow> {
  const row = await deps.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), ...scope(principal)))
    .get();
  if (!row) throw notFound("webhook endpoint", id);
  return row;
}

export interface CreateEndpointInput {
  url: string;
  description?: string | null | undefined;
  eventKinds: string[];
  enabled?: boolean | undefined;
}

export async function createEndpoint(deps: Deps, principal: Principal, input: CreateEndpointInput) {
  requirePermission(principal, "webhook_endpoints.manage");
  const url = validUrl(deps, input.url);
  const id = newId();
  const secret = generateSigningSecret();
  const now = deps.now().toISOString();
  const enabled = input.enabled ?? true;
  const row: EndpointRow = {
    id,
    organizationId: principal.organizationId,
    workspaceId: principal.workspaceId,
    url,
    description: input.description ?? null,
    eventKinds: [...new Set(input.eventKinds)],
    enabled,
    disabledReason: enabled ? null : "manual",
    disabledAt: enabled ? null : now,
    secretSealed: await sealSecret(deps.env, secret, id),
    previousSecretSealed: null,
    previousSecretExpiresAt: null,
    secretRotatedAt: null,
    consecutiveFailures: 0,
    createdAt: now,
    updatedAt: now,
  };
  // The cap check and the insert are one statement (concurrent creates cannot overrun it); the audit row
  // is written only if the endpoint was.
  const underCap = sql`(SELECT count(*) FROM ${webhookEndpoints} WHERE ${and(...scope(principal))}) < ${LIMITS.webhookEndpointsPerWorkspace}`;
  const audit = auditRow(deps, principal, {
    action: "webhook_endpoint.created",
    targetType: "webhook_endpoint",
    targetId: id,
    metadata: { url, eventKinds: row.eventKinds },
  });
  const [inserted] = await deps.db.batch([
    insertWhere(deps.db, webhookEndpoints, row, underCap),
    insertWhere(deps.db, auditLogs, audit, sql`EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${webhookEndpoints.id} = ${id})`),
  ]);
  if (!changedRows(inserted)) {
    throw new ApiError("INVALID_STATE", `A workspace can have at most ${LIMITS.webhookEndpointsPerWorkspace} webhook endpoints.`, {
      limit: LIMITS.webhookEndpointsPerWorkspace,
    });
  }
  return { ...presentEndpoint(row), secret };
}

export async function listEndpoints(deps: Deps, principal: Principal, page: PageRequest) {
  requirePermission(principal, "webhook_endpoints.read");
  const where = and(...scope(principal));
  const { rows, totalCount } = await newestFirstPage(deps.db, webhookEndpoints, where, page);
  return { rows: rows.map(presentEndpoint), totalCount };
}

export async function getEndpoint(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "webhook_endpoints.read");
  return presentEndpoint(await findEndpoint(deps, principal, id));
}

/** Deliveries still waiting are failed when their endpoint stops receiving (disable, delete). */
const failOpenDeliveries = (deps: Deps, endpointId: string, now: string) =>
  deps.db
    .update(webhookDeliveries)
    .set({ status: "failed", nextAttemptAt: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), inArray(webhookDeliveries.status, ["pending", "retrying"])));

export async function updateEndpoint(deps: Deps, principal: Principal, id: string, input: Partial<CreateEndpointInput>) {
  requirePermission(principal, "webhook_endpoints.manage");
  const row = await findEndpoint(deps, principal, id);
  const now = deps.now().toISOString();
  const next: EndpointRow = { ...row, updatedAt: now };
  if (input.url !== undefined) next.url = validUrl(deps, input.url);
  if (input.description !== undefined) next.description = input.description;
  if (input.eventKinds !== undefined) next.eventKinds = [...new Set(input.eventKinds)];
  const enabling = input.enabled === true && !row.enabled;
  const disabling = input.enabled === false && row.enabled;
  if (enabling) Object.assign(next, { enabled: true, disabledReason: null, disabledAt: null, consecutiveFailures: 0 });
  if (disabling) Object.assign(next, { enabled: false, disabledReason: "manual", disabledAt: now });
  await deps.db.batch([
    deps.db
      .update(webhookEndpoints)
      .set({
        url: next.url,
        description: next.description,
        eventKinds: next.eventKinds,
        enabled: next.enabled,
        disabledReason: next.disabledReason,
        disabledAt: next.disabledAt,
        consecutiveFailures: next.consecutiveFailures,
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, id)),
    ...(disabling ? [failOpenDeliveries(deps, id, now)] : []),
    auditEntry(deps, principal, {
      action: "webhook_endpoint.updated",
      targetType: "webhook_endpoint",
      targetId: id,
      metadata: { fields: Object.keys(input) },
    }),
  ]);
  if (enabling) await endpointStub(deps.env, id).resetStreak(id);
  return presentEndpoint(next);
}

/** Re-enable (after an auto-disable or a manual one) and start the failure streak over. */
export async function enableEndpoint(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "webhook_endpoints.manage");
  const row = await findEndpoint(deps, principal, id);
  const now = deps.now().toISOString();
  const next: EndpointRow = { ...row, enabled: true, disabledReason: null, disabledAt: null, consecutiveFailures: 0, updatedAt: now };
  await deps.db.batch([
    deps.db
      .update(webhookEndpoints)
      .set({ enabled: true, disabledReason: null, disabledAt: null, consecutiveFailures: 0, updatedAt: now })
      .where(eq(webhookEndpoints.id, id)),
    auditEntry(deps, principal, {
      action: "webhook_endpoint.enabled",
      targetType: "webhook_endpoint",
      targetId: id,
      metadata: { previousReason: row.disabledReason },
    }),
  ]);
  await endpointStub(deps.env, id).resetStreak(id);
  return presentEndpoint(next);
}

export async function deleteEndpoint(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "webhook_endpoints.manage");
  const row = await findEndpoint(deps, principal, id);
  const now = deps.now().toISOString();
  await deps.db.batch([
    deps.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)),
    failOpenDeliveries(deps, id, now),
    auditEntry(deps, principal, {
      action: "webhook_endpoint.deleted",
      targetType: "webhook_endpoint",
      targetId: id,
      metadata: { url: row.url },
    }),
  ]);
  return { id, object: "webhook_endpoint" as const, deleted: true as const };
}

/** A new secret, shown once; the old one keeps signing (a second v1) for 24 h, then is dropped. */
export async function rotateSecret(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "webhook_endpoints.manage");
  const row = await findEndpoint(deps, principal, id);
  const now = deps.now();
  const secret = generateSigningSecret();
  const next: EndpointRow = {
    ...row,
    secretSealed: await sealSecret(deps.env, secret, id),
    previousSecretSealed: row.secretSealed,
    previousSecretExpiresAt: new Date(now.getTime() + LIMITS.webhookSecretOverlapSeconds * 1000).toISOString(),
    secretRotatedAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await deps.db.batch([
    deps.db
      .update(webhookEndpoints)
      .set({
        secretSealed: next.secretSealed,
        previousSecretSealed: next.previousSecretSealed,
        previousSecretExpiresAt: next.previousSecretExpiresAt,
        secretRotatedAt: next.secretRotatedAt,
        updatedAt: next.updatedAt,
      })
      .where(eq(webhookEndpoints.id, id)),
    auditEntry(deps, principal, { action: "webhook_endpoint.secret_rotated", targetType: "webhook_endpoint", targetId: id }),
  ]);
  return { ...presentEndpoint(next), secret };
}

/** The Test action: a `ping` event and its delivery, attempted once now (even to a disabled endpoint). */
export async function sendTestPing(deps: Deps, principal: Principal, id: string, fetcher?: Fetcher) {
  requirePermission(principal, "webhook_endpoints.manage");
  const endpoint = await findEndpoint(deps, principal, id);
  const now = deps.now().toISOString();
  const eventId = newId();
  const deliveryId = newId();
  await deps.db.batch([
    // Born fanned out: the ping goes to this endpoint only, never through the queue.
    deps.db.insert(events).values({
      id: eventId,
      organizationId: endpoint.organizationId,
      workspaceId: endpoint.workspaceId,
      type: "ping",
      data: { endpointId: endpoint.id, message: "Test event from Ponte" },
      createdAt: now,
      fannedOutAt: now,
    }),
    deps.db.insert(webhookDeliveries).values({
      id: deliveryId,
      organizationId: endpoint.organizationId,
      workspaceId: endpoint.workspaceId,
      endpointId: endpoint.id,
      eventId,
      eventType: "ping",
      status: "pending",
      createdAt: now,
      updatedAt: now,
    }),
  ]);
  const attempt = await runManualAttempt(deps, deliveryId, "test", fetcher);
  if (!attempt) throw notFound("webhook endpoint", id);
  return presentAttempt(attempt);
}

/** Re-queue every failed delivery of the endpoint created since `since`; the EndpointDO sends them. */
export async function recoverDeliveries(deps: Deps, principal: Principal, id: string, since: string) {
  requirePermission(principal, "webhook_endpoints.manage");
  const endpoint = await findEndpoint(deps, principal, id);
  if (!endpoint.enabled)
    throw new ApiError("INVALID_STATE", "The endpoint is disabled; enable it before recovering deliveries.", {
      status: "disabled",
      disabledReason: endpoint.disabledReason,
    });
  const sinceIso = new Date(since).toISOString();
  const now = deps.now().toISOString();
  const requeued = await deps.db
    .update(webhookDeliveries)
    .set({ status: "pending", scheduledAttempts: 0, nextAttemptAt: now, updatedAt: now })
    .where(
      and(
        eq(webhookDeliveries.endpointId, id),
        eq(webhookDeliveries.status, "failed"),
        ne(webhookDeliveries.eventType, "ping"),
        gte(webhookDeliveries.createdAt, sinceIso),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  await deps.db.batch([
    auditEntry(deps, principal, {
      action: "webhook_endpoint.recovered",
      targetType: "webhook_endpoint",
      targetId: id,
      metadata: { since: sinceIso, requeued: requeued.length },
    }),
  ]);
  if (requeued.length > 0) await endpointStub(deps.env, id).wake(id);
  return { object: "webhook_recovery" as const, endpointId: id, since: sinceIso, requeued: requeued.length };
}
