// Subscriptions: create (generating the first payment), list, get, update, delete, payments, advance.
import { acceptCard, chargeToken, type ChargedCard } from "./cards";
import { bodyObject, emit, type Handler, type SimContext } from "./context";
import { addDays, addMonths, badRequest, isDateString, isoDate, listBody, newId, notFound, readPage } from "./http";
import { createPaymentRecord, filterPayments, netValueOf, readBillingType, readCard, readValue } from "./payment-records";
import { upstreamEnum } from "./records";
import { newestFirst, type Account, type BillingType, type Cycle, type Payment, type Subscription } from "./state";

export const CYCLES = upstreamEnum<Cycle>("SubscriptionCycle");

export function nextCycleDate(date: string, cycle: Cycle): string {
  switch (cycle) {
    case "WEEKLY":
      return addDays(date, 7);
    case "BIWEEKLY":
      return addDays(date, 14);
    case "MONTHLY":
      return addMonths(date, 1);
    case "BIMONTHLY":
      return addMonths(date, 2);
    case "QUARTERLY":
      return addMonths(date, 3);
    case "SEMIANNUALLY":
      return addMonths(date, 6);
    case "YEARLY":
      return addMonths(date, 12);
  }
}

export function readCycle(v: unknown): Cycle {
  if (!CYCLES.includes(v as Cycle)) throw badRequest("invalid_cycle", `Periodicidade inválida. Use ${CYCLES.join(", ")}.`);
  return v as Cycle;
}

export function findSubscription(account: Account, id: string | undefined): Subscription {
  const subscription = id ? account.subscriptions.get(id) : undefined;
  if (!subscription) throw notFound("Assinatura não encontrada.");
  return subscription;
}

/** Generates the payment due at `nextDueDate` and advances it by one cycle. */
export function generateNextPayment(ctx: SimContext, subscription: Subscription, card?: ChargedCard): Payment {
  if (subscription.deleted || subscription.status !== "ACTIVE") {
    throw badRequest("invalid_action", "A assinatura não está ativa.");
  }
  const saved = subscription.creditCard as ChargedCard | undefined;
  if (!card && saved && subscription.billingType === "CREDIT_CARD") card = chargeToken(ctx.account, saved.creditCardToken);
  const payment = createPaymentRecord(ctx, {
    customer: subscription.customer,
    billingType: subscription.billingType,
    value: subscription.value,
    dueDate: subscription.nextDueDate,
    subscription: subscription.id,
    description: subscription.description,
    externalReference: subscription.externalReference,
    discount: subscription.discount,
    fine: subscription.fine,
    interest: subscription.interest,
    card,
    paymentLink: typeof subscription.paymentLink === "string" ? subscription.paymentLink : null,
    checkoutSession: typeof subscription.checkoutSession === "string" ? subscription.checkoutSession : null,
  });
  subscription.nextDueDate = nextCycleDate(subscription.nextDueDate, subscription.cycle);
  return payment;
}

/** What a new subscription needs (a create request, or a payment link or checkout paid as RECURRENT). */
export interface NewSubscription {
  customer: string;
  billingType: BillingType;
  cycle: Cycle;
  value: number;
  nextDueDate: string;
  description?: unknown;
  externalReference?: unknown;
  endDate?: unknown;
  maxPayments?: unknown;
  discount?: unknown;
  fine?: unknown;
  interest?: unknown;
  card?: ChargedCard;
  paymentLink?: string | null;
  checkoutSession?: string | null;
}

/** An ACTIVE subscription record with every field the upstream answers. */
export function subscriptionRecord(input: NewSubscription, id = newId("sub"), dateCreated = isoDate()): Subscription {
  return {
    object: "subscription",
    id,
    dateCreated,
    customer: input.customer,
    paymentLink: input.paymentLink ?? null,
    billingType: input.billingType,
    cycle: input.cycle,
    value: input.value,
    nextDueDate: input.nextDueDate,
    endDate: input.endDate ?? null,
    description: input.description ?? null,
    status: "ACTIVE",
    discount: input.discount ?? { value: 0, dueDateLimitDays: 0, type: "FIXED" },
    fine: input.fine ?? { value: 0, type: "FIXED" },
    interest: input.interest ?? { value: 0, type: "PERCENTAGE" },
    deleted: false,
    maxPayments: input.maxPayments ?? null,
    externalReference: input.externalReference ?? null,
    checkoutSession: input.checkoutSession ?? null,
    ...(input.card ? { creditCard: { ...input.card } } : {}),
  };
}

/** Stores a subscription, emits SUBSCRIPTION_CREATED and generates its first payment (answered too). */
export function storeSubscription(ctx: SimContext, input: NewSubscription): { subscription: Subscription; payment: Payment } {
  const subscription = subscriptionRecord(input);
  ctx.account.subscriptions.set(subscription.id, subscription);
  emit(ctx, "SUBSCRIPTION_CREATED", "subscription", subscription);
  const payment = generateNextPayment(ctx, subscription, input.card);
  return { subscription, payment };
}

export const createSubscription: Handler = (ctx) => {
  const body = bodyObject(ctx);
  const customerId = body.customer;
  const customer = typeof customerId === "string" ? ctx.account.customers.get(customerId) : undefined;
  if (!customer || customer.deleted) throw badRequest("invalid_customer", "Cliente inexistente ou não informado.");
  const billingType = readBillingType(body.billingType);
  const value = readValue(body.value);
  if (!isDateString(body.nextDueDate))
    throw badRequest("invalid_nextDueDate", "A data do próximo vencimento deve ser informada (YYYY-MM-DD).");
  const cycle = readCycle(body.cycle);
  const card = readCard(ctx, customer.id, body, billingType);
  const { subscription } = storeSubscription(ctx, {
    customer: customer.id,
    billingType,
    cycle,
    value,
    nextDueDate: body.nextDueDate,
    description: body.description,
    externalReference: body.externalReference,
    endDate: body.endDate,
    maxPayments: body.maxPayments,
    discount: body.discount,
    fine: body.fine,
    interest: body.interest,
    card,
  });
  return subscription;
};

/**
 * `PUT /v3/subscriptions/{id}/creditCard`: the card for future charges, no charge now; the
 * subscription's pending payments take the new card too. Answers the subscription.
 */
export const updateSubscriptionCard: Handler = (ctx) => {
  const subscription = findSubscription(ctx.account, ctx.params.id);
  if (subscription.deleted) throw badRequest("invalid_action", "A assinatura foi removida.");
  const body = bodyObject(ctx);
  const card =
    body.creditCardToken !== undefined
      ? chargeToken(ctx.account, body.creditCardToken)
      : acceptCard(ctx.account, subscription.customer, body.creditCard, body.creditCardHolderInfo, false);
  subscription.creditCard = { ...card };
  for (const p of ctx.account.payments.values()) {
    if (p.subscription !== subscription.id || p.deleted || p.status !== "PENDING") continue;
    p.creditCard = { ...card };
    emit(ctx, "PAYMENT_UPDATED", "payment", p);
  }
  emit(ctx, "SUBSCRIPTION_UPDATED", "subscription", subscription);
  return subscription;
};

export const listSubscriptions: Handler = ({ account, query }) => {
  const page = readPage(query);
  const customer = query.get("customer") || undefined;
  const status = query.get("status") || undefined;
  const externalReference = query.get("externalReference") || undefined;
  const items = newestFirst(account.subscriptions.values()).filter(
    (s) =>
      !s.deleted &&
      (!customer || s.customer === customer) &&
      (!status || s.status === status) &&
      (!externalReference || s.externalReference === externalReference),
  );
  return listBody(items, page);
};

export const getSubscription: Handler = ({ account, params }) => findSubscription(account, params.id);

export const updateSubscription: Handler = (ctx) => {
  const subscription = findSubscription(ctx.account, ctx.params.id);
  if (subscription.deleted) throw badRequest("invalid_action", "A assinatura foi removida.");
  const body = bodyObject(ctx);
  if (body.billingType !== undefined) subscription.billingType = readBillingType(body.billingType);
  if (body.value !== undefined) subscription.value = readValue(body.value);
  if (body.cycle !== undefined) subscription.cycle = readCycle(body.cycle);
  if (body.nextDueDate !== undefined) {
    if (!isDateString(body.nextDueDate)) throw badRequest("invalid_nextDueDate", "Data do próximo vencimento inválida.");
    subscription.nextDueDate = body.nextDueDate;
  }
  if (body.status !== undefined) {
    if (body.status !== "ACTIVE" && body.status !== "INACTIVE") throw badRequest("invalid_status", "Status deve ser ACTIVE ou INACTIVE.");
    subscription.status = body.status;
  }
  for (const k of ["description", "endDate", "maxPayments", "externalReference", "discount", "fine", "interest"]) {
    if (body[k] !== undefined) subscription[k] = body[k];
  }
  if (body.updatePendingPayments === true) {
    for (const p of ctx.account.payments.values()) {
      if (p.subscription !== subscription.id || p.deleted || p.status !== "PENDING") continue;
      p.value = subscription.value;
      p.billingType = subscription.billingType;
      p.netValue = netValueOf(p.value, p.billingType);
      emit(ctx, "PAYMENT_UPDATED", "payment", p);
    }
  }
  emit(ctx, "SUBSCRIPTION_UPDATED", "subscription", subscription);
  return subscription;
};

export const deleteSubscription: Handler = (ctx) => {
  const subscription = findSubscription(ctx.account, ctx.params.id);
  if (subscription.deleted) throw badRequest("invalid_action", "A assinatura já foi removida.");
  subscription.deleted = true;
  subscription.status = "INACTIVE";
  for (const p of ctx.account.payments.values()) {
    if (p.subscription !== subscription.id || p.deleted || p.status !== "PENDING") continue;
    p.deleted = true;
    emit(ctx, "PAYMENT_DELETED", "payment", p);
  }
  emit(ctx, "SUBSCRIPTION_DELETED", "subscription", subscription);
  return { deleted: true, id: subscription.id };
};

export const listSubscriptionPayments: Handler = ({ account, params, query }) => {
  const subscription = findSubscription(account, params.id);
  const filters = new URLSearchParams(query);
  filters.set("subscription", subscription.id);
  return listBody(filterPayments(account, filters), readPage(query));
};

/** Control API: `POST /__sim/subscriptions/{id}/advance`. */
export const advanceSubscription: Handler = (ctx) => generateNextPayment(ctx, findSubscription(ctx.account, ctx.params.id));
