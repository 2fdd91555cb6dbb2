// The webhook log: deliveries with filters, one delivery with its attempts and payload, and redeliver.
import { and, eq, gte, lte, type SQL } from "drizzle-orm";
import { type Principal, requirePermission } from "../../access/principal";
import type { Deps } from "../../deps";
import { events, webhookDeliveries, type DeliveryStatus } from "../../db/schema";
import { orgLogs } from "../../db/org-logs/stub";
import type { WebhookAttemptRecord } from "../../db/org-logs/tables";
import { runManualAttempt } from "../../events/attempts";
import type { Fetcher } from "../../events/deliver";
import { envelopeBody } from "../../events/event-body";
import { notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { presentAttempt } from "../webhook-endpoints/service";
import { newestFirstPage } from "../../db/paging";
import { inTenant } from "../../db/tenant-scope";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export const presentDelivery = (row: DeliveryRow) => ({
  id: row.id,
  object: "webhook_delivery" as const,
  endpointId: row.endpointId,
  eventId: row.eventId,
  eventType: row.eventType,
  status: row.status,
  attemptCount: row.attemptCount,
  nextAttemptAt: row.nextAttemptAt,
  lastAttemptAt: row.lastAttemptAt,
  lastStatusCode: row.lastStatusCode,
  lastErrorKind: row.lastErrorKind,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const presentAttemptRow = (a: WebhookAttemptRecord) =>
  presentAttempt({
    attemptId: a.id,
    deliveryId: a.deliveryId,
    trigger: a.trigger,
    attemptedAt: a.attemptedAt,
    succeeded: a.errorKind === null && a.statusCode !== null,
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    errorKind: a.errorKind,
    errorMessage: a.errorMessage,
    responseExcerpt: a.responseExcerpt,
  });

const scope = (p: Principal) => [inTenant(webhookDeliveries, p)];

export interface DeliveryFilters {
  endpointId?: string | undefined;
  eventType?: string | undefined;
  status?: DeliveryStatus | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export async function listDeliveries(deps: Deps, principal: Principal, filters: DeliveryFilters, page: PageRequest) {
  requirePermission(principal, "webhook_endpoints.read");
  const conditions: SQL[] = scope(principal);
  if (filters.endpointId) conditions.push(eq(webhookDeliveries.endpointId, filters.endpointId));
  if (filters.eventType) conditions.push(eq(webhookDeliveries.eventType, filters.eventType));
  if (filters.status) conditions.push(eq(webhookDeliveries.status, filters.status));
  if (filters.from) conditions.push(gte(webhookDeliveries.createdAt, new Date(filters.from).toISOString()));
  if (filters.to) conditions.push(lte(webhookDeliveries.createdAt, new Date(filters.to).toISOString()));
  const where = and(...conditions);
  const { rows, totalCount } = await newestFirstPage(deps.db, webhookDeliveries, where, page);
  return { rows: rows.map(presentDelivery), totalCount };
}

async function findDelivery(deps: Deps, principal: Principal, id: string): Promise<DeliveryRow> {
  const row = await deps.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), ...scope(principal)))
    .get();
  if (!row) throw notFound("webhook delivery", id);
  return row;
}

export async function getDelivery(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "webhook_endpoints.read");
  const row = await findDelivery(deps, principal, id);
  // The delivery's state is D1's; its attempts are in the organization's log store.
  const [attempts, e] = await Promise.all([
    orgLogs(deps.env, principal.organizationId).attemptsOf(id),
    deps.db.select().from(events).where(eq(events.id, row.eventId)).get(),
  ]);
  return {
    ...presentDelivery(row),
    // The envelope as sent (attempts differ only in their signature timestamp).
    payload: e
      ? (JSON.parse(envelopeBody({ id: e.id, type: e.type, createdAt: e.createdAt, data: e.data }, deps.env.ENVIRONMENT)) as Record<
          string,
          unknown
        >)
      : null,
    attempts: attempts.map(presentAttemptRow),
  };
}

/** One more attempt now, outside the retry schedule and the failure streak; the delivery id is kept. */
export async function redeliver(deps: Deps, principal: Principal, id: string, fetcher?: Fetcher) {
  requirePermission(principal, "webhook_endpoints.manage");
  await findDelivery(deps, principal, id);
  const attempt = await runManualAttempt(deps, id, "manual", fetcher);
  // The endpoint was deleted: its log stays readable, but there is nowhere to send.
  if (!attempt) throw notFound("webhook endpoint for delivery", id);
  return presentAttempt(attempt);
}
