// Payment operations beyond create/read/refund: cash receipt (and its undo), capture of a pre-authorization,
// paying an open charge by card, billing and viewing info, the sales simulator, daily limits, boleto refund
// requests, the payment's chargeback / escrow / contractual effects, and its documents.
import { acceptCard, chargeToken, type ChargedCard } from "./cards";
import { bodyObject, emit, type Handler, type SimContext } from "./context";
import { type Resource, createIn, getIn, listIn, removeIn, updateIn } from "./engine";
import { addDays, asNumber, badRequest, isDateString, isoDate, listBody, money, notFound, readPage, type Json } from "./http";
import { getIdentificationField, getPixQrCode } from "./payment-actions";
import { findPayment, netValueOf, OPEN_STATUSES } from "./payment-records";
import { upstreamEnum } from "./records";
import type { Payment } from "./state";

const openPayment = (ctx: SimContext, what: string): Payment => {
  const payment = findPayment(ctx.account, ctx.params.id);
  if (payment.deleted || !OPEN_STATUSES.has(payment.status)) {
    throw badRequest("invalid_action", `Só é possível ${what} cobranças pendentes ou vencidas.`);
  }
  return payment;
};

/** `POST /payments/{id}/receiveInCash`: the payer paid outside the upstream; the payment becomes RECEIVED_IN_CASH. */
export const receiveInCash: Handler = (ctx) => {
  const payment = openPayment(ctx, "confirmar o recebimento em dinheiro de");
  const body = bodyObject(ctx);
  const paymentDate = body.paymentDate ?? isoDate();
  if (!isDateString(paymentDate)) throw badRequest("invalid_paymentDate", "A data de pagamento é inválida (YYYY-MM-DD).");
  const value = body.value === undefined || body.value === null ? payment.value : asNumber(body.value);
  if (value === undefined || value <= 0) throw badRequest("invalid_value", "O valor recebido deve ser maior que zero.");
  Object.assign(payment, {
    status: "RECEIVED_IN_CASH",
    value: money(value),
    netValue: money(value),
    paymentDate,
    clientPaymentDate: paymentDate,
    confirmedDate: paymentDate,
  });
  emit(ctx, "PAYMENT_RECEIVED", "payment", payment);
  return payment;
};

/** `POST /payments/{id}/undoReceivedInCash`: back to PENDING (OVERDUE when past due). */
export const undoReceivedInCash: Handler = (ctx) => {
  const payment = findPayment(ctx.account, ctx.params.id);
  if (payment.status !== "RECEIVED_IN_CASH") throw badRequest("invalid_action", "A cobrança não foi recebida em dinheiro.");
  Object.assign(payment, {
    status: payment.dueDate < isoDate() ? "OVERDUE" : "PENDING",
    netValue: netValueOf(payment.value, payment.billingType),
    paymentDate: null,
    clientPaymentDate: null,
    confirmedDate: null,
  });
  emit(ctx, "PAYMENT_RECEIVED_IN_CASH_UNDONE", "payment", payment);
  return payment;
};

/** `POST /payments/{id}/captureAuthorizedPayment`: an AUTHORIZED card pre-authorization becomes CONFIRMED. */
export const captureAuthorizedPayment: Handler = (ctx) => {
  const payment = findPayment(ctx.account, ctx.params.id);
  if (payment.status !== "AUTHORIZED") throw badRequest("invalid_action", "A cobrança não está pré-autorizada.");
  const today = isoDate();
  Object.assign(payment, { status: "CONFIRMED", confirmedDate: today, clientPaymentDate: today, estimatedCreditDate: addDays(today, 30) });
  emit(ctx, "PAYMENT_CONFIRMED", "payment", payment);
  return payment;
};

/** `POST /payments/{id}/payWithCreditCard` (and payWithCard): the payer pays an open card or undefined charge. */
export const payWithCreditCard: Handler = (ctx) => {
  const payment = openPayment(ctx, "pagar com cartão");
  if (payment.billingType !== "CREDIT_CARD" && payment.billingType !== "UNDEFINED") {
    throw badRequest("invalid_billingType", "Só é possível pagar com cartão cobranças por cartão ou a definir.");
  }
  const body = bodyObject(ctx);
  const card: ChargedCard =
    body.creditCardToken !== undefined
      ? chargeToken(ctx.account, body.creditCardToken)
      : acceptCard(ctx.account, payment.customer, body.creditCard, body.creditCardHolderInfo, true);
  const today = isoDate();
  Object.assign(payment, {
    billingType: "CREDIT_CARD",
    creditCard: card,
    netValue: netValueOf(payment.value, "CREDIT_CARD"),
    status: "CONFIRMED",
    confirmedDate: today,
    clientPaymentDate: today,
    estimatedCreditDate: addDays(today, 30),
  });
  emit(ctx, "PAYMENT_CONFIRMED", "payment", payment);
  return payment;
};

/** `GET /payments/{id}/billingInfo`: how the payer can pay it (Pix QR, boleto line, card used). */
export const billingInfo: Handler = async (ctx) => {
  const payment = findPayment(ctx.account, ctx.params.id);
  const boleto = payment.billingType === "BOLETO" || payment.billingType === "UNDEFINED";
  return {
    pix: payment.billingType === "CREDIT_CARD" ? null : await getPixQrCode(ctx),
    creditCard: (payment.creditCard as Json | undefined) ?? null,
    bankSlip: boleto ? await getIdentificationField(ctx) : null,
  };
};

/** `GET /payments/{id}/viewingInfo`: the simulator's invoices are never opened by a payer. */
export const viewingInfo: Handler = (ctx) => {
  findPayment(ctx.account, ctx.params.id);
  return { invoiceViewedDate: null, boletoViewedDate: null };
};

const feeOf = (value: number, billingType: "CREDIT_CARD" | "BOLETO" | "PIX") => ({
  netValue: netValueOf(value, billingType),
  feePercentage: billingType === "CREDIT_CARD" ? 2.99 : 0,
  operationFee: billingType === "CREDIT_CARD" ? 0.49 : billingType === "PIX" ? 0.99 : 1.99,
});

/** `POST /payments/simulate`: net values per billing type with the simulator's fees. */
export const simulateSale: Handler = (ctx) => {
  const body = bodyObject(ctx);
  const value = asNumber(body.value);
  if (value === undefined || value <= 0) throw badRequest("invalid_value", "Informe o valor a simular.");
  const count = body.installmentCount === undefined ? 1 : asNumber(body.installmentCount);
  if (count === undefined || !Number.isInteger(count) || count < 1 || count > 21) {
    throw badRequest("invalid_installmentCount", "O número de parcelas deve ser entre 1 e 21.");
  }
  const types = Array.isArray(body.billingTypes) ? body.billingTypes : ["CREDIT_CARD", "BOLETO", "PIX"];
  const card = feeOf(value, "CREDIT_CARD");
  return {
    value: money(value),
    creditCard: types.includes("CREDIT_CARD")
      ? { ...card, installment: { paymentValue: money(value / count), paymentNetValue: money(card.netValue / count) } }
      : null,
    bankSlip: types.includes("BOLETO") ? feeOf(value, "BOLETO") : null,
    pix: types.includes("PIX") ? feeOf(value, "PIX") : null,
  };
};

export const DAILY_PAYMENT_LIMIT = 1000;

/** `GET /payments/limits`: payments created today against the daily limit. */
export const paymentLimits: Handler = ({ account }) => {
  const today = isoDate();
  const used = [...account.payments.values()].filter((p) => p.dateCreated === today).length;
  return { creation: { daily: { limit: DAILY_PAYMENT_LIMIT, used, wasReached: used >= DAILY_PAYMENT_LIMIT } } };
};

/** `POST /payments/{id}/bankSlip/refund`: a received boleto's refund is requested; the payer informs an account at the URL. */
export const bankSlipRefund: Handler = (ctx) => {
  const payment = findPayment(ctx.account, ctx.params.id);
  if (payment.billingType !== "BOLETO" || payment.status !== "RECEIVED") {
    throw badRequest("invalid_action", "Só é possível solicitar o estorno de boletos recebidos.");
  }
  payment.status = "REFUND_REQUESTED";
  emit(ctx, "PAYMENT_REFUND_IN_PROGRESS", "payment", payment);
  return { requestUrl: `${ctx.origin}/estorno/${payment.id.slice(4)}` };
};

/** `GET /payments/{id}/chargeback`. */
export const paymentChargeback: Handler = ({ account, params }) => {
  const chargeback = findPayment(account, params.id).chargeback;
  if (!chargeback) throw notFound("A cobrança não possui chargeback.");
  return chargeback as Json;
};

/** `GET /payments/{id}/escrow`. */
export const paymentEscrow: Handler = ({ account, params }) => {
  const escrow = findPayment(account, params.id).escrow;
  if (!escrow) throw notFound("A cobrança não possui garantia na conta escrow.");
  return escrow as Json;
};

/** `POST /escrow/{id}/finish`: ends a payment's escrow early (the id is the escrow's); answers the payment. */
export const finishEscrow: Handler = ({ account, params }) => {
  const payment = [...account.payments.values()].find((p) => (p.escrow as Json | undefined)?.id === params.id);
  if (!payment) throw notFound("Garantia não encontrada.");
  const escrow = payment.escrow as Json;
  if (escrow.status !== "ACTIVE") throw badRequest("invalid_action", "A garantia não está ativa.");
  Object.assign(escrow, { status: "DONE", finishDate: isoDate(), finishReason: "REQUESTED_BY_CUSTOMER" });
  return payment;
};

/** `GET /payments/{id}/contractualEffectRestrictions`: no receivable registry effects exist in the simulator. */
export const contractualEffects: Handler = ({ account, params, query }) => {
  findPayment(account, params.id);
  return listBody([], readPage(query));
};

const documents: Resource = {
  dto: "PaymentDocumentGetResponse",
  key: (ctx) => `paymentDocuments:${ctx.params.id}`,
  param: "documentId",
  missing: "Documento não encontrado.",
  parent: (ctx) => void findPayment(ctx.account, ctx.params.id),
};

const DOCUMENT_TYPES = upstreamEnum("PaymentDocumentType");

export const paymentDocuments = {
  upload: createIn(documents, ["type"], (ctx, record, body) => {
    if (!DOCUMENT_TYPES.includes(String(body.type))) throw badRequest("invalid_type", "Tipo de documento inválido.");
    const file = ctx.form?.get("file");
    if (!file || typeof file === "string") throw badRequest("invalid_file", "Envie o arquivo no campo file.");
    const extension = file.name.includes(".") ? (file.name.split(".").pop() ?? "") : "";
    record.name = file.name;
    record.availableAfterPayment = body.availableAfterPayment === "true" || body.availableAfterPayment === true;
    record.file = {
      publicId: record.id,
      originalName: file.name,
      size: file.size,
      extension,
      previewUrl: null,
      downloadUrl: `${ctx.origin}/documentos/${String(record.id)}`,
    };
  }),
  list: listIn(documents),
  get: getIn(documents),
  update: updateIn(documents, (_ctx, record, body) => {
    if (body.type !== undefined && !DOCUMENT_TYPES.includes(String(body.type)))
      throw badRequest("invalid_type", "Tipo de documento inválido.");
    record.name = record.name || "";
  }),
  remove: removeIn(documents),
};
