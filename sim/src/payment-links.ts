// Payment links (`/v3/paymentLinks`) and checkouts (`/v3/checkouts`): the merchant makes them; a payer
// pays through them, which the control API stands in for (`POST /__sim/paymentLinks/{id}/pay`,
// `POST /__sim/checkouts/{id}/pay`). Paying makes real upstream records with their webhooks: a
// payment (DETACHED), an installment plan (INSTALLMENT) or a subscription and its first payment
// (RECURRENT), each carrying `paymentLink` / `checkoutSession`, then the first payment is paid.
import { bodyObject, emit, type Handler, type SimContext } from "./context";
import { createCustomer, findCustomer } from "./customers";
import {
  addDays,
  asNumber,
  badRequest,
  dateTime,
  isDateString,
  isObject,
  isoDate,
  listBody,
  money,
  newId,
  notFound,
  readPage,
} from "./http";
import { createInstallment } from "./installments";
import { confirmPaymentRecord } from "./payment-actions";
import { createPaymentRecord, readBillingType, readValue } from "./payment-records";
import { newestFirst, type BillingType, type Customer, type Cycle, type Payment, type Subscription } from "./state";
import { readCycle, storeSubscription } from "./subscriptions";

export type ChargeType = "DETACHED" | "RECURRENT" | "INSTALLMENT";
const CHARGE_TYPES: readonly ChargeType[] = ["DETACHED", "RECURRENT", "INSTALLMENT"];

function readChargeType(v: unknown): ChargeType {
  if (!CHARGE_TYPES.includes(v as ChargeType))
    throw badRequest("invalid_chargeType", "Tipo de cobrança inválido. Use DETACHED, RECURRENT ou INSTALLMENT.");
  return v as ChargeType;
}

// ── Paying ────────────────────────────────────────────────────────────────────────────────────────

interface Charge {
  chargeType: ChargeType;
  billingType: BillingType;
  /** The whole amount (DETACHED, INSTALLMENT) or each cycle's (RECURRENT). */
  value: number;
  cycle?: Cycle;
  installmentCount?: number;
  dueDate: string;
  description?: unknown;
  externalReference?: unknown;
  customer: string;
  paymentLink?: string;
  checkoutSession?: string;
}

export type PaidThrough = {
  customer: string;
  payment: Payment;
  subscription: Subscription | null;
  installment: string | null;
};

function charge(ctx: SimContext, c: Charge): PaidThrough {
  const source = { paymentLink: c.paymentLink ?? null, checkoutSession: c.checkoutSession ?? null };
  let payment: Payment;
  let subscription: Subscription | null = null;
  if (c.chargeType === "RECURRENT") {
    ({ subscription, payment } = storeSubscription(ctx, {
      customer: c.customer,
      billingType: c.billingType,
      cycle: c.cycle ?? "MONTHLY",
      value: c.value,
      nextDueDate: c.dueDate,
      description: c.description,
      externalReference: c.externalReference,
      ...source,
    }));
  } else if (c.chargeType === "INSTALLMENT" && (c.installmentCount ?? 1) > 1) {
    payment = createInstallment(ctx, {
      customer: c.customer,
      billingType: c.billingType,
      dueDate: c.dueDate,
      description: c.description,
      externalReference: c.externalReference,
      installmentCount: c.installmentCount,
      installmentValue: undefined,
      totalValue: c.value,
      ...source,
    });
  } else {
    payment = createPaymentRecord(ctx, {
      customer: c.customer,
      billingType: c.billingType,
      value: c.value,
      dueDate: c.dueDate,
      description: c.description,
      externalReference: c.externalReference,
      ...source,
    });
  }
  confirmPaymentRecord(ctx, payment);
  const installment = typeof payment.installment === "string" ? payment.installment : null;
  return { customer: c.customer, payment, subscription, installment };
}

/** The payer: an existing upstream customer (`customer`), or one made from `payer` / the checkout's customer data. */
function payerOf(ctx: SimContext, body: Record<string, unknown>, fallback?: unknown): Customer {
  if (typeof body.customer === "string") {
    const customer = findCustomer(ctx.account, body.customer);
    if (customer.deleted) throw badRequest("invalid_customer", "Cliente removido.");
    return customer;
  }
  const data = isObject(body.payer) ? body.payer : isObject(fallback) ? fallback : undefined;
  if (!data) throw badRequest("invalid_customer", "Informe customer ou payer {name, cpfCnpj}.");
  return createCustomer({ ...ctx, body: data }) as Customer;
}

function billingTypeFor(allowed: readonly BillingType[], wanted: unknown): BillingType {
  if (wanted === undefined) {
    const first = allowed.find((t) => t !== "UNDEFINED");
    return first ?? "PIX";
  }
  const type = readBillingType(wanted);
  if (type === "UNDEFINED" || (!allowed.includes(type) && !allowed.includes("UNDEFINED")))
    throw badRequest("invalid_billingType", "Forma de pagamento não permitida.");
  return type;
}

// ── Payment links ─────────────────────────────────────────────────────────────────────────────────

function findLink(ctx: SimContext) {
  const link = ctx.params.id ? ctx.account.paymentLinks.get(ctx.params.id) : undefined;
  if (!link) throw notFound("Link de pagamentos não encontrado.");
  return link;
}

function applyLinkFields(link: Record<string, unknown>, body: Record<string, unknown>): void {
  if (body.name !== undefined) {
    if (typeof body.name !== "string" || body.name.trim() === "") throw badRequest("invalid_name", "Informe o nome do link.");
    link.name = body.name.trim();
  }
  if (body.billingType !== undefined) link.billingType = readBillingType(body.billingType);
  if (body.chargeType !== undefined) link.chargeType = readChargeType(body.chargeType);
  if (body.value !== undefined && body.value !== null) link.value = readValue(body.value);
  if (body.subscriptionCycle !== undefined && body.subscriptionCycle !== null) link.subscriptionCycle = readCycle(body.subscriptionCycle);
  if (body.maxInstallmentCount !== undefined) {
    const n = asNumber(body.maxInstallmentCount);
    if (n === undefined || !Number.isInteger(n) || n < 1 || n > 21)
      throw badRequest("invalid_maxInstallmentCount", "Parcelamento máximo inválido.");
    link.maxInstallmentCount = n;
  }
  for (const k of [
    "description",
    "endDate",
    "dueDateLimitDays",
    "externalReference",
    "notificationEnabled",
    "isAddressRequired",
    "callback",
  ]) {
    if (body[k] !== undefined) link[k] = body[k];
  }
  if (link.chargeType === "RECURRENT" && !link.subscriptionCycle)
    throw badRequest("invalid_subscriptionCycle", "Informe a periodicidade da assinatura.");
}

export const createPaymentLink: Handler = (ctx) => {
  const body = bodyObject(ctx);
  if (body.name === undefined) throw badRequest("invalid_name", "Informe o nome do link.");
  if (body.billingType === undefined) throw badRequest("invalid_billingType", "Informe a forma de pagamento.");
  if (body.chargeType === undefined) throw badRequest("invalid_chargeType", "Informe o tipo de cobrança.");
  const id = newId("lnk");
  const link: Record<string, unknown> = {
    id,
    name: "",
    value: null,
    active: true,
    chargeType: "DETACHED",
    url: `${ctx.origin}/l/${id.slice(4)}`,
    billingType: "UNDEFINED",
    subscriptionCycle: null,
    description: null,
    endDate: null,
    deleted: false,
    viewCount: 0,
    maxInstallmentCount: 1,
    dueDateLimitDays: 10,
    notificationEnabled: true,
    isAddressRequired: false,
    externalReference: null,
  };
  applyLinkFields(link, body);
  ctx.account.paymentLinks.set(id, link);
  return link;
};

export const listPaymentLinks: Handler = ({ account, query }) => {
  const includeDeleted = query.get("includeDeleted") === "true";
  const active = query.get("active");
  const items = newestFirst(account.paymentLinks.values()).filter(
    (l) => (includeDeleted || !l.deleted) && (active === null || String(l.active) === active),
  );
  return listBody(items, readPage(query));
};

export const getPaymentLink: Handler = (ctx) => findLink(ctx);

export const updatePaymentLink: Handler = (ctx) => {
  const link = findLink(ctx);
  if (link.deleted) throw badRequest("invalid_action", "O link de pagamentos foi removido.");
  const body = bodyObject(ctx);
  applyLinkFields(link, body);
  if (typeof body.active === "boolean") link.active = body.active;
  return link;
};

export const deletePaymentLink: Handler = (ctx) => {
  const link = findLink(ctx);
  if (link.deleted) throw badRequest("invalid_action", "O link de pagamentos já foi removido.");
  link.deleted = true;
  link.active = false;
  return { deleted: true, id: link.id };
};

export const restorePaymentLink: Handler = (ctx) => {
  const link = findLink(ctx);
  if (!link.deleted) throw badRequest("invalid_action", "O link de pagamentos não está removido.");
  link.deleted = false;
  link.active = true;
  return link;
};

/**
 * Control API: `POST /__sim/paymentLinks/{id}/pay` `{customer | payer{name,cpfCnpj}, billingType?,
 * value? (when the link leaves it open), installmentCount?}` — a payer pays through the link.
 */
export const payPaymentLink: Handler = (ctx) => {
  const link = findLink(ctx);
  if (link.deleted || link.active !== true) throw badRequest("invalid_action", "O link de pagamentos não está ativo.");
  if (isDateString(link.endDate) && link.endDate < isoDate()) throw badRequest("invalid_action", "O link de pagamentos expirou.");
  const body = bodyObject(ctx);
  const value = typeof link.value === "number" ? link.value : readValue(body.value);
  const chargeType = link.chargeType as ChargeType;
  let installmentCount: number | undefined;
  if (chargeType === "INSTALLMENT") {
    installmentCount = asNumber(body.installmentCount) ?? 1;
    if (!Number.isInteger(installmentCount) || installmentCount < 1 || installmentCount > Number(link.maxInstallmentCount ?? 1))
      throw badRequest("invalid_installmentCount", `O número de parcelas deve ser entre 1 e ${String(link.maxInstallmentCount)}.`);
  }
  const payer = payerOf(ctx, body);
  link.viewCount = Number(link.viewCount ?? 0) + 1;
  return charge(ctx, {
    chargeType,
    billingType: billingTypeFor([link.billingType as BillingType], body.billingType),
    value: money(value),
    cycle: (link.subscriptionCycle as Cycle | null) ?? undefined,
    installmentCount,
    dueDate: addDays(isoDate(), Number(link.dueDateLimitDays ?? 10) || 0),
    description: link.description ?? link.name,
    externalReference: link.externalReference,
    customer: payer.id,
    paymentLink: String(link.id),
  });
};

// ── Checkouts ─────────────────────────────────────────────────────────────────────────────────────

function findCheckout(ctx: SimContext) {
  const checkout = ctx.params.id ? ctx.account.checkouts.get(ctx.params.id) : undefined;
  if (!checkout) throw notFound("Checkout não encontrado.");
  return checkout;
}

function nonEmptyList<T>(v: unknown, allowed: readonly T[], field: string): T[] {
  if (!Array.isArray(v) || v.length === 0 || v.some((x) => !allowed.includes(x as T)))
    throw badRequest(`invalid_${field}`, `Informe ${field}: ${allowed.join(", ")}.`);
  return v as T[];
}

export const createCheckout: Handler = (ctx) => {
  const body = bodyObject(ctx);
  const billingTypes = nonEmptyList<BillingType>(body.billingTypes, ["PIX", "CREDIT_CARD"], "billingTypes");
  const chargeTypes = nonEmptyList<ChargeType>(body.chargeTypes, CHARGE_TYPES, "chargeTypes");
  if (!Array.isArray(body.items) || body.items.length === 0) throw badRequest("invalid_items", "Informe ao menos um item.");
  let cents = 0;
  for (const item of body.items) {
    const value = isObject(item) ? asNumber(item.value) : undefined;
    const quantity = isObject(item) ? (asNumber(item.quantity) ?? 1) : 0;
    if (value === undefined || value <= 0 || !Number.isInteger(quantity) || quantity < 1)
      throw badRequest("invalid_items", "Cada item precisa de value > 0 e quantity inteira.");
    cents += Math.round(money(value) * 100) * quantity;
  }
  const subscription = isObject(body.subscription) ? body.subscription : null;
  if (chargeTypes.includes("RECURRENT")) readCycle(subscription?.cycle);
  const id = crypto.randomUUID();
  const minutes = asNumber(body.minutesToExpire) ?? 60;
  const checkout: Record<string, unknown> = {
    ...body,
    id,
    link: `${ctx.origin}/checkoutSession/show?id=${id}`,
    status: "ACTIVE",
    billingTypes,
    chargeTypes,
    value: cents / 100,
    minutesToExpire: minutes,
    expiresAt: dateTime(new Date(Date.now() + minutes * 60_000)),
    dateCreated: dateTime(),
  };
  ctx.account.checkouts.set(id, checkout);
  emit(ctx, "CHECKOUT_CREATED", "checkout", checkout);
  return checkout;
};

export const cancelCheckout: Handler = (ctx) => {
  const checkout = findCheckout(ctx);
  if (checkout.status !== "ACTIVE") throw badRequest("invalid_action", "Só é possível cancelar checkouts ativos.");
  checkout.status = "CANCELED";
  emit(ctx, "CHECKOUT_CANCELED", "checkout", checkout);
  return checkout;
};

/**
 * Control API: `POST /__sim/checkouts/{id}/pay` `{customer | payer, chargeType?, billingType?,
 * installmentCount?}` — the payer finishes the checkout; CHECKOUT_PAID follows the payment's events.
 */
export const payCheckout: Handler = (ctx) => {
  const checkout = findCheckout(ctx);
  if (checkout.status !== "ACTIVE") throw badRequest("invalid_action", "O checkout não está ativo.");
  const body = bodyObject(ctx);
  const chargeTypes = checkout.chargeTypes as ChargeType[];
  const chargeType = body.chargeType === undefined ? (chargeTypes[0] ?? "DETACHED") : readChargeType(body.chargeType);
  if (!chargeTypes.includes(chargeType)) throw badRequest("invalid_chargeType", "Tipo de cobrança não permitido neste checkout.");
  const subscription = isObject(checkout.subscription) ? checkout.subscription : {};
  const installment = isObject(checkout.installment) ? checkout.installment : {};
  const installmentCount = chargeType === "INSTALLMENT" ? (asNumber(body.installmentCount) ?? 1) : undefined;
  if (
    installmentCount !== undefined &&
    (!Number.isInteger(installmentCount) || installmentCount < 1 || installmentCount > (asNumber(installment.maxInstallmentCount) ?? 1))
  )
    throw badRequest("invalid_installmentCount", "Número de parcelas inválido.");
  const payer = payerOf(ctx, body, checkout.customerData);
  const paid = charge(ctx, {
    chargeType,
    billingType: billingTypeFor(checkout.billingTypes as BillingType[], body.billingType),
    value: Number(checkout.value),
    cycle: chargeType === "RECURRENT" ? readCycle(subscription.cycle) : undefined,
    installmentCount,
    dueDate: isDateString(subscription.nextDueDate) ? subscription.nextDueDate : isoDate(),
    externalReference: checkout.externalReference,
    customer: payer.id,
    checkoutSession: String(checkout.id),
  });
  checkout.status = "PAID";
  emit(ctx, "CHECKOUT_PAID", "checkout", checkout);
  return paid;
};
