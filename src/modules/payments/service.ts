// Charges: write the Ponte record (pending), create it upstream with Ponte's id as externalReference,
// then link it. Ambiguous failures leave it pending for the sweeper; definitive ones leave no record
// (or, for a refused card, a FAILED one).
import { and, eq, type SQL } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../auth/principal";
import { centsOf } from "../../billing/schemas";
import { isAmbiguousFailure, upstreamErrorItems, upstreamJson, type GatewayCredentials } from "../../billing/upstream";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { formatMoney, toUpstreamAmount } from "../../lib/money";
import { charges } from "../../db/schema";
import { resolveGatewayAccount } from "../../gateway/accounts";
import { ApiError } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { customerForBilling } from "../customers/service";
import { cardForCustomer, type SavedCard } from "../payment-methods/service";
import { assertChargeAction } from "./charge-status";
import { applyUpstreamPayment, findChargeRow, presentCharge, transitionCharge, type ChargeRow, type UpstreamPayment } from "./charge-state";
import type { CreateChargeBody } from "./schemas";
import type { z } from "@hono/zod-openapi";
import { newestFirstPage } from "../../db/paging";
import { inTenant } from "../../db/tenant-scope";

export type CreateChargeInput = z.infer<typeof CreateChargeBody>;

type Money = string | number;
const moneyObject = <T extends { value: Money }>(o: T | undefined) => (o ? { ...o, value: formatMoney(centsOf(o.value)) } : null);
const upstreamMoneyObject = (o: Record<string, unknown> | null | undefined) => (o ? { ...o, value: toUpstreamAmount(centsOf(o.value as Money)) } : undefined);

function upstreamChargeBody(row: ChargeRow, customerUpstreamId: string, extra: Record<string, unknown>) {
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

const isCardRefusal = (row: ChargeRow, err: ApiError) =>
  row.billingType === "CREDIT_CARD" && err.code === "BAD_REQUEST" && upstreamErrorItems(err).some((e) => e.code === "invalid_creditCard");

export async function createCharge(deps: Deps, principal: Principal, input: CreateChargeInput, idempotencyKey?: string) {
  requirePermission(principal, "payments.manage");
  const credentials = await resolveGatewayAccount(deps, principal);
  if (idempotencyKey) {
    // A retry after a lost answer (the HTTP idempotency record is not kept for 5xx): resume, never re-charge.
    const existing = await deps.db.select().from(charges).where(and(inTenant(charges, principal), eq(charges.idempotencyKey, idempotencyKey))).get();
    if (existing) return presentCharge(await reconcileCharge(deps, credentials, existing));
  }
  const customer = await customerForBilling(deps, credentials, tenantOf(principal), input.customer);
  const card = input.creditCardToken ? await cardForCustomer(deps, principal, customer.id, input.creditCardToken) : ({} as Partial<SavedCard>);
  const now = deps.now().toISOString();
  const row: ChargeRow = {
    id: newId(),
    ...tenantOf(principal),
    upstreamId: null,
    syncStatus: "pending",
    customerId: customer.id,
    subscriptionId: null,
    billingType: input.billingType,
    status: "PENDING",
    valueCents: centsOf(input.value),
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
    idempotencyKey: idempotencyKey ?? null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.insert(charges).values(row);
  // Raw card data is forwarded once and never kept: it is not in `row`.
  const cardData = input.creditCard ? { creditCard: input.creditCard, creditCardHolderInfo: input.creditCardHolderInfo } : {};
  const remoteIp = input.remoteIp ? { remoteIp: input.remoteIp } : {};
  let payment: UpstreamPayment;
  try {
    payment = await upstreamJson<UpstreamPayment>(deps, credentials, { flow: "create-charge", method: "POST", path: "/v3/payments", body: upstreamChargeBody(row, customer.upstreamId, { ...cardData, ...remoteIp }), surfacePath: "/api/v1/payments" });
  } catch (err) {
    if (!(err instanceof ApiError) || isAmbiguousFailure(err)) throw err;
    if (isCardRefusal(row, err)) throw await failRefusedCharge(deps, row, err);
    await deps.db.delete(charges).where(and(eq(charges.id, row.id), eq(charges.syncStatus, "pending")));
    throw err;
  }
  let current = await applyUpstreamPayment(deps, row, payment);
  current = await ensureIdentificationField(deps, credentials, current);
  return presentCharge((await deps.db.select().from(charges).where(eq(charges.id, row.id)).get()) ?? current);
}

/** A refused card: the record stays, FAILED with the upstream's reason (payment.failed), and the API answers 400. */
async function failRefusedCharge(deps: Deps, row: ChargeRow, err: ApiError): Promise<ApiError> {
  const reason = upstreamErrorItems(err).map((e) => e.description ?? e.code).filter(Boolean).join("; ") || "The card was refused.";
  const { row: failed } = await transitionCharge(deps, row, "FAILED", { failureReason: reason, syncStatus: "failed" });
  return new ApiError("BAD_REQUEST", `The card was refused: ${reason}`, { chargeId: row.id, status: failed.status, failureReason: reason, upstreamStatus: err.details.upstreamStatus, errors: err.details.errors });
}

/** Boleto line: fetched right after create; if that fails, on the next read. */
async function ensureIdentificationField(deps: Deps, credentials: GatewayCredentials, row: ChargeRow): Promise<ChargeRow> {
  if (row.identificationField || !row.upstreamId || (row.billingType !== "BOLETO" && row.billingType !== "UNDEFINED")) return row;
  try {
    const line = await upstreamJson<{ identificationField: string }>(deps, credentials, { flow: "boleto-line", method: "GET", path: `/v3/payments/${row.upstreamId}/identificationField` });
    await deps.db.update(charges).set({ identificationField: line.identificationField }).where(eq(charges.id, row.id));
    return { ...row, identificationField: line.identificationField };
  } catch {
    return row; // best effort; the next GET tries again
  }
}

/** Sweeper and resume path: link to the upstream charge holding our id, or create it only if there is none. */
export async function reconcileCharge(deps: Deps, credentials: GatewayCredentials, row: ChargeRow): Promise<ChargeRow> {
  if (row.syncStatus !== "pending") return row;
  const found = await upstreamJson<{ data: UpstreamPayment[] }>(deps, credentials, { flow: "reconcile-charge", method: "GET", path: "/v3/payments", query: `externalReference=${encodeURIComponent(row.id)}` });
  const match = found.data[0];
  if (match) return ensureIdentificationField(deps, credentials, await applyUpstreamPayment(deps, row, match));
  if (row.billingType === "CREDIT_CARD" && !row.cardToken) {
    // The card data was never kept, so this charge cannot be re-sent: it fails, nothing was charged.
    return (await transitionCharge(deps, row, "FAILED", { failureReason: "The upstream never received this card charge; card data is not retained, so it was not retried.", syncStatus: "failed" })).row;
  }
  const customer = await customerForBilling(deps, credentials, row, row.customerId);
  try {
    const payment = await upstreamJson<UpstreamPayment>(deps, credentials, { flow: "reconcile-charge", method: "POST", path: "/v3/payments", body: upstreamChargeBody(row, customer.upstreamId, {}) });
    return ensureIdentificationField(deps, credentials, await applyUpstreamPayment(deps, row, payment));
  } catch (err) {
    if (err instanceof ApiError && !isAmbiguousFailure(err) && isCardRefusal(row, err)) await failRefusedCharge(deps, row, err);
    throw err;
  }
}

export async function listCharges(deps: Deps, principal: Principal, page: PageRequest, filters: { customer?: string | undefined; subscription?: string | undefined; status?: string | undefined; billingType?: string | undefined; externalReference?: string | undefined }) {
  requirePermission(principal, "payments.read");
  const conditions: SQL[] = [inTenant(charges, principal)];
  if (filters.customer) conditions.push(eq(charges.customerId, filters.customer));
  if (filters.subscription) conditions.push(eq(charges.subscriptionId, filters.subscription));
  if (filters.status) conditions.push(eq(charges.status, filters.status));
  if (filters.billingType) conditions.push(eq(charges.billingType, filters.billingType as ChargeRow["billingType"]));
  if (filters.externalReference) conditions.push(eq(charges.externalReference, filters.externalReference));
  const where = and(...conditions);
  const { rows, totalCount } = await newestFirstPage(deps.db, charges, where, page);
  return { rows: rows.map(presentCharge), totalCount };
}

export async function getCharge(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "payments.read");
  const row = await findChargeRow(deps, tenantOf(principal), id);
  if (!row.identificationField && row.upstreamId && (row.billingType === "BOLETO" || row.billingType === "UNDEFINED")) {
    return presentCharge(await ensureIdentificationField(deps, await resolveGatewayAccount(deps, principal), row));
  }
  return presentCharge(row);
}

export async function getChargeStatus(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "payments.read");
  const row = await findChargeRow(deps, tenantOf(principal), id);
  return { id: row.id, status: row.status, syncStatus: row.syncStatus };
}

function requireSynced(row: ChargeRow): asserts row is ChargeRow & { upstreamId: string } {
  if (!row.upstreamId) {
    throw new ApiError("INVALID_STATE", `Charge '${row.id}' is not yet synced with the upstream provider (syncStatus ${row.syncStatus}); retry shortly.`, { chargeId: row.id, status: row.status, syncStatus: row.syncStatus });
  }
}

/** Cancel (POST …/cancel) and delete (DELETE …): only an open charge; upstream first, then CANCELED + payment.canceled. */
export async function cancelCharge(deps: Deps, principal: Principal, id: string, surfacePath: string) {
  requirePermission(principal, "payments.manage");
  const row = await findChargeRow(deps, tenantOf(principal), id);
  assertChargeAction(row.status, "cancel", row.id);
  requireSynced(row);
  const credentials = await resolveGatewayAccount(deps, principal);
  await upstreamJson(deps, credentials, { flow: "cancel-charge", method: "DELETE", path: `/v3/payments/${row.upstreamId}`, surfacePath });
  // The upstream's PAYMENT_DELETED webhook may already have applied it; the guarded update emits once either way.
  await transitionCharge(deps, row, "CANCELED");
  return presentCharge(await findChargeRow(deps, tenantOf(principal), id));
}

export async function getPixQrCode(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "payments.read");
  const row = await findChargeRow(deps, tenantOf(principal), id);
  if (row.billingType === "CREDIT_CARD") {
    throw new ApiError("INVALID_STATE", `Charge '${id}' is a CREDIT_CARD charge; a PIX QR code exists only for PIX, BOLETO or UNDEFINED charges.`, { chargeId: id, billingType: row.billingType, status: row.status });
  }
  requireSynced(row);
  const credentials = await resolveGatewayAccount(deps, principal);
  const qr = await upstreamJson<{ payload: string; encodedImage: string; expirationDate: string }>(deps, credentials, { flow: "pix-qr-code", method: "GET", path: `/v3/payments/${row.upstreamId}/pixQrCode`, surfacePath: `/api/v1/payments/${id}/pix` });
  return { payload: qr.payload, encodedImage: qr.encodedImage, expirationDate: qr.expirationDate };
}
