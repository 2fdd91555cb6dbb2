// Inbound upstream webhooks: authenticated by the gateway account's token, deduplicated by the
// upstream's event id, applied to native records through the same code as our own calls, and
// re-emitted as Ponte events. Events about records Ponte does not know go out as `upstream.<EVENT>`.
import { and, eq, or } from "drizzle-orm";
import { sha256Hex, timingSafeEqual } from "../../lib/secret-box";
import type { Tenant } from "../../lib/tenant";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { fromUpstreamAmount } from "../../lib/money";
import { payments, gatewayAccounts, subscriptions, upstreamWebhookEvents } from "../../db/schema";
import { dispatchEvents, recordEvent, recordEventIfChanged } from "../../events/outbox";
import { ApiError } from "../../http/errors";
import { changedRows } from "../../db/guarded-insert";
import { paymentStatusFromUpstream, type PaymentStatus } from "../payments/status-rules";
import { adoptUpstreamPayment, isUpstreamPayment } from "../payments/adoption";
import {
  applyUpstreamPayment,
  presentPayment,
  restorePayment,
  type PaymentRow,
  type UpstreamPayment,
  undoReceivedInCash,
} from "../payments/lifecycle";
import { linkSubscription, markSubscriptionCanceled, type SubscriptionRow } from "../subscriptions/service";
import {
  adoptUpstreamSubscription,
  adoptUpstreamSubscriptionById,
  applyUpstreamSubscription,
  isUpstreamSubscription,
} from "../subscriptions/adoption";
import { upstreamEffect } from "./mapping";
import { bearerEventData } from "../../compat/bearer-dialect";
import { inTenant } from "../../db/tenant-scope";
import { logLine, summarizeError } from "../../lib/log";

export const UPSTREAM_TOKEN_HEADER = "asaas-access-token";
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface UpstreamEnvelope {
  id: string;
  event: string;
  dateCreated?: string;
  payment?: UpstreamPayment;
  subscription?: { id: string; externalReference?: string | null; status?: string; [key: string]: unknown };
  [key: string]: unknown;
}

const unauthorized = () => new ApiError("UNAUTHORIZED", `Missing or invalid ${UPSTREAM_TOKEN_HEADER} for this gateway account.`);

/** The account the URL names, if the token matches its stored hash (same 401 for unknown account or bad token). */
export async function authenticateUpstream(
  deps: Deps,
  accountId: string,
  token: string | undefined,
): Promise<Tenant & { accountId: string }> {
  if (!token || !UUID_RE.test(accountId)) throw unauthorized();
  const account = await deps.db
    .select({
      id: gatewayAccounts.id,
      organizationId: gatewayAccounts.organizationId,
      workspaceId: gatewayAccounts.workspaceId,
      hash: gatewayAccounts.webhookTokenHash,
    })
    .from(gatewayAccounts)
    .where(eq(gatewayAccounts.id, accountId))
    .get();
  const presented = await sha256Hex(token);
  if (!account || !timingSafeEqual(presented, account.hash)) throw unauthorized();
  return { accountId: account.id, organizationId: account.organizationId, workspaceId: account.workspaceId };
}

/** Records the delivery (dedupe), applies it, marks it processed. Returns whether it was a duplicate. */
export async function receiveUpstreamWebhook(
  deps: Deps,
  account: Tenant & { accountId: string },
  envelope: UpstreamEnvelope,
): Promise<{ duplicate: boolean }> {
  const rowId = newId();
  const inserted = await deps.db
    .insert(upstreamWebhookEvents)
    .values({
      id: rowId,
      organizationId: account.organizationId,
      workspaceId: account.workspaceId,
      gatewayAccountId: account.accountId,
      upstreamEventId: envelope.id,
      event: envelope.event,
      payload: envelope,
      receivedAt: deps.now().toISOString(),
      processedAt: null,
    })
    .onConflictDoNothing()
    .returning({ id: upstreamWebhookEvents.id });
  if (inserted.length === 0) return { duplicate: true };
  try {
    await applyEnvelope(deps, account, envelope);
  } catch (err) {
    // Forget the delivery so the upstream's retry is processed, not deduplicated away.
    await deps.db.delete(upstreamWebhookEvents).where(eq(upstreamWebhookEvents.id, rowId));
    throw err;
  }
  await deps.db.update(upstreamWebhookEvents).set({ processedAt: deps.now().toISOString() }).where(eq(upstreamWebhookEvents.id, rowId));
  return { duplicate: false };
}

async function reemit(deps: Deps, tenant: Tenant, envelope: UpstreamEnvelope, kind = upstreamEffect(envelope.event).kind) {
  const { event, statement } = recordEvent(deps, tenant, kind, await bearerEventData(deps, tenant, envelope));
  await statement;
  dispatchEvents(deps, [event]);
}

async function applyEnvelope(deps: Deps, tenant: Tenant, envelope: UpstreamEnvelope): Promise<void> {
  const effect = upstreamEffect(envelope.event);
  if (effect.entity === "other") return reemit(deps, tenant, envelope);
  if (effect.entity === "subscription") return applySubscriptionEnvelope(deps, tenant, envelope, effect.action);
  const payment = envelope.payment;
  if (!payment?.id) return reemit(deps, tenant, envelope, `upstream.${envelope.event}`);
  let record = await findPaymentByUpstream(deps, tenant, payment);
  if (!record) {
    // A subscription's payment: its subscription is adopted first when Ponte does not know it yet.
    const sub = payment.subscription
      ? ((await findSubscriptionByUpstream(deps, tenant, payment.subscription, payment.externalReference)) ??
        (await adoptUpstreamSubscriptionById(deps, tenant, payment.subscription, "upstream").catch(subscriptionUnavailable)))
      : null;
    if (effect.action === "created" && sub) return createSubscriptionPayment(deps, sub, payment);
    // Made through a compatibility route or outside Ponte: adopted, so it is a Ponte payment from now on.
    const adopted = isUpstreamPayment(payment) ? await adoptUpstreamPayment(deps, tenant, payment, "upstream") : null;
    if (!adopted) return reemit(deps, tenant, envelope, `upstream.${envelope.event}`);
    if (effect.action !== "status") return;
    record = adopted;
  }
  if (effect.action === "restored") {
    await restorePayment(deps, record, payment);
    return;
  }
  if (effect.action === "cash-undone") {
    await undoReceivedInCash(deps, record, payment);
    return;
  }
  if (effect.action === "created" || effect.action === "updated" || effect.action === "refund") {
    await applyUpstreamPayment(deps, record, payment, null);
    return;
  }
  const to: PaymentStatus | null =
    effect.to === "FROM_PAYLOAD"
      ? paymentStatusFromUpstream(payment.status) === "RECEIVED_IN_CASH"
        ? "RECEIVED_IN_CASH"
        : "RECEIVED"
      : effect.to;
  const reason = to === "FAILED" ? `The upstream reported ${envelope.event}.` : undefined;
  await applyUpstreamPayment(deps, record, payment, to, reason);
}

async function applySubscriptionEnvelope(
  deps: Deps,
  tenant: Tenant,
  envelope: UpstreamEnvelope,
  action: "created" | "updated" | "canceled",
): Promise<void> {
  const sub = envelope.subscription;
  let row = sub?.id ? await findSubscriptionByUpstream(deps, tenant, sub.id, sub.externalReference) : undefined;
  if (!sub?.id) return reemit(deps, tenant, envelope, `upstream.${envelope.event}`);
  if (!row) {
    // Made in the upstream's panel, by a payment link or checkout, or through a compatibility route: adopted.
    const adopted = isUpstreamSubscription(sub) ? await adoptUpstreamSubscription(deps, tenant, sub, "upstream") : null;
    if (!adopted) return reemit(deps, tenant, envelope, `upstream.${envelope.event}`);
    if (action === "canceled") await markSubscriptionCanceled(deps, adopted);
    return;
  }
  // Our own create's webhook can come before its answer: the record is linked first.
  if (row.syncStatus === "pending") row = await linkSubscription(deps, row, sub.id);
  if (action === "canceled") await markSubscriptionCanceled(deps, row);
  else if (isUpstreamSubscription(sub)) await applyUpstreamSubscription(deps, row, sub);
}

/** The subscription could not be read upstream: the payment is still adopted, unlinked (the reconciler links nothing later). */
function subscriptionUnavailable(err: unknown): null {
  logLine("warn", "subscription adoption skipped", { error: summarizeError(err) });
  return null;
}

async function findPaymentByUpstream(deps: Deps, tenant: Tenant, payment: UpstreamPayment): Promise<PaymentRow | undefined> {
  const byId = eq(payments.upstreamId, payment.id);
  // Our own create's webhook can arrive before its answer: then only externalReference (our id) matches.
  const ref = payment.externalReference && UUID_RE.test(payment.externalReference) ? eq(payments.id, payment.externalReference) : undefined;
  return deps.db
    .select()
    .from(payments)
    .where(and(inTenant(payments, tenant), ref ? or(byId, ref) : byId))
    .get();
}

async function findSubscriptionByUpstream(
  deps: Deps,
  tenant: Tenant,
  upstreamId: string,
  externalReference?: string | null,
): Promise<SubscriptionRow | undefined> {
  const byId = eq(subscriptions.upstreamId, upstreamId);
  const ref = externalReference && UUID_RE.test(externalReference) ? eq(subscriptions.id, externalReference) : undefined;
  return deps.db
    .select()
    .from(subscriptions)
    .where(and(inTenant(subscriptions, tenant), ref ? or(byId, ref) : byId))
    .get();
}

/** A payment the upstream generated for a subscription becomes a native payment (once: unique upstream id). */
async function createSubscriptionPayment(deps: Deps, sub: SubscriptionRow, payment: UpstreamPayment): Promise<void> {
  const now = deps.now().toISOString();
  const row: PaymentRow = {
    id: newId(),
    organizationId: sub.organizationId,
    workspaceId: sub.workspaceId,
    // A subscription's payments share its origin (`api` for Ponte's own).
    origin: sub.origin,
    upstreamId: payment.id,
    syncStatus: "synced",
    customerId: sub.customerId,
    subscriptionId: sub.id,
    billingType: (payment.billingType as PaymentRow["billingType"]) ?? sub.billingType,
    status: "PENDING",
    valueCents: typeof payment.value === "number" ? fromUpstreamAmount(payment.value) : sub.valueCents,
    refundedCents: 0,
    dueDate: payment.dueDate ?? sub.nextDueDate,
    description: payment.description ?? sub.description,
    externalReference: null,
    discount: null,
    fine: null,
    interest: null,
    cardToken: payment.creditCard?.creditCardToken ?? null,
    cardBrand: payment.creditCard?.creditCardBrand ?? null,
    cardLast4: payment.creditCard?.creditCardNumber?.slice(-4) ?? null,
    invoiceUrl: payment.invoiceUrl ?? null,
    bankSlipUrl: payment.bankSlipUrl ?? null,
    paymentDate: null,
    failureReason: null,
    identificationField: null,
    netValueCents: null,
    idempotencyKey: null,
    installmentId: null,
    installmentNumber: null,
    createdAt: now,
    updatedAt: now,
  };
  const facts = { payment: { before: null, after: row } };
  const { event, statement, rollups } = recordEventIfChanged(deps, sub, "payment.created", presentPayment(row), facts);
  const [result] = await deps.db.batch([deps.db.insert(payments).values(row).onConflictDoNothing(), statement, ...rollups]);
  if (changedRows(result) > 0) dispatchEvents(deps, [event]);
  const stored = await deps.db
    .select()
    .from(payments)
    .where(and(inTenant(payments, sub), eq(payments.upstreamId, payment.id)))
    .get();
  // A card subscription's payment may already be confirmed: apply its status through the table.
  if (stored) await applyUpstreamPayment(deps, stored, payment);
}
