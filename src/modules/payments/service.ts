// Payments: write the Ponte record (pending), create it upstream with Ponte's id as externalReference,
// then link it. Ambiguous failures leave it pending for the sweeper; definitive ones leave no record
// (or, for a refused card, a FAILED one).
import { and, eq, type SQL } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import type { Tenant } from "../../lib/tenant";
import { centsOf } from "../../billing/schemas";
import { isAmbiguousFailure, upstreamErrorItems, upstreamJson, type GatewayCredentials } from "../../billing/upstream";
import { type Deps, d1Of } from "../../deps";
import { newId } from "../../lib/ids";
import { formatMoney, toUpstreamAmount } from "../../lib/money";
import { payments } from "../../db/schema";
import { resolveGatewayAccount } from "../../gateway/accounts";
import { ApiError } from "../../http/errors";
import { markStage } from "../../http/server-timing";
import type { PageRequest } from "../../http/pagination";
import { assertBillableCustomer, customerForBilling } from "../customers/service";
import {
  chargedCustomerFromRow,
  CUSTOMER_UPSTREAM_ID,
  customerForCharge,
  insertPendingPayment as insertPending,
  paymentByIdempotencyKey,
  paymentFromRow,
} from "./statements";
import { cardForCustomer, type SavedCard } from "../payment-methods/service";
import { assertPaymentAction } from "./status-rules";
import {
  applyUpstreamPayment,
  findPaymentRow,
  linkPayment,
  presentPayment,
  settlesOnLink,
  transitionPayment,
  type PaymentRow,
  type UpstreamPayment,
} from "./lifecycle";
import type { CreatePaymentBody, PaymentListQuery } from "./schemas";
import { onDays, onLocalDays } from "../../db/date-filters";
import { createInstallmentPlan } from "./installments";
import type { z } from "@hono/zod-openapi";
import { newestFirstPage } from "../../db/paging";
import { inTenant } from "../../db/tenant-scope";

export type CreatePaymentInput = z.infer<typeof CreatePaymentBody>;

type Money = string | number;
const moneyObject = <T extends { value: Money }>(o: T | undefined) => (o ? { ...o, value: formatMoney(centsOf(o.value)) } : null);
const upstreamMoneyObject = (o: Record<string, unknown> | null | undefined) =>
  o ? { ...o, value: toUpstreamAmount(centsOf(o.value as Money)) } : undefined;

function upstreamPaymentBody(row: PaymentRow, customerUpstreamId: string, extra: Record<string, unknown>) {
  return {
    customer: customerUpstreamId,
    billingType: row.billingType,
    value: toUpstreamAmount(row.valueCents),
    dueDate: row.dueDate,
    ...(row.description ? { description: row.description } : {}),
    externalReference: row.id,
    ...(row.discount ? { discount: upstreamMoneyObject(row.discount) } : {}),
    ...(row.fine ? { fine: upstreamMoneyObject(row.fine) } : {}),
    ...(row.interest ? { interest: upstreamMoneyObject(row.interest) } : {}),
    ...(row.cardToken ? { creditCardToken: row.cardToken } : {}),
    ...extra,
  };
}

const isCardRefusal = (row: PaymentRow, err: ApiError) =>
  row.billingType === "CREDIT_CARD" && err.code === "BAD_REQUEST" && upstreamErrorItems(err).some((e) => e.code === "invalid_creditCard");

/**
 * `answerStatus`: the HTTP status the route answers with; a create the link settles stores the
 * Idempotency-Key's answer in the link's batch (`linkPayment`).
 */
export async function createPayment(
  deps: Deps,
  principal: Principal,
  input: CreatePaymentInput,
  idempotencyKey?: string,
  answerStatus?: number,
) {
  requirePermission(principal, "payments.manage");
  const credentials = await resolveGatewayAccount(deps, principal);
  const tenant = tenantOf(principal);
  if (input.installmentCount !== undefined || input.creditCardToken) {
    return createWithSavedCardOrPlan(deps, credentials, principal, input, idempotencyKey, answerStatus);
  }
  const row = newPaymentRow(deps, tenant, input, {}, idempotencyKey);
  markStage(deps, "chain");
  // One D1 round trip before the upstream call on a fresh create (with the request's idempotency claim riding along).
  const { existing, customer } = await insertPendingPayment(deps, tenant, row);
  markStage(deps, "pending-batch");
  // A retry after a lost answer (the HTTP idempotency record is not kept for 5xx): resume, never re-payment.
  if (existing) return presentPayment(await reconcilePayment(deps, credentials, existing));
  const billable = assertBillableCustomer(customer, input.customer);
  let customerUpstreamId = billable.upstreamId;
  if (!customerUpstreamId) {
    // The customer is not yet known upstream (its own create was interrupted): sync it, then record the payment.
    customerUpstreamId = (await customerForBilling(deps, credentials, tenant, input.customer)).upstreamId;
    await deps.db.insert(payments).values(row);
  }
  return sendPayment(deps, credentials, row, customerUpstreamId, input, answerStatus);
}

/**
 * The pending record, in one statement (the request's idempotency claim rides in its batch): written only if
 * its Idempotency-Key holds no record yet and the customer exists, is not deleted and is known upstream,
 * answering that customer's upstream id. Nobody ever sees a record for a customer that cannot be billed.
 * Only when nothing was written (a retried key, a customer that cannot be billed as it stands: never on a
 * fresh create) a second batch reads why: the payment holding the key, the customer, and the same insert
 * again (the customer may have become billable in between).
 */
async function insertPendingPayment(deps: Deps, tenant: Tenant, row: PaymentRow) {
  const d1 = d1Of(deps);
  const [inserted] = await d1.batch([insertPending(d1, row)]);
  const written = inserted?.results[0] as Record<string, unknown> | undefined;
  const upstreamId = written?.[CUSTOMER_UPSTREAM_ID];
  if (typeof upstreamId === "string") return { existing: undefined, customer: { deletedAt: null, upstreamId } };
  const byKey = row.idempotencyKey ? [paymentByIdempotencyKey(d1, { ...tenant, key: row.idempotencyKey })] : [];
  const results = await d1.batch([...byKey, customerForCharge(d1, { ...tenant, customerId: row.customerId }), insertPending(d1, row)]);
  const existing = byKey.length > 0 ? (results[0]?.results[0] as Record<string, unknown> | undefined) : undefined;
  return {
    existing: existing ? paymentFromRow(existing) : undefined,
    customer: chargedCustomerFromRow(results[byKey.length]?.results[0] as Record<string, unknown> | undefined),
  };
}

/** Saved-card charges and installment plans: the customer, then the card or the plan, step by step. */
async function createWithSavedCardOrPlan(
  deps: Deps,
  credentials: GatewayCredentials,
  principal: Principal,
  input: CreatePaymentInput,
  idempotencyKey: string | undefined,
  answerStatus: number | undefined,
) {
  const tenant = tenantOf(principal);
  if (idempotencyKey) {
    const existing = await deps.db
      .select()
      .from(payments)
      .where(and(inTenant(payments, tenant), eq(payments.idempotencyKey, idempotencyKey)))
      .get();
    if (existing) return presentPayment(await reconcilePayment(deps, credentials, existing));
  }
  const customer = await customerForBilling(deps, credentials, tenant, input.customer);
  const card = input.creditCardToken
    ? await cardForCustomer(deps, principal, customer.id, input.creditCardToken)
    : ({} as Partial<SavedCard>);
  if (input.installmentCount !== undefined) {
    const plan = { ...input, installmentCount: input.installmentCount };
    return createInstallmentPlan(deps, credentials, tenant, customer.upstreamId, plan, card);
  }
  const row = newPaymentRow(deps, tenant, input, card, idempotencyKey);
  await deps.db.insert(payments).values(row);
  return sendPayment(deps, credentials, row, customer.upstreamId, input, answerStatus);
}

function newPaymentRow(
  deps: Deps,
  tenant: Tenant,
  input: CreatePaymentInput,
  card: Partial<SavedCard>,
  idempotencyKey: string | undefined,
): PaymentRow {
  const now = deps.now().toISOString();
  return {
    id: newId(),
    ...tenant,
    origin: "api",
    upstreamId: null,
    syncStatus: "pending",
    customerId: input.customer,
    subscriptionId: null,
    billingType: input.billingType,
    status: "PENDING",
    valueCents: centsOf(input.value ?? 0),
    refundedCents: 0,
    dueDate: input.dueDate,
    description: input.description ?? null,
    externalReference: input.externalReference ?? null,
    discount: moneyObject(input.discount),
    fine: moneyObject(input.fine),
    interest: moneyObject(input.interest),
    cardToken: card.token ?? null,
    cardBrand: card.brand ?? null,
    cardLast4: card.last4 ?? null,
    invoiceUrl: null,
    bankSlipUrl: null,
    paymentDate: null,
    failureReason: null,
    identificationField: null,
    netValueCents: null,
    idempotencyKey: idempotencyKey ?? null,
    installmentId: null,
    installmentNumber: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The upstream create for a recorded pending payment, then the link (payment.created) in one batch. */
async function sendPayment(
  deps: Deps,
  credentials: GatewayCredentials,
  row: PaymentRow,
  customerUpstreamId: string,
  input: CreatePaymentInput,
  answerStatus: number | undefined,
) {
  // Raw card data is forwarded once and never kept: it is not in `row`.
  const cardData = input.creditCard ? { creditCard: input.creditCard, creditCardHolderInfo: input.creditCardHolderInfo } : {};
  const remoteIp = input.remoteIp ? { remoteIp: input.remoteIp } : {};
  let payment: UpstreamPayment;
  try {
    payment = await upstreamJson<UpstreamPayment>(deps, credentials, {
      flow: "create-payment",
      method: "POST",
      path: "/v3/payments",
      body: upstreamPaymentBody(row, customerUpstreamId, { ...cardData, ...remoteIp }),
      surfacePath: "/api/v1/payments",
    });
  } catch (err) {
    if (!(err instanceof ApiError) || isAmbiguousFailure(err)) throw err;
    if (isCardRefusal(row, err)) throw await failRefusedPayment(deps, row, err);
    await deps.db.delete(payments).where(and(eq(payments.id, row.id), eq(payments.syncStatus, "pending")));
    throw err;
  }
  // The link returns the record as it stands, so a webhook that landed meanwhile is in the answer. When
  // the link is all there is to apply, the answer is final at the link: the key's answer rides with it.
  if (settlesOnLink(row, payment) && !needsBoletoLine(row)) return presentPayment(await linkPayment(deps, row, payment, answerStatus));
  const current = await applyUpstreamPayment(deps, row, payment);
  return presentPayment(await ensureIdentificationField(deps, credentials, current));
}

/** A refused card: the record stays, FAILED with the upstream's reason (payment.failed), and the API answers 400. */
async function failRefusedPayment(deps: Deps, row: PaymentRow, err: ApiError): Promise<ApiError> {
  const reason =
    upstreamErrorItems(err)
      .map((e) => e.description ?? e.code)
      .filter(Boolean)
      .join("; ") || "The card was refused.";
  const { row: failed } = await transitionPayment(deps, row, "FAILED", { failureReason: reason, syncStatus: "failed" });
  return new ApiError("BAD_REQUEST", `The card was refused: ${reason}`, {
    paymentId: row.id,
    status: failed.status,
    failureReason: reason,
    upstreamStatus: err.details.upstreamStatus,
    errors: err.details.errors,
  });
}

/** A boleto (or open billing type) without its digitable line yet. */
const needsBoletoLine = (row: PaymentRow) => !row.identificationField && (row.billingType === "BOLETO" || row.billingType === "UNDEFINED");

/** Boleto line: fetched right after create; if that fails, on the next read. */
async function ensureIdentificationField(deps: Deps, credentials: GatewayCredentials, row: PaymentRow): Promise<PaymentRow> {
  if (!needsBoletoLine(row) || !row.upstreamId) return row;
  try {
    const line = await upstreamJson<{ identificationField: string }>(deps, credentials, {
      flow: "boleto-line",
      method: "GET",
      path: `/v3/payments/${row.upstreamId}/identificationField`,
    });
    await deps.db.update(payments).set({ identificationField: line.identificationField }).where(eq(payments.id, row.id));
    return { ...row, identificationField: line.identificationField };
  } catch {
    return row; // best effort; the next GET tries again
  }
}

/** Sweeper and resume path: link to the upstream payment holding our id, or create it only if there is none. */
export async function reconcilePayment(deps: Deps, credentials: GatewayCredentials, row: PaymentRow): Promise<PaymentRow> {
  if (row.syncStatus !== "pending") return row;
  const found = await upstreamJson<{ data: UpstreamPayment[] }>(deps, credentials, {
    flow: "reconcile-payment",
    method: "GET",
    path: "/v3/payments",
    query: `externalReference=${encodeURIComponent(row.id)}`,
  });
  const match = found.data[0];
  if (match) return ensureIdentificationField(deps, credentials, await applyUpstreamPayment(deps, row, match));
  if (row.billingType === "CREDIT_CARD" && !row.cardToken) {
    // The card data was never kept, so this payment cannot be re-sent: it fails, nothing was charged.
    return (
      await transitionPayment(deps, row, "FAILED", {
        failureReason: "The upstream never received this card payment; card data is not retained, so it was not retried.",
        syncStatus: "failed",
      })
    ).row;
  }
  const customer = await customerForBilling(deps, credentials, row, row.customerId);
  try {
    const payment = await upstreamJson<UpstreamPayment>(deps, credentials, {
      flow: "reconcile-payment",
      method: "POST",
      path: "/v3/payments",
      body: upstreamPaymentBody(row, customer.upstreamId, {}),
    });
    return ensureIdentificationField(deps, credentials, await applyUpstreamPayment(deps, row, payment));
  } catch (err) {
    if (err instanceof ApiError && !isAmbiguousFailure(err) && isCardRefusal(row, err)) await failRefusedPayment(deps, row, err);
    throw err;
  }
}

export async function listPayments(
  deps: Deps,
  principal: Principal,
  page: PageRequest,
  filters: Omit<z.infer<typeof PaymentListQuery>, "limit" | "offset">,
) {
  requirePermission(principal, "payments.read");
  const conditions: SQL[] = [inTenant(payments, principal)];
  if (filters.customer) conditions.push(eq(payments.customerId, filters.customer));
  if (filters.subscription) conditions.push(eq(payments.subscriptionId, filters.subscription));
  if (filters.status) conditions.push(eq(payments.status, filters.status));
  if (filters.billingType) conditions.push(eq(payments.billingType, filters.billingType as PaymentRow["billingType"]));
  if (filters.externalReference) conditions.push(eq(payments.externalReference, filters.externalReference));
  if (filters.installment) conditions.push(eq(payments.installmentId, filters.installment));
  conditions.push(
    ...onDays(payments.dueDate, filters.dueDate, filters["dueDate[ge]"], filters["dueDate[le]"]),
    ...onDays(payments.paymentDate, filters.paymentDate, filters["paymentDate[ge]"], filters["paymentDate[le]"]),
    ...onLocalDays(payments.createdAt, filters.dateCreated, filters["dateCreated[ge]"], filters["dateCreated[le]"]),
  );
  const where = and(...conditions);
  const { rows, totalCount } = await newestFirstPage(deps.db, payments, where, page);
  return { rows: rows.map(presentPayment), totalCount };
}

export async function getPayment(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "payments.read");
  const row = await findPaymentRow(deps, tenantOf(principal), id);
  if (needsBoletoLine(row) && row.upstreamId) {
    return presentPayment(await ensureIdentificationField(deps, await resolveGatewayAccount(deps, principal), row));
  }
  return presentPayment(row);
}

export async function getPaymentStatus(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "payments.read");
  const row = await findPaymentRow(deps, tenantOf(principal), id);
  return { id: row.id, status: row.status, syncStatus: row.syncStatus };
}

function requireSynced(row: PaymentRow): asserts row is PaymentRow & { upstreamId: string } {
  if (!row.upstreamId) {
    throw new ApiError(
      "INVALID_STATE",
      `Payment '${row.id}' is not yet synced with the upstream provider (syncStatus ${row.syncStatus}); retry shortly.`,
      { paymentId: row.id, status: row.status, syncStatus: row.syncStatus },
    );
  }
}

/** Cancel (POST …/cancel) and delete (DELETE …): only an open payment; upstream first, then CANCELED + payment.canceled. */
export async function cancelPayment(deps: Deps, principal: Principal, id: string, surfacePath: string) {
  requirePermission(principal, "payments.manage");
  const row = await findPaymentRow(deps, tenantOf(principal), id);
  assertPaymentAction(row.status, "cancel", row.id);
  requireSynced(row);
  const credentials = await resolveGatewayAccount(deps, principal);
  await upstreamJson(deps, credentials, { flow: "cancel-payment", method: "DELETE", path: `/v3/payments/${row.upstreamId}`, surfacePath });
  // The upstream's PAYMENT_DELETED webhook may already have applied it; the guarded update emits once either way.
  await transitionPayment(deps, row, "CANCELED");
  return presentPayment(await findPaymentRow(deps, tenantOf(principal), id));
}

export async function getPixQrCode(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "payments.read");
  const row = await findPaymentRow(deps, tenantOf(principal), id);
  if (row.billingType === "CREDIT_CARD") {
    throw new ApiError(
      "INVALID_STATE",
      `Payment '${id}' is a CREDIT_CARD payment; a PIX QR code exists only for PIX, BOLETO or UNDEFINED payments.`,
      { paymentId: id, billingType: row.billingType, status: row.status },
    );
  }
  requireSynced(row);
  const credentials = await resolveGatewayAccount(deps, principal);
  const qr = await upstreamJson<{ payload: string; encodedImage: string; expirationDate: string }>(deps, credentials, {
    flow: "pix-qr-code",
    method: "GET",
    path: `/v3/payments/${row.upstreamId}/pixQrCode`,
    surfacePath: `/api/v1/payments/${id}/pix`,
  });
  return { payload: qr.payload, encodedImage: qr.encodedImage, expirationDate: qr.expirationDate };
}
