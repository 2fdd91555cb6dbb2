// Installment plans ("parcelamentos"): POST /v3/installments, or POST /v3/payments with installmentCount, creates
// the plan and one payment per instalment (through payment-records.ts), linked by the plan's id, due one month
// apart, each with its PAYMENT_CREATED. The plan is stored and answered in the upstream's InstallmentGetResponse shape.
import type { ChargedCard } from "./cards";
import { bodyObject, emit, type Handler, type SimContext } from "./context";
import { addMonths, asNumber, badRequest, dateTime, isDateString, isoDate, listBody, money, notFound, readPage, type Json } from "./http";
import { createPaymentRecord, filterPayments, OPEN_STATUSES, REFUNDABLE_STATUSES, readBillingType, readCard } from "./payment-records";
import { sumMoney } from "./records";
import type { BillingType, Payment, Refund } from "./state";

export const MAX_INSTALLMENTS = { CREDIT_CARD: 21, OTHER: 60 } as const;

export interface InstallmentRequest {
  customer: string;
  billingType: BillingType;
  dueDate: string;
  description?: unknown;
  externalReference?: unknown;
  card?: ChargedCard;
  installmentCount: unknown;
  installmentValue: unknown;
  totalValue: unknown;
  paymentLink?: string | null;
  checkoutSession?: string | null;
}

const newInstallmentId = () => `ins_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;

/** Each instalment's value in cents: `installmentValue` each, or `totalValue` split evenly with the leftover cents on the first. */
export function instalmentCents(count: number, installmentValue: unknown, totalValue: unknown): number[] {
  const each = asNumber(installmentValue);
  const total = asNumber(totalValue);
  if ((each === undefined) === (total === undefined)) {
    throw badRequest("invalid_value", "Informe installmentValue ou totalValue para o parcelamento.");
  }
  if (each !== undefined) {
    if (each <= 0) throw badRequest("invalid_value", "O valor da parcela deve ser maior que zero.");
    return Array.from({ length: count }, () => Math.round(money(each) * 100));
  }
  const totalCents = Math.round(money(total ?? 0) * 100);
  if (totalCents < count) throw badRequest("invalid_value", "O valor total deve ser maior que zero.");
  const base = Math.floor(totalCents / count);
  return Array.from({ length: count }, (_, i) => base + (i === 0 ? totalCents - base * count : 0));
}

/** The plan's payments, by instalment number. */
export function planPayments(ctx: SimContext, planId: string): Payment[] {
  return [...ctx.account.payments.values()]
    .filter((p) => p.installment === planId && !p.deleted)
    .sort((a, b) => Number(a.installmentNumber) - Number(b.installmentNumber));
}

/** Creates the plan and its payments; answers the first payment, as the upstream does for POST /payments. */
export function createInstallment(ctx: SimContext, req: InstallmentRequest): Payment {
  const count = asNumber(req.installmentCount);
  const max = req.billingType === "CREDIT_CARD" ? MAX_INSTALLMENTS.CREDIT_CARD : MAX_INSTALLMENTS.OTHER;
  if (count === undefined || !Number.isInteger(count) || count < 2 || count > max) {
    throw badRequest("invalid_installmentCount", `O número de parcelas deve ser entre 2 e ${max}.`);
  }
  const cents = instalmentCents(count, req.installmentValue, req.totalValue);
  const id = newInstallmentId();
  const created = cents.map((c, i) =>
    createPaymentRecord(ctx, {
      customer: req.customer,
      billingType: req.billingType,
      value: c / 100,
      dueDate: addMonths(req.dueDate, i),
      description: `Parcela ${i + 1} de ${count}.${typeof req.description === "string" ? ` ${req.description}` : ""}`,
      externalReference: req.externalReference,
      card: req.card,
      installment: { id, number: i + 1 },
      paymentLink: req.paymentLink ?? null,
      checkoutSession: req.checkoutSession ?? null,
    }),
  );
  const [first] = created;
  if (!first) throw badRequest("invalid_installmentCount", "Nenhuma parcela criada.");
  ctx.account.installments.set(id, {
    object: "installment",
    id,
    value: sumMoney(created.map((p) => p.value)),
    netValue: sumMoney(created.map((p) => p.netValue)),
    paymentValue: first.value,
    installmentCount: count,
    billingType: req.billingType,
    paymentDate: null,
    description: typeof req.description === "string" ? req.description : null,
    expirationDay: Number(req.dueDate.slice(8, 10)),
    dateCreated: isoDate(),
    customer: req.customer,
    paymentLink: req.paymentLink ?? null,
    checkoutSession: req.checkoutSession ?? null,
    transactionReceiptUrl: null,
    chargeback: null,
    creditCard: req.card ? { ...req.card } : null,
    deleted: false,
    refunds: [],
  });
  return first;
}

export function findInstallment(ctx: SimContext, id = ctx.params.id): Json {
  const plan = id ? ctx.account.installments.get(id) : undefined;
  if (!plan || plan.deleted) throw notFound("Parcelamento não encontrado.");
  return plan;
}

/** `POST /installments`: `value` is each instalment's value, `totalValue` the plan's; answers the plan. */
export const createInstallmentPlan: Handler = (ctx) => {
  const body = bodyObject(ctx);
  const customer = typeof body.customer === "string" ? ctx.account.customers.get(body.customer) : undefined;
  if (!customer || customer.deleted) throw badRequest("invalid_customer", "Cliente inexistente ou removido.");
  const billingType = readBillingType(body.billingType);
  if (!isDateString(body.dueDate)) throw badRequest("invalid_dueDate", "A data de vencimento deve ser informada (YYYY-MM-DD).");
  const first = createInstallment(ctx, {
    customer: customer.id,
    billingType,
    dueDate: body.dueDate,
    description: body.description,
    externalReference: body.paymentExternalReference,
    card: readCard(ctx, customer.id, body, billingType),
    installmentCount: body.installmentCount,
    installmentValue: body.value,
    totalValue: body.totalValue,
  });
  return findInstallment(ctx, String(first.installment));
};

export const listInstallments: Handler = (ctx) =>
  listBody([...ctx.account.installments.values()].filter((p) => !p.deleted).reverse(), readPage(ctx.query));

export const getInstallment: Handler = (ctx) => findInstallment(ctx);

export const listInstallmentPayments: Handler = (ctx) => {
  const plan = findInstallment(ctx);
  const query = new URLSearchParams({ installment: String(plan.id) });
  const status = ctx.query.get("status");
  if (status) query.set("status", status);
  return listBody(
    filterPayments(ctx.account, query).sort((a, b) => Number(a.installmentNumber) - Number(b.installmentNumber)),
    readPage(ctx.query),
  );
};

/** Removes the plan's open payments (PAYMENT_DELETED each); answers which. */
function removeOpenPayments(ctx: SimContext, plan: Json): Json[] {
  const removed: Json[] = [];
  for (const p of planPayments(ctx, String(plan.id))) {
    if (!OPEN_STATUSES.has(p.status)) continue;
    p.deleted = true;
    emit(ctx, "PAYMENT_DELETED", "payment", p);
    removed.push({ id: p.id, installmentNumber: p.installmentNumber, deleted: true });
  }
  return removed;
}

/** `DELETE /installments/{id}`: only while no instalment was paid; removes the plan and its payments. */
export const deleteInstallment: Handler = (ctx) => {
  const plan = findInstallment(ctx);
  if (planPayments(ctx, String(plan.id)).some((p) => !OPEN_STATUSES.has(p.status))) {
    throw badRequest("invalid_action", "O parcelamento possui parcelas pagas; cancele as parcelas pendentes ou estorne-o.");
  }
  removeOpenPayments(ctx, plan);
  plan.deleted = true;
  return { deleted: true, id: plan.id };
};

/** `DELETE /installments/{id}/payments`: cancels the pending and overdue instalments. */
export const cancelInstallmentPayments: Handler = (ctx) => {
  const plan = findInstallment(ctx);
  return { deleted: true, id: plan.id, deletedPayments: removeOpenPayments(ctx, plan) };
};

/** `PUT /installments/{id}/splits`: replaces the plan's split settings. */
export const updateInstallmentSplits: Handler = (ctx) => {
  const plan = findInstallment(ctx);
  const splits = bodyObject(ctx).splits;
  if (!Array.isArray(splits)) throw badRequest("invalid_splits", "Informe splits (lista).");
  const saved = splits.map((s: unknown) => {
    const split = (typeof s === "object" && s !== null ? s : {}) as Json;
    if (typeof split.walletId !== "string" || split.walletId === "")
      throw badRequest("invalid_walletId", "Informe o walletId de cada split.");
    return {
      id: crypto.randomUUID(),
      walletId: split.walletId,
      fixedValue: asNumber(split.fixedValue) ?? null,
      percentualValue: asNumber(split.percentualValue) ?? null,
      totalValue: asNumber(split.totalFixedValue) ?? asNumber(split.fixedValue) ?? 0,
      cancellationReason: null,
      status: "PENDING",
      externalReference: split.externalReference ?? null,
      description: split.description ?? null,
      installmentNumber: asNumber(split.installmentNumber) ?? null,
    };
  });
  plan.splits = saved;
  return { splits: saved };
};

/** `POST /installments/{id}/refund`: refunds every paid instalment in full (PAYMENT_REFUNDED each); answers the plan. */
export const refundInstallment: Handler = (ctx) => {
  const plan = findInstallment(ctx);
  const paid = planPayments(ctx, String(plan.id)).filter((p) => REFUNDABLE_STATUSES.has(p.status));
  if (paid.length === 0) throw badRequest("invalid_action", "O parcelamento não possui parcelas pagas para estornar.");
  const now = dateTime();
  for (const p of paid) {
    const refund: Refund = {
      dateCreated: now,
      status: "DONE",
      value: money(p.value - sumMoney((p.refunds ?? []).map((r) => r.value))),
      endToEndIdentifier: null,
      description: "Estorno do parcelamento",
      effectiveDate: now,
      transactionReceiptUrl: null,
      refundedSplits: [],
    };
    p.refunds = [...(p.refunds ?? []), refund];
    p.status = "REFUNDED";
    emit(ctx, "PAYMENT_REFUNDED", "payment", p);
    (plan.refunds as Json[]).push({ ...refund, paymentId: p.id });
  }
  return plan;
};
