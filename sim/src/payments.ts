// Payments (charges) handlers: create (PIX, BOLETO, CREDIT_CARD, UNDEFINED, or an installment plan), list, get,
// status, update, delete, restore. The records themselves live in payment-records.ts.
import { bodyObject, emit, type Handler } from "./context";
import { findCustomer } from "./customers";
import { badRequest, isDateString, isoDate, listBody, readPage } from "./http";
import { createInstallment } from "./installments";
import { checkAuthorization, instructPayment } from "./pix";
import { readSplits, storeSplits } from "./receivables";
import {
  createPaymentRecord,
  filterPayments,
  findPayment,
  netValueOf,
  OPEN_STATUSES,
  readBillingType,
  readCard,
  readValue,
} from "./payment-records";

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
  const splits = readSplits(netValueOf(value, billingType), body.split);
  checkAuthorization(ctx, body.pixAutomaticAuthorizationId);
  if (body.authorizeOnly === true && !card) throw badRequest("invalid_authorizeOnly", "A pré-autorização exige um cartão de crédito.");
  const payment = createPaymentRecord(ctx, {
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
    authorizeOnly: body.authorizeOnly === true,
  });
  storeSplits(ctx, payment, splits);
  instructPayment(ctx, payment, body.pixAutomaticAuthorizationId);
  return payment;
};

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
