// POST /__sim/import?token=T: records that exist at the upstream but were never created through this
// simulator — e.g. the demo history `npm start` writes straight into Ponte's D1 — stored with their own
// ids, values, statuses and dates, as the upstream answers them. No webhook is sent (nothing happened
// now). Idempotent: a record whose id the account already holds is left as it is and counted as
// existing. All or nothing: the whole body is checked before anything is stored.
import { bodyObject, type Handler } from "./context";
import { applyFields, customerRecord } from "./customers";
import { asNumber, badRequest, isDateString, isObject, type Json, money, UpstreamError } from "./http";
import { paymentRecord, readBillingType, readValue } from "./payment-records";
import { upstreamEnum } from "./records";
import type { Customer, Payment, PaymentStatus, Refund, Subscription } from "./state";
import { readCycle, subscriptionRecord } from "./subscriptions";

/** At most this many records per request (customers, subscriptions and payments together). */
export const MAX_IMPORT_RECORDS = 500;

const PAYMENT_STATUSES: readonly PaymentStatus[] = [
  "PENDING",
  "RECEIVED",
  "CONFIRMED",
  "OVERDUE",
  "REFUNDED",
  "RECEIVED_IN_CASH",
  "AUTHORIZED",
  "REFUND_REQUESTED",
  "CHARGEBACK_REQUESTED",
  "DUNNING_REQUESTED",
];
const SUBSCRIPTION_STATUSES = upstreamEnum<Subscription["status"]>("SubscriptionStatus");
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** A 400 naming where in the body the problem is (`payments[3].dueDate: …`). */
const invalid = (where: string, what: string) => badRequest("invalid_import", `${where}: ${what}`);

function list(body: Json, name: string): Json[] {
  const value = body[name];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isObject)) throw invalid(name, "must be an array of objects");
  return value;
}

function idOf(item: Json, where: string, prefix: string): string {
  const id = item.id;
  if (typeof id !== "string" || !id.startsWith(`${prefix}_`) || id.length > 64) throw invalid(`${where}.id`, `required, "${prefix}_…"`);
  return id;
}

function dateOf(item: Json, field: string, where: string, required: boolean): string | null {
  const value = item[field];
  if ((value === undefined || value === null) && !required) return null;
  if (!isDateString(value)) throw invalid(`${where}.${field}`, "must be a date (YYYY-MM-DD)");
  return value;
}

function optionalString(item: Json, field: string, where: string): string | null {
  const value = item[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw invalid(`${where}.${field}`, "must be a string");
  return value;
}

/** Re-throws a field validator's 400 with the record's place in the body. */
function within<T>(where: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof UpstreamError) throw invalid(where, err.description);
    throw err;
  }
}

function customerFrom(item: Json, where: string): Customer {
  const id = idOf(item, where, "cus");
  if (typeof item.name !== "string" || item.name.trim() === "") throw invalid(`${where}.name`, "required");
  if (typeof item.cpfCnpj !== "string" || !/^\d{11}(\d{3})?$/.test(item.cpfCnpj.replace(/\D/g, "")))
    throw invalid(`${where}.cpfCnpj`, "required: a CPF (11 digits) or CNPJ (14 digits)");
  const customer = customerRecord(id, dateOf(item, "dateCreated", where, true) as string);
  applyFields(customer, item);
  customer.deleted = item.deleted === true;
  return customer;
}

function subscriptionFrom(item: Json, where: string, hasCustomer: (id: string) => boolean): Subscription {
  const id = idOf(item, where, "sub");
  const customer = optionalString(item, "customer", where);
  if (!customer || !hasCustomer(customer)) throw invalid(`${where}.customer`, "must name a customer of the account or of this import");
  const status = item.status ?? "ACTIVE";
  if (!SUBSCRIPTION_STATUSES.includes(status as Subscription["status"]))
    throw invalid(`${where}.status`, `one of ${SUBSCRIPTION_STATUSES.join(", ")}`);
  const subscription = subscriptionRecord(
    {
      customer,
      billingType: within(where, () => readBillingType(item.billingType)),
      cycle: within(where, () => readCycle(item.cycle)),
      value: within(where, () => readValue(item.value)),
      nextDueDate: dateOf(item, "nextDueDate", where, true) as string,
      description: optionalString(item, "description", where),
      externalReference: optionalString(item, "externalReference", where),
    },
    id,
    dateOf(item, "dateCreated", where, true) as string,
  );
  subscription.status = status as Subscription["status"];
  subscription.deleted = item.deleted === true;
  return subscription;
}

function refundsFrom(item: Json, where: string, value: number): Refund[] | null {
  if (item.refunds === undefined || item.refunds === null) return null;
  if (!Array.isArray(item.refunds) || !item.refunds.every(isObject)) throw invalid(`${where}.refunds`, "must be an array of objects");
  let cents = 0;
  const refunds = item.refunds.map((r, i): Refund => {
    const at = `${where}.refunds[${i}]`;
    const refunded = asNumber(r.value);
    if (refunded === undefined || refunded <= 0) throw invalid(`${at}.value`, "must be a positive amount");
    if (typeof r.dateCreated !== "string" || !DATE_TIME.test(r.dateCreated))
      throw invalid(`${at}.dateCreated`, "must be YYYY-MM-DD HH:mm:ss");
    cents += Math.round(refunded * 100);
    return {
      dateCreated: r.dateCreated,
      status: "DONE",
      value: money(refunded),
      endToEndIdentifier: null,
      description: optionalString(r, "description", at),
      effectiveDate: r.dateCreated,
      transactionReceiptUrl: null,
      refundedSplits: [],
    };
  });
  if (cents > Math.round(value * 100)) throw invalid(`${where}.refunds`, "refund more than the payment's value");
  return refunds;
}

function paymentFrom(
  item: Json,
  where: string,
  origin: string,
  has: { customer: (id: string) => boolean; subscription: (id: string) => boolean },
): Payment {
  const id = idOf(item, where, "pay");
  const customer = optionalString(item, "customer", where);
  if (!customer || !has.customer(customer)) throw invalid(`${where}.customer`, "must name a customer of the account or of this import");
  const subscription = optionalString(item, "subscription", where);
  if (subscription && !has.subscription(subscription))
    throw invalid(`${where}.subscription`, "must name a subscription of the account or of this import");
  if (!PAYMENT_STATUSES.includes(item.status as PaymentStatus)) throw invalid(`${where}.status`, `one of ${PAYMENT_STATUSES.join(", ")}`);
  const value = within(where, () => readValue(item.value));
  const payment = paymentRecord(
    origin,
    {
      customer,
      subscription,
      billingType: within(where, () => readBillingType(item.billingType)),
      value,
      dueDate: dateOf(item, "dueDate", where, true) as string,
      description: optionalString(item, "description", where),
      externalReference: optionalString(item, "externalReference", where),
    },
    id,
    dateOf(item, "dateCreated", where, true) as string,
  );
  if (item.netValue !== undefined && item.netValue !== null) {
    const net = asNumber(item.netValue);
    if (net === undefined || net < 0 || net > value) throw invalid(`${where}.netValue`, "must be an amount between 0 and the value");
    payment.netValue = money(net);
  }
  payment.status = item.status as PaymentStatus;
  payment.paymentDate = dateOf(item, "paymentDate", where, false);
  payment.clientPaymentDate = dateOf(item, "clientPaymentDate", where, false) ?? payment.paymentDate;
  payment.confirmedDate = dateOf(item, "confirmedDate", where, false);
  payment.refunds = refundsFrom(item, where, value);
  payment.deleted = item.deleted === true;
  return payment;
}

export const importRecords: Handler = (ctx) => {
  const body = bodyObject(ctx);
  const [customers, subscriptions, payments] = [list(body, "customers"), list(body, "subscriptions"), list(body, "payments")];
  const total = customers.length + subscriptions.length + payments.length;
  if (total > MAX_IMPORT_RECORDS)
    throw invalid("body", `at most ${MAX_IMPORT_RECORDS} records per request (got ${total}); send them in batches`);
  const { account } = ctx;
  const newCustomers = byId(customers.map((c, i) => customerFrom(c, `customers[${i}]`)));
  const hasCustomer = (id: string) => account.customers.has(id) || newCustomers.has(id);
  const newSubscriptions = byId(subscriptions.map((s, i) => subscriptionFrom(s, `subscriptions[${i}]`, hasCustomer)));
  const hasSubscription = (id: string) => account.subscriptions.has(id) || newSubscriptions.has(id);
  const newPayments = byId(
    payments.map((p, i) => paymentFrom(p, `payments[${i}]`, ctx.origin, { customer: hasCustomer, subscription: hasSubscription })),
  );
  // Everything checked: store what the account does not hold yet.
  const store = <T extends { id: string }>(records: Map<string, T>, into: Map<string, T>) => {
    let imported = 0;
    for (const [id, record] of records) {
      if (into.has(id)) continue;
      into.set(id, record);
      imported++;
    }
    return { imported, existing: records.size - imported };
  };
  return {
    customers: store(newCustomers, account.customers),
    subscriptions: store(newSubscriptions, account.subscriptions),
    payments: store(newPayments, account.payments),
  };
};

/** The records by id (a body naming one id twice keeps the last). */
const byId = <T extends { id: string }>(records: T[]): Map<string, T> => new Map(records.map((r) => [r.id, r]));
