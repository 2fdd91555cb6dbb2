// Actions on one payment: refunds, PIX QR code, boleto line, sandbox confirm/overdue, account approval.
import { buildBoleto } from "./boleto";
import { buildPixPayload } from "./brcode";
import { bodyObject, emit, type Handler, type SimContext } from "./context";
import { addDays, asNumber, badRequest, dateTime, isoDate, listBody, money, readPage } from "./http";
import { findPayment, OPEN_STATUSES, REFUNDABLE_STATUSES } from "./payment-records";
import { qrPngBase64 } from "./qr";
import type { Payment, Refund } from "./state";

export const refundPayment: Handler = (ctx) => {
  const payment = findPayment(ctx.account, ctx.params.id);
  if (payment.deleted || !REFUNDABLE_STATUSES.has(payment.status)) {
    throw badRequest("invalid_action", "Só é possível estornar cobranças recebidas ou confirmadas.");
  }
  const body = bodyObject(ctx);
  const refunded = money((payment.refunds ?? []).reduce((sum, r) => sum + r.value, 0));
  const remaining = money(payment.value - refunded);
  const value = body.value === undefined || body.value === null ? remaining : asNumber(body.value);
  if (value === undefined || value <= 0) throw badRequest("invalid_value", "O valor do estorno deve ser maior que zero.");
  if (money(value) > remaining) {
    throw badRequest("invalid_value", `O valor do estorno excede o valor disponível para estorno (${remaining.toFixed(2)}).`);
  }
  const now = dateTime();
  const refund: Refund = {
    dateCreated: now,
    status: "DONE",
    value: money(value),
    endToEndIdentifier: null,
    description: typeof body.description === "string" ? body.description : null,
    effectiveDate: now,
    transactionReceiptUrl: `${ctx.origin}/comprovantes/estorno/${payment.id.slice(4)}`,
    refundedSplits: [],
  };
  payment.refunds = [...(payment.refunds ?? []), refund];
  if (money(remaining - refund.value) === 0) {
    payment.status = "REFUNDED";
    emit(ctx, "PAYMENT_REFUNDED", "payment", payment);
  } else {
    emit(ctx, "PAYMENT_PARTIALLY_REFUNDED", "payment", payment);
  }
  return payment;
};

export const listPaymentRefunds: Handler = ({ account, params, query }) =>
  listBody(findPayment(account, params.id).refunds ?? [], readPage(query));

export const getPixQrCode: Handler = async (ctx) => {
  const payment = findPayment(ctx.account, ctx.params.id);
  if (payment.billingType === "CREDIT_CARD") {
    throw badRequest("invalid_billingType", "QR Code Pix disponível apenas para cobranças Pix, boleto ou a definir.");
  }
  const payload = buildPixPayload({
    location: `pix.ponte-sim.invalid/qr/cobv/${payment.id.slice(4)}`,
    amount: payment.value,
    merchantName: ctx.env.PIX_MERCHANT_NAME ?? "Ponte Sandbox",
    merchantCity: ctx.env.PIX_MERCHANT_CITY ?? "Sao Paulo",
    txid: payment.id,
  });
  return {
    encodedImage: await qrPngBase64(payload),
    payload,
    expirationDate: `${addDays(payment.dueDate, 365)} 23:59:59`,
  };
};

export const getIdentificationField: Handler = ({ account, params }) => {
  const payment = findPayment(account, params.id);
  if (payment.billingType !== "BOLETO" && payment.billingType !== "UNDEFINED") {
    throw badRequest("invalid_billingType", "Linha digitável disponível apenas para cobranças por boleto.");
  }
  const free = (payment.nossoNumero + payment.id.replace(/\D/g, "")).padEnd(25, "0");
  const { barCode, identificationField } = buildBoleto(payment.value, payment.dueDate, free);
  return { identificationField, nossoNumero: payment.nossoNumero, barCode };
};

export const sandboxConfirm: Handler = (ctx) => confirmPaymentRecord(ctx, findPayment(ctx.account, ctx.params.id));

/** The payer pays: PIX/boleto → RECEIVED (PAYMENT_RECEIVED), card → CONFIRMED (PAYMENT_CONFIRMED). */
export function confirmPaymentRecord(ctx: SimContext, payment: Payment): Payment {
  if (payment.deleted || !OPEN_STATUSES.has(payment.status)) {
    throw badRequest("invalid_action", "Só é possível confirmar cobranças pendentes ou vencidas.");
  }
  const today = isoDate();
  payment.clientPaymentDate = today;
  payment.confirmedDate = today;
  if (payment.billingType === "CREDIT_CARD") {
    payment.status = "CONFIRMED";
    payment.estimatedCreditDate = addDays(today, 30);
    emit(ctx, "PAYMENT_CONFIRMED", "payment", payment);
  } else {
    payment.status = "RECEIVED";
    payment.paymentDate = today;
    payment.creditDate = today;
    emit(ctx, "PAYMENT_RECEIVED", "payment", payment);
  }
  holdInEscrow(ctx, payment);
  return payment;
}

export const sandboxOverdue: Handler = (ctx) => {
  const payment = findPayment(ctx.account, ctx.params.id);
  if (payment.deleted || payment.status !== "PENDING") {
    throw badRequest("invalid_action", "Só é possível vencer cobranças pendentes.");
  }
  payment.status = "OVERDUE";
  if (payment.dueDate >= isoDate()) payment.dueDate = addDays(isoDate(), -1);
  emit(ctx, "PAYMENT_OVERDUE", "payment", payment);
  return payment;
};

/** With the account's default escrow enabled (POST /accounts/escrow), a paid charge's money is held until it expires or is finished. */
function holdInEscrow(ctx: SimContext, payment: Payment): void {
  const config = ctx.account.singletons.get("escrow/default");
  if (!config?.enabled) return;
  payment.escrow = {
    id: crypto.randomUUID(),
    status: "ACTIVE",
    expirationDate: addDays(isoDate(), Number(config.daysToExpire) || 30),
    finishDate: null,
    finishReason: null,
  };
}
