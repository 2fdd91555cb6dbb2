// Subscriptions: started from an active plan, mirrored upstream (Ponte id as externalReference); their
// payments arrive through the upstream's webhooks. Cancel stops future payments.
import { and, eq, inArray, notExists, type SQL } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { changedRows } from "../../db/guarded-insert";
import { centsOf, type Cycle } from "../../billing/schemas";
import { isAmbiguousFailure, upstreamJson, type GatewayCredentials } from "../../billing/upstream";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { formatMoney, toUpstreamAmount } from "../../lib/money";
import { plans, subscriptions } from "../../db/schema";
import { dispatchEvents, recordEventIfChanged } from "../../events/outbox";
import { resolveGatewayAccount } from "../../gateway/accounts";
import { ApiError, notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { customerForBilling } from "../customers/service";
import { cardForCustomer } from "../payment-methods/service";
import { findPlanRow } from "../plans/service";
import type { CreateSubscriptionBody, UpdateSubscriptionBody } from "./schemas";
import { impliedPlan } from "./implied-plan";
import { newestFirstPage } from "../../db/paging";
import { inTenant } from "../../db/tenant-scope";
import type { Tenant } from "../../lib/tenant";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
const CANCELABLE = ["ACTIVE", "INACTIVE", "EXPIRED"] as const;

export function presentSubscription(row: SubscriptionRow) {
  return {
    id: row.id,
    object: "subscription" as const,
    plan: row.planId,
    customer: row.customerId,
    billingType: row.billingType,
    value: formatMoney(row.valueCents),
    cycle: row.cycle as z.infer<typeof Cycle>,
    nextDueDate: row.nextDueDate,
    status: row.status,
    description: row.description,
    externalReference: row.externalReference,
    canceledAt: row.canceledAt,
    upstreamId: row.upstreamId,
    syncStatus: row.syncStatus,
    origin: row.origin,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function findSubscriptionRow(deps: Deps, tenant: Tenant, id: string): Promise<SubscriptionRow> {
  const row = await deps.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, id), inTenant(subscriptions, tenant)))
    .get();
  if (!row) throw notFound("subscription", id);
  return row;
}

const fieldError = (path: string, message: string) =>
  new ApiError("VALIDATION_FAILED", `Invalid request body: ${path}.`, { fields: [{ path, message, code: "custom" }] });

function upstreamSubscriptionBody(row: SubscriptionRow, customerUpstreamId: string, extra: Record<string, unknown>) {
  return {
    customer: customerUpstreamId,
    billingType: row.billingType,
    value: toUpstreamAmount(row.valueCents),
    nextDueDate: row.nextDueDate,
    cycle: row.cycle,
    ...(row.description ? { description: row.description } : {}),
    externalReference: row.id,
    ...extra,
  };
}

export async function createSubscription(deps: Deps, principal: Principal, input: z.infer<typeof CreateSubscriptionBody>) {
  requirePermission(principal, "subscriptions.manage");
  const tenant = tenantOf(principal);
  const { plan, isNew: newPlan } =
    input.plan === undefined
      ? await impliedPlan(deps, tenant, input)
      : {
          plan: await findPlanRow(deps, tenant, input.plan).catch(() => {
            throw fieldError("body.plan", `no plan with id '${input.plan}'`);
          }),
          isNew: false,
        };
  if (plan.status !== "active")
    throw new ApiError("INVALID_STATE", `Plan '${plan.id}' is ${plan.status}; subscriptions can only start from an active plan.`, {
      planId: plan.id,
      status: plan.status,
    });
  const billingType = input.billingType ?? plan.billingType;
  if (!billingType) throw fieldError("body.billingType", "required: the plan has no default billing type");
  if (billingType !== "CREDIT_CARD" && (input.creditCard || input.creditCardToken))
    throw fieldError("body.billingType", "card fields need billingType CREDIT_CARD");
  const credentials = await resolveGatewayAccount(deps, principal);
  const customer = await customerForBilling(deps, credentials, tenant, input.customer);
  let cardExtra: Record<string, unknown> = {};
  if (input.creditCardToken) {
    cardExtra = { creditCardToken: (await cardForCustomer(deps, principal, customer.id, input.creditCardToken)).token };
  } else if (input.creditCard) {
    cardExtra = { creditCard: input.creditCard, creditCardHolderInfo: input.creditCardHolderInfo };
  }
  if (input.remoteIp) cardExtra.remoteIp = input.remoteIp;
  const now = deps.now().toISOString();
  const row: SubscriptionRow = {
    id: newId(),
    ...tenant,
    upstreamId: null,
    syncStatus: "pending",
    planId: plan.id,
    customerId: customer.id,
    billingType,
    valueCents: input.value !== undefined ? centsOf(input.value) : plan.valueCents,
    cycle: input.cycle ?? plan.cycle,
    nextDueDate: input.nextDueDate,
    status: "ACTIVE",
    description: input.description ?? plan.description ?? null,
    externalReference: input.externalReference ?? null,
    canceledAt: null,
    origin: "api",
    createdAt: now,
    updatedAt: now,
  };
  // An implied plan is written only now, with the subscription (one batch), after every check.
  if (newPlan) await deps.db.batch([deps.db.insert(plans).values(plan), deps.db.insert(subscriptions).values(row)]);
  else await deps.db.insert(subscriptions).values(row);
  let created: { id: string };
  try {
    created = await upstreamJson<{ id: string }>(deps, credentials, {
      flow: "create-subscription",
      method: "POST",
      path: "/v3/subscriptions",
      body: upstreamSubscriptionBody(row, customer.upstreamId, cardExtra),
      surfacePath: "/api/v1/subscriptions",
    });
  } catch (err) {
    if (err instanceof ApiError && !isAmbiguousFailure(err)) {
      await deps.db.delete(subscriptions).where(and(eq(subscriptions.id, row.id), eq(subscriptions.syncStatus, "pending")));
      // The implied plan this request made goes with it, unless another subscription started from it meanwhile.
      if (newPlan)
        await deps.db
          .delete(plans)
          .where(
            and(
              eq(plans.id, plan.id),
              notExists(deps.db.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.planId, plan.id))),
            ),
          );
    }
    throw err;
  }
  await linkSubscription(deps, row, created.id);
  return presentSubscription(await findSubscriptionRow(deps, tenant, row.id));
}

/** pending → synced: the moment `subscription.created` is recorded, once, by our create or the upstream's webhook. */
export async function linkSubscription(deps: Deps, row: SubscriptionRow, upstreamId: string): Promise<SubscriptionRow> {
  const updatedAt = deps.now().toISOString();
  const next: SubscriptionRow = { ...row, upstreamId, syncStatus: "synced", updatedAt };
  const facts = { subscription: { before: null, after: next } };
  const { event, statement, rollups } = recordEventIfChanged(deps, row, "subscription.created", presentSubscription(next), facts);
  const [result] = await deps.db.batch([
    deps.db
      .update(subscriptions)
      .set({ upstreamId, syncStatus: "synced", updatedAt })
      .where(and(eq(subscriptions.id, row.id), eq(subscriptions.syncStatus, "pending"))),
    statement,
    ...rollups,
  ]);
  if (changedRows(result) > 0) dispatchEvents(deps, [event]);
  return next;
}

/** → CANCELED with subscription.canceled, once (our cancel and the upstream's webhook race safely). */
export async function markSubscriptionCanceled(deps: Deps, row: SubscriptionRow): Promise<SubscriptionRow> {
  const now = deps.now().toISOString();
  const next: SubscriptionRow = { ...row, status: "CANCELED", canceledAt: now, updatedAt: now };
  const facts = { subscription: { before: row, after: next } };
  const { event, statement, rollups } = recordEventIfChanged(deps, row, "subscription.canceled", presentSubscription(next), facts);
  const [result] = await deps.db.batch([
    deps.db
      .update(subscriptions)
      .set({ status: "CANCELED", canceledAt: now, updatedAt: now })
      .where(and(eq(subscriptions.id, row.id), inArray(subscriptions.status, [...CANCELABLE]))),
    statement,
    ...rollups,
  ]);
  if (changedRows(result) > 0) dispatchEvents(deps, [event]);
  return next;
}

export async function reconcileSubscription(deps: Deps, credentials: GatewayCredentials, row: SubscriptionRow): Promise<SubscriptionRow> {
  if (row.syncStatus !== "pending") return row;
  const found = await upstreamJson<{ data: { id: string }[] }>(deps, credentials, {
    flow: "reconcile-subscription",
    method: "GET",
    path: "/v3/subscriptions",
    query: `externalReference=${encodeURIComponent(row.id)}`,
  });
  const match = found.data[0];
  if (match) return linkSubscription(deps, row, match.id);
  const customer = await customerForBilling(deps, credentials, row, row.customerId);
  const created = await upstreamJson<{ id: string }>(deps, credentials, {
    flow: "reconcile-subscription",
    method: "POST",
    path: "/v3/subscriptions",
    body: upstreamSubscriptionBody(row, customer.upstreamId, {}),
  });
  return linkSubscription(deps, row, created.id);
}

export async function listSubscriptions(
  deps: Deps,
  principal: Principal,
  page: PageRequest,
  filters: { customer?: string | undefined; plan?: string | undefined; status?: string | undefined },
) {
  requirePermission(principal, "subscriptions.read");
  const conditions: SQL[] = [inTenant(subscriptions, principal)];
  if (filters.customer) conditions.push(eq(subscriptions.customerId, filters.customer));
  if (filters.plan) conditions.push(eq(subscriptions.planId, filters.plan));
  if (filters.status) conditions.push(eq(subscriptions.status, filters.status as SubscriptionRow["status"]));
  const where = and(...conditions);
  const { rows, totalCount } = await newestFirstPage(deps.db, subscriptions, where, page);
  return { rows: rows.map(presentSubscription), totalCount };
}

export async function getSubscription(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "subscriptions.read");
  return presentSubscription(await findSubscriptionRow(deps, tenantOf(principal), id));
}

function requireOpen(row: SubscriptionRow, action: string): asserts row is SubscriptionRow & { upstreamId: string } {
  if (row.status === "CANCELED")
    throw new ApiError("INVALID_STATE", `Cannot ${action} subscription '${row.id}': its status is CANCELED.`, {
      subscriptionId: row.id,
      status: row.status,
      action,
    });
  if (!row.upstreamId)
    throw new ApiError("INVALID_STATE", `Subscription '${row.id}' is not yet synced with the upstream provider; retry shortly.`, {
      subscriptionId: row.id,
      status: row.status,
      syncStatus: row.syncStatus,
    });
}

export async function updateSubscription(deps: Deps, principal: Principal, id: string, input: z.infer<typeof UpdateSubscriptionBody>) {
  requirePermission(principal, "subscriptions.manage");
  const row = await findSubscriptionRow(deps, tenantOf(principal), id);
  requireOpen(row, "update");
  const changes: Partial<SubscriptionRow> = {};
  if (input.billingType !== undefined) changes.billingType = input.billingType;
  if (input.value !== undefined) changes.valueCents = centsOf(input.value);
  if (input.nextDueDate !== undefined) changes.nextDueDate = input.nextDueDate;
  if (input.description !== undefined) changes.description = input.description;
  if (input.externalReference !== undefined) changes.externalReference = input.externalReference;
  const next: SubscriptionRow = { ...row, ...changes, updatedAt: deps.now().toISOString() };
  const credentials = await resolveGatewayAccount(deps, principal);
  const body: Record<string, unknown> = {};
  if (changes.billingType) body.billingType = changes.billingType;
  if (changes.valueCents !== undefined) body.value = toUpstreamAmount(changes.valueCents);
  if (changes.nextDueDate) body.nextDueDate = changes.nextDueDate;
  if (changes.description !== undefined) body.description = changes.description;
  await upstreamJson(deps, credentials, {
    flow: "update-subscription",
    method: "PUT",
    path: `/v3/subscriptions/${row.upstreamId}`,
    body,
    surfacePath: `/api/v1/subscriptions/${id}`,
  });
  await deps.db
    .update(subscriptions)
    .set({ ...changes, updatedAt: next.updatedAt })
    .where(eq(subscriptions.id, id));
  return presentSubscription(next);
}

export async function cancelSubscription(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "subscriptions.manage");
  const row = await findSubscriptionRow(deps, tenantOf(principal), id);
  requireOpen(row, "cancel");
  const credentials = await resolveGatewayAccount(deps, principal);
  await upstreamJson(deps, credentials, {
    flow: "cancel-subscription",
    method: "DELETE",
    path: `/v3/subscriptions/${row.upstreamId}`,
    surfacePath: `/api/v1/subscriptions/${id}/cancel`,
  });
  await markSubscriptionCanceled(deps, row);
  return presentSubscription(await findSubscriptionRow(deps, tenantOf(principal), id));
}
