// Payments (charges): create (PIX, BOLETO, CREDIT_CARD, UNDEFINED), list, get, status, update, delete, restore.
import { acceptCard, chargeToken, type ChargedCard } from "./cards";
import { createInstallment } from "./installments";
import { bodyObject, emit, type Handler, type SimContext } from "./context";
import { findCustomer } from "./customers";
import { asNumber, badRequest, isDateString, isoDate, listBody, money, newId, notFound, randomDigits, readPage, type Json } from "./http";
import { newestFirst, type Account, type BillingType, type Payment } from "./state";

export const BILLING_TYPES: readonly BillingType[] = ["PIX", "BOLETO", "CREDIT_CARD", "UNDEFINED"];

/** Statuses a payment may still be deleted, updated, confirmed from. */
export const OPEN_STATUSES = new Set(["PENDING", "OVERDUE"]);

export function netValueOf(value: number, billingType: BillingType): number {
  const fee = billingType === "CREDIT_CARD" ? value * 0.0299 + 0.49 : billingType === "PIX" ? 0.99 : 1.99;
  return money(Math.max(value - fee, 0));
}

export function findPayment(account: Account, id: string | undefined): Payment {
  const payment = id ? account.payments.get(id) : undefined;
  if (!payment) throw notFound("Cobrança não encontrada.");
  return payment;
}

export function readBillingType(v: unknown): BillingType {
  if (!BILLING_TYPES.includes(v as BillingType)) {
    throw badRequest("invalid_billingType", "Forma de pagamento inválida. Use PIX, BOLETO, CREDIT_CARD ou UNDEFINED.");
  }
  return v as BillingType;
}

export function readValue(v: unknown): number {
  const value = asNumber(v);
  if (value === undefined || value <= 0) throw badRequest("invalid_value", "O valor da cobrança deve ser maior que zero.");
  return money(value);
}

/** Validates the card part of a create request; returns the charged card or undefined when none was sent. */
export function readCard(ctx: SimContext, customer: string, body: Json, billingType: BillingType): ChargedCard | undefined {
  if (billingType !== "CREDIT_CARD") return undefined;
  if (body.creditCardToken !== undefined) return chargeToken(ctx.account, body.creditCardToken);
  if (body.creditCard === undefined) return undefined; // paid later through the invoice
  return acceptCard(ctx.account, customer, body.creditCard, body.creditCardHolderInfo, true);
}

export interface NewPayment {
  customer: string;
  billingType: BillingType;
  value: number;
  dueDate: string;
  subscription?: string | null;
  description?: unknown;
  externalReference?: unknown;
  discount?: unknown;
  fine?: unknown;
  interest?: unknown;
  card?: ChargedCard;
  /** The installment plan this payment is one instalment of. */
  installment?: { id: string; number: number };
  /** The payment link or checkout it was paid through. */
  paymentLink?: string | null;
  checkoutSession?: string | null;
}

/** Stores a new payment and emits PAYMENT_CREATED (and PAYMENT_CONFIRMED for an approved card). */
export function createPaymentRecord(ctx: SimContext, input: NewPayment): Payment {
  const id = newId("pay");
  const slug = id.slice(4);
  const boleto = input.billingType === "BOLETO" || input.billingType === "UNDEFINED";
  const payment: Payment = {
    object: "payment",
    id,
    dateCreated: isoDate(),
    customer: input.customer,
    subscription: input.subscription ?? null,
    installment: input.installment?.id ?? null,
    checkoutSession: input.checkoutSession ?? null,
    paymentLink: input.paymentLink ?? null,
    value: input.value,
    netValue: netValueOf(input.value, input.billingType),
    originalValue: null,
    interestValue: null,
    description: input.description ?? null,
    billingType: input.billingType,
    canBePaidAfterDueDate: true,
    pixTransaction: null,
    pixQrCodeId: null,
    status: "PENDING",
    dueDate: input.dueDate,
    originalDueDate: input.dueDate,
    paymentDate: null,
    clientPaymentDate: null,
    confirmedDate: null,
    installmentNumber: input.installment?.number ?? null,
    invoiceUrl: `${ctx.origin}/i/${slug}`,
    invoiceNumber: randomDigits(8),
    externalReference: input.externalReference ?? null,
    deleted: false,
    anticipated: false,
    anticipable: false,
    creditDate: null,
    estimatedCreditDate: null,
    transactionReceiptUrl: null,
    nossoNumero: randomDigits(8),
    bankSlipUrl: boleto ? `${ctx.origin}/b/pdf/${slug}` : null,
    discount: input.discount ?? { value: 0, limitDate: null, dueDateLimitDays: 0, type: "FIXED" },
    fine: input.fine ?? { value: 0, type: "FIXED" },
    interest: input.interest ?? { value: 0, type: "PERCENTAGE" },
    postalService: false,
    refunds: null,
  };
  ctx.account.payments.set(id, payment);
  emit(ctx, "PAYMENT_CREATED", "payment", payment);
  if (input.card) {
    const today = isoDate();
    Object.assign(payment, {
      creditCard: { ...input.card },
      status: "CONFIRMED",
      confirmedDate: today,
      clientPaymentDate: today,
      estimatedCreditDate: today,
      transactionReceiptUrl: `${ctx.origin}/comprovantes/${slug}`,
    });
    emit(ctx, "PAYMENT_CONFIRMED", "payment", payment);
  }
  return payment;
}

export const createPayment: Handler = (ctx) => {
  const body = bodyObject(ctx);
  const customerId = body.customer;
  if (typeof customerId !== "string" || customerId === "") throw badRequest("invalid_customer", "O cliente deve ser informado.");
  const customer = ctx.account.customers.get(customerId);
  if (!customer || customer.deleted) throw badRequest("invalid_customer", "Cliente inexistente ou removido.");
  const billingType = readBillingType(body.billingType);
  if (!isDateString(body.dueDate)) throw badRequest("invalid_dueDate", "A data de vencimento deve ser informada (YYYY-MM-DD).");
  const card = readCard(ctx, customerId, body, billingType);
  if (body.installmentCount !== undefined) {
    return createInstallment(ctx, {
      customer: customerId,
      billingType,
      dueDate: body.dueDate,
      description: body.description,
      externalReference: body.externalReference,
      card,
      installmentCount: body.installmentCount,
      installmentValue: body.installmentValue,
      totalValue: body.totalValue,
    });
  }
  const value = readValue(body.value);
  return createPaymentRecord(ctx, {
    customer: customerId,
    billingType,
    value,
    dueDate: body.dueDate,
    description: body.description,
    externalReference: body.externalReference,
    discount: body.discount,
    fine: body.fine,
    interest: body.interest,
    card,
  });
};

export function filterPayments(account: Account, query: URLSearchParams): Payment[] {
  const f = (k: string) => query.get(k) || undefined;
  const customer = f("customer");
  const subscription = f("subscription");
  const status = f("status");
  const billingType = f("billingType");
  const externalReference = f("externalReference");
  const installment = f("installment");
  return newestFirst(account.payments.values()).filter(
    (p) =>
      !p.deleted &&
      (!customer || p.customer === customer) &&
      (!subscription || p.subscription === subscription) &&
      (!status || p.status === status) &&
      (!billingType || p.billingType === billingType) &&
      (!externalReference || p.externalReference === externalReference) &&
      (!installment || p.installment === installment),
  );
}

export const listPayments: Handler = ({ account, query }) => listBody(filterPayments(account, query), readPage(query));

export const getPayment: Handler = ({ account, params }) => findPayment(account, params.id);

export const getPaymentStatus: Handler = ({ account, params }) => ({ status: findPayment(account, params.id).status });

export const updatePayment: Handler = (ctx) => {
  const payment = findPayment(ctx.account, ctx.params.id);
  if (payment.deleted || !OPEN_STATUSES.has(payment.status)) {
    throw badRequest("invalid_action", "Só é possível atualizar cobranças pendentes ou vencidas.");
  }
  const body = bodyObject(ctx);
  if (body.customer !== undefined) findCustomer(ctx.account, String(body.customer));
  if (body.billingType !== undefined) payment.billingType = readBillingType(body.billingType);
  if (body.value !== undefined) payment.value = readValue(body.value);
  if (body.dueDate !== undefined) {
    if (!isDateString(body.dueDate)) throw badRequest("invalid_dueDate", "Data de vencimento inválida.");
    payment.dueDate = body.dueDate;
    if (payment.status === "OVERDUE" && body.dueDate >= isoDate()) payment.status = "PENDING";
  }
  for (const k of ["description", "externalReference", "discount", "fine", "interest", "postalService"]) {
    if (body[k] !== undefined) payment[k] = body[k];
  }
  payment.netValue = netValueOf(payment.value, payment.billingType);
  emit(ctx, "PAYMENT_UPDATED", "payment", payment);
  return payment;
};

export const deletePayment: Handler = (ctx) => {
  const payment = findPayment(ctx.account, ctx.params.id);
  if (payment.deleted || !OPEN_STATUSES.has(payment.status)) {
    throw badRequest("invalid_action", "Só é possível remover cobranças pendentes ou vencidas.");
  }
  payment.deleted = true;
  emit(ctx, "PAYMENT_DELETED", "payment", payment);
  return { deleted: true, id: payment.id };
};

export const restorePayment: Handler = (ctx) => {
  const payment = findPayment(ctx.account, ctx.params.id);
  if (!payment.deleted) throw badRequest("invalid_action", "A cobrança não está removida.");
  payment.deleted = false;
  emit(ctx, "PAYMENT_RESTORED", "payment", payment);
  return payment;
};
