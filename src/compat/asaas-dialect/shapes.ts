// The Asaas dialect, response side: Ponte's native objects (customer, payment, subscription, refund,
// card token) in the shape Asaas answers them — upstream ids, money as JSON numbers, `dateCreated`,
// the fields Asaas returns — and Ponte's errors as Asaas's `{errors: [{code, description}]}`.
import type { UpstreamRef } from "../upstream-ids";

type Obj = Record<string, unknown>;
export type Refs = Map<string, UpstreamRef>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A decimal string ("129.90") as Asaas's JSON number (129.9); null stays null. */
const amount = (v: unknown): number | null => (typeof v === "string" && v !== "" ? Number(v) : typeof v === "number" ? v : null);

/** An ISO UTC instant as Asaas's `dateCreated`: the calendar day in Brazil (UTC−03:00, Asaas's clock). */
export function brazilDay(iso: unknown): string | null {
  if (typeof iso !== "string") return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : new Date(t - 3 * 3_600_000).toISOString().slice(0, 10);
}

/** An ISO UTC instant as an Asaas date-time ("YYYY-MM-DD HH:mm:ss"): the wall clock in Brazil (UTC−03:00). */
export function brazilDateTime(iso: unknown): string | null {
  if (typeof iso !== "string") return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : new Date(t - 3 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
}

/** A Ponte UUID as the upstream id the client knows (the UUID itself when the record has none yet). */
const ref = (refs: Refs, id: unknown): string | null => (typeof id === "string" ? (refs.get(id.toLowerCase())?.upstreamId ?? id) : null);

/** Money inside a discount/fine/interest object, as numbers. */
const moneyObject = (v: unknown): Obj | null => (isObj(v) ? { ...v, ...(v.value !== undefined ? { value: amount(v.value) } : {}) } : null);

function customer(c: Obj, refs: Refs): Obj {
  return {
    object: "customer",
    id: ref(refs, c.id),
    dateCreated: brazilDay(c.createdAt),
    name: c.name,
    email: c.email,
    company: null,
    phone: c.phone,
    mobilePhone: c.mobilePhone,
    address: c.address,
    addressNumber: c.addressNumber,
    complement: c.complement,
    province: c.province,
    postalCode: c.postalCode,
    cpfCnpj: c.cpfCnpj,
    personType: c.personType,
    deleted: c.deleted,
    additionalEmails: null,
    externalReference: c.externalReference,
    notificationDisabled: c.notificationDisabled,
    observations: c.observations,
    foreignCustomer: false,
  };
}

/** Ponte keeps a canceled charge as CANCELED; Asaas shows a removed charge as `deleted: true`. */
function payment(p: Obj, refs: Refs): Obj {
  const card = isObj(p.creditCard) ? p.creditCard : null;
  const own = typeof p.id === "string" ? refs.get(p.id.toLowerCase()) : undefined;
  const token = own?.cardToken ?? null;
  const net = own?.netValueCents;
  return {
    object: "payment",
    id: ref(refs, p.id),
    dateCreated: brazilDay(p.createdAt),
    customer: ref(refs, p.customer),
    subscription: ref(refs, p.subscription),
    installment: ref(refs, p.installment),
    installmentNumber: p.installmentNumber ?? null,
    checkoutSession: null,
    paymentLink: null,
    value: amount(p.value),
    netValue: net !== null && net !== undefined ? net / 100 : null,
    originalValue: null,
    interestValue: null,
    description: p.description,
    billingType: p.billingType,
    creditCard: card ? { creditCardNumber: card.last4, creditCardBrand: card.brand, creditCardToken: token } : null,
    canBePaidAfterDueDate: true,
    pixTransaction: null,
    pixQrCodeId: null,
    status: p.status,
    dueDate: p.dueDate,
    originalDueDate: p.dueDate,
    paymentDate: p.paymentDate,
    clientPaymentDate: p.paymentDate,
    invoiceUrl: p.invoiceUrl,
    invoiceNumber: null,
    externalReference: p.externalReference,
    deleted: p.status === "CANCELED",
    anticipated: false,
    anticipable: false,
    creditDate: null,
    estimatedCreditDate: null,
    transactionReceiptUrl: null,
    refundedValue: amount(p.refundedValue),
    bankSlipUrl: p.bankSlipUrl,
    nossoNumero: null,
    discount: moneyObject(p.discount),
    fine: moneyObject(p.fine),
    interest: moneyObject(p.interest),
    split: null,
    postalService: false,
    daysAfterDueDateToRegistrationCancellation: null,
    chargeback: null,
    escrow: null,
    refunds: null,
  };
}

/** Ponte's CANCELED subscription is Asaas's removed one: INACTIVE and `deleted: true`. */
function subscription(s: Obj, refs: Refs): Obj {
  return {
    object: "subscription",
    id: ref(refs, s.id),
    dateCreated: brazilDay(s.createdAt),
    customer: ref(refs, s.customer),
    paymentLink: null,
    billingType: s.billingType,
    cycle: s.cycle,
    value: amount(s.value),
    nextDueDate: s.nextDueDate,
    endDate: null,
    description: s.description,
    status: s.status === "CANCELED" ? "INACTIVE" : s.status,
    discount: null,
    fine: null,
    interest: null,
    deleted: s.status === "CANCELED",
    maxPayments: null,
    externalReference: s.externalReference,
    checkoutSession: null,
    // Ponte keeps no card on a subscription: a card subscription says so with null.
    ...(s.billingType === "CREDIT_CARD" ? { creditCard: null } : {}),
  };
}

const REFUND_STATUS: Record<string, string> = { pending: "PENDING", done: "DONE", failed: "CANCELLED" };

function refund(r: Obj): Obj {
  return {
    dateCreated: brazilDateTime(r.createdAt),
    status: REFUND_STATUS[String(r.status)] ?? r.status,
    value: amount(r.value),
    description: r.description,
    endToEndIdentifier: null,
    transactionReceiptUrl: null,
    effectiveDate: r.status === "done" ? brazilDateTime(r.updatedAt) : null,
    refundedSplits: null,
  };
}

/** A saved card as Asaas's tokenization answers it. */
const cardToken = (m: Obj): Obj => ({ creditCardNumber: m.last4, creditCardBrand: m.brand, creditCardToken: m.creditCardToken });

/** One Ponte object in Asaas's shape; anything else (a PIX QR code, a passthrough answer) as it is. */
export function asaasObject(value: unknown, refs: Refs): unknown {
  if (!isObj(value)) return value;
  switch (value.object) {
    case "customer":
      return customer(value, refs);
    case "payment":
      return payment(value, refs);
    case "subscription":
      return subscription(value, refs);
    case "refund":
      return refund(value);
    case "payment_method":
      return cardToken(value);
    default:
      return value;
  }
}

/** The Ponte UUIDs a response names (record ids and the customer/subscription/plan they point to). */
export function referencedIds(values: unknown[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    if (!isObj(v) || typeof v.object !== "string") continue;
    for (const key of ["id", "customer", "subscription", "installment"]) if (typeof v[key] === "string") out.push(v[key] as string);
  }
  return out;
}

/** Ponte's error code as the snake-case code Asaas clients switch on (`invalid_access_token`, `invalid_<field>`…). */
const ERROR_STATUS_IN_ASAAS: Record<number, number> = { 405: 400, 409: 400, 413: 400, 415: 400, 422: 400 };

export interface PonteError {
  code: string;
  message: string;
  details?: Obj;
}

/** Ponte's error as Asaas's body and status. The upstream's own `errors[]` (a passthrough 400/404) are answered as it sent them. */
export function asaasError(
  error: PonteError,
  status: number,
): { status: number; body: { errors: { code: string; description: string }[] } } {
  const details = isObj(error.details) ? error.details : {};
  const mapped = ERROR_STATUS_IN_ASAAS[status] ?? status;
  if (Array.isArray(details.errors) && details.errors.length > 0) {
    const errors = details.errors
      .filter(isObj)
      .map((e) => ({ code: String(e.code ?? "invalid_request"), description: String(e.description ?? "") }));
    return { status: mapped, body: { errors } };
  }
  if (error.code === "VALIDATION_FAILED" && Array.isArray(details.fields) && details.fields.length > 0) {
    const errors = details.fields.filter(isObj).map((f) => {
      const path = String(f.path ?? "");
      const field = path.split(".").slice(1).join(".") || path;
      return { code: `invalid_${field || "body"}`, description: `${path}: ${String(f.message ?? "invalid")}` };
    });
    return { status: mapped, body: { errors } };
  }
  const code = error.code === "UNAUTHORIZED" || error.code === "ENVIRONMENT_MISMATCH" ? "invalid_access_token" : error.code.toLowerCase();
  return { status: mapped, body: { errors: [{ code, description: error.message }] } };
}
