// Payment records: the one module that stores, finds and filters payments (charges). Handlers (payments.ts),
// installment plans, subscriptions and payment links create payments through createPaymentRecord.
import { acceptCard, chargeToken, type ChargedCard } from "./cards";
import { emit, type SimContext } from "./context";
import { asNumber, badRequest, isoDate, money, newId, notFound, randomDigits, type Json } from "./http";
import { newestFirst, type Account, type BillingType, type Payment } from "./state";

export const BILLING_TYPES: readonly BillingType[] = ["PIX", "BOLETO", "CREDIT_CARD", "UNDEFINED"];

/** Statuses a payment may still be deleted, updated, confirmed from. */
export const OPEN_STATUSES = new Set(["PENDING", "OVERDUE"]);
/** The statuses a payment (or an instalment of a plan) can be refunded from. */
export const REFUNDABLE_STATUSES = new Set(["RECEIVED", "CONFIRMED", "RECEIVED_IN_CASH"]);

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
  /** Card only: pre-authorize (AUTHORIZED, captured later) instead of charging. */
  authorizeOnly?: boolean;
  /** The split settings as the upstream answers them (see splits.ts). */
  split?: Json[] | null;
}

/** A PENDING payment record with every field the upstream answers (`origin`: the simulator's, for its URLs). */
export function paymentRecord(origin: string, input: NewPayment, id = newId("pay"), dateCreated = isoDate()): Payment {
  const slug = id.slice(4);
  const boleto = input.billingType === "BOLETO" || input.billingType === "UNDEFINED";
  return {
    object: "payment",
    id,
    dateCreated,
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
    invoiceUrl: `${origin}/i/${slug}`,
    invoiceNumber: randomDigits(8),
    externalReference: input.externalReference ?? null,
    deleted: false,
    anticipated: false,
    anticipable: false,
    creditDate: null,
    estimatedCreditDate: null,
    transactionReceiptUrl: null,
    nossoNumero: randomDigits(8),
    bankSlipUrl: boleto ? `${origin}/b/pdf/${slug}` : null,
    discount: input.discount ?? { value: 0, limitDate: null, dueDateLimitDays: 0, type: "FIXED" },
    fine: input.fine ?? { value: 0, type: "FIXED" },
    interest: input.interest ?? { value: 0, type: "PERCENTAGE" },
    postalService: false,
    split: input.split ?? null,
    chargeback: null,
    escrow: null,
    refunds: null,
  };
}

/** Stores a new payment and emits PAYMENT_CREATED (and PAYMENT_CONFIRMED for an approved card). */
export function createPaymentRecord(ctx: SimContext, input: NewPayment): Payment {
  const payment = paymentRecord(ctx.origin, input);
  const slug = payment.id.slice(4);
  ctx.account.payments.set(payment.id, payment);
  emit(ctx, "PAYMENT_CREATED", "payment", payment);
  if (input.card) {
    const today = isoDate();
    if (input.authorizeOnly) {
      Object.assign(payment, { creditCard: { ...input.card }, status: "AUTHORIZED" });
      emit(ctx, "PAYMENT_AUTHORIZED", "payment", payment);
      return payment;
    }
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
