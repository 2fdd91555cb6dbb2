// Receivables around payments: anticipations, chargebacks, splits (paid when a payment names split settings,
// received when seeded through the control API) and payment dunnings (negativações).
import { bodyObject, type Handler, type SimContext } from "./context";
import { type Resource, createIn, find, formOrBody, getIn, insert, listIn, resource, singleton, statusIn } from "./engine";
import { addDays, badRequest, isObject, isoDate, listBody, money, readPage, type Json } from "./http";
import { findPayment } from "./payment-records";
import { collection, sumMoney } from "./records";
import type { Payment } from "./state";

// ── anticipations ────────────────────────────────────────────────────────────
export const anticipations = resource("anticipations", "AnticipationGetResponse", "Antecipação não encontrada.");
const MONTHLY_FEE = { CREDIT_CARD: 0.0249, OTHER: 0.0499 };

/** The anticipation of a payment (or every open instalment of a plan): fee pro rata per day until it is due. */
function quote(ctx: SimContext, body: Json): Json {
  const today = isoDate();
  let payments: Payment[];
  if (typeof body.installment === "string") {
    payments = [...ctx.account.payments.values()].filter(
      (p) => p.installment === body.installment && !p.deleted && p.status !== "RECEIVED",
    );
    if (payments.length === 0) throw badRequest("invalid_installment", "Parcelamento inexistente ou sem parcelas a antecipar.");
  } else if (typeof body.payment === "string") {
    payments = [findPayment(ctx.account, body.payment)];
  } else throw badRequest("invalid_payment", "Informe payment ou installment.");
  let value = 0;
  let fee = 0;
  let lastDue = today;
  for (const p of payments) {
    if (p.deleted || !["PENDING", "CONFIRMED"].includes(p.status))
      throw badRequest("invalid_action", `A cobrança ${p.id} não pode ser antecipada.`);
    const due = String(p.estimatedCreditDate ?? p.dueDate);
    const days = Math.max(1, Math.round((Date.parse(`${due}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000));
    const rate = p.billingType === "CREDIT_CARD" ? MONTHLY_FEE.CREDIT_CARD : MONTHLY_FEE.OTHER;
    const cents = Math.round(p.netValue * 100);
    value += cents;
    fee += Math.round((cents * rate * days) / 30);
    if (due > lastDue) lastDue = due;
  }
  const days = Math.round((Date.parse(`${lastDue}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  return {
    payment: typeof body.payment === "string" ? body.payment : null,
    installment: typeof body.installment === "string" ? body.installment : null,
    anticipationDate: today,
    dueDate: lastDue,
    anticipationDays: days,
    fee: fee / 100,
    value: value / 100,
    totalValue: value / 100,
    netValue: (value - fee) / 100,
    isDocumentationRequired: false,
  };
}

const setAnticipated = (ctx: SimContext, a: Json, flag: boolean) => {
  for (const p of ctx.account.payments.values())
    if (p.id === a.payment || (a.installment && p.installment === a.installment)) p.anticipated = flag;
};

export const anticipationHandlers = {
  create: ((ctx) => {
    const body = formOrBody(ctx);
    const q = quote(ctx, body);
    return insert(ctx, anticipations, q, (c, a) => {
      Object.assign(a, { status: "PENDING", requestDate: isoDate() });
      setAnticipated(c, a, true);
    });
  }) as Handler,
  simulate: ((ctx) => quote(ctx, bodyObject(ctx))) as Handler,
  list: listIn(anticipations),
  get: getIn(anticipations),
  cancel: statusIn(anticipations, "CANCELLED", ["PENDING", "SCHEDULED"], (ctx, a) => setAnticipated(ctx, a, false)),
  limits: (({ account }) => {
    const open = [...account.payments.values()].filter((p) => !p.deleted && !p.anticipated && ["PENDING", "CONFIRMED"].includes(p.status));
    const sum = (card: boolean) => sumMoney(open.filter((p) => (p.billingType === "CREDIT_CARD") === card).map((p) => p.netValue));
    return { creditCard: { total: sum(true), available: sum(true) }, bankSlip: { total: sum(false), available: sum(false) } };
  }) as Handler,
  configuration: singleton(
    "AnticipationConfigurationGetResponse",
    { creditCardAutomaticEnabled: false },
    () => "anticipations/configuration",
  ),
};

// ── chargebacks ──────────────────────────────────────────────────────────────
export const chargebacks = resource("chargebacks", "PaymentChargebackResponse", "Chargeback não encontrado.");

/** Opens a chargeback on a card payment (a control action: the cardholder disputes it at their bank). */
export const openChargeback: Handler = (ctx) => {
  const payment = findPayment(ctx.account, ctx.params.id);
  if (payment.billingType !== "CREDIT_CARD" || !["CONFIRMED", "RECEIVED"].includes(payment.status)) {
    throw badRequest("invalid_action", "Só cobranças por cartão confirmadas ou recebidas podem receber chargeback.");
  }
  const body = bodyObject(ctx);
  const chargeback = insert(ctx, chargebacks, {
    payment: payment.id,
    installment: payment.installment,
    customerAccount: payment.customer,
    status: "REQUESTED",
    reason: typeof body.reason === "string" ? body.reason : "ABSENCE_OF_PRINT",
    disputeStartDate: isoDate(),
    value: payment.value,
    paymentDate: payment.confirmedDate ?? payment.paymentDate,
    creditCard: {
      number: (payment.creditCard as Json | undefined)?.creditCardNumber,
      brand: (payment.creditCard as Json | undefined)?.creditCardBrand,
    },
    disputeStatus: null,
    deadlineToSendDisputeDocuments: addDays(isoDate(), 10),
  });
  payment.chargeback = chargeback;
  payment.status = "CHARGEBACK_REQUESTED";
  return chargeback;
};

export const chargebackHandlers = {
  list: listIn(chargebacks),
  /** `POST /chargebacks/{id}/dispute` (multipart with files): the chargeback goes IN_DISPUTE. */
  dispute: ((ctx) => {
    const chargeback = find(ctx, chargebacks);
    if (chargeback.status !== "REQUESTED") throw badRequest("invalid_action", "Só é possível contestar chargebacks solicitados.");
    if (!ctx.form || ![...ctx.form.values()].some((v) => typeof v !== "string"))
      throw badRequest("invalid_files", "Envie os documentos da contestação.");
    Object.assign(chargeback, { status: "IN_DISPUTE", disputeStatus: "REQUESTED" });
    return { id: chargeback.id, status: chargeback.status };
  }) as Handler,
};

// ── splits ───────────────────────────────────────────────────────────────────
export const paidSplits = resource("paidSplits", "PaymentSplitGetResponse", "Split não encontrado.");
export const receivedSplits = resource("receivedSplits", "PaymentSplitGetResponse", "Split não encontrado.");

/** Validates a new payment's split settings against its net value (before anything is stored). */
export function readSplits(netValue: number, split: unknown): Json[] | null {
  if (split === undefined || split === null) return null;
  if (!Array.isArray(split)) throw badRequest("invalid_split", "split deve ser uma lista.");
  const parsed = split.map((raw: unknown) => {
    const s = isObject(raw) ? raw : {};
    if (typeof s.walletId !== "string" || s.walletId === "") throw badRequest("invalid_walletId", "Informe o walletId de cada split.");
    const fixed = s.fixedValue === undefined || s.fixedValue === null ? undefined : Number(s.fixedValue);
    const pct = s.percentualValue === undefined || s.percentualValue === null ? undefined : Number(s.percentualValue);
    const total = fixed !== undefined ? money(fixed) : money((netValue * (pct ?? 0)) / 100);
    if (!(total > 0)) throw badRequest("invalid_split", "Informe fixedValue ou percentualValue positivo em cada split.");
    return {
      walletId: s.walletId,
      fixedValue: fixed ?? null,
      percentualValue: pct ?? null,
      totalValue: total,
      externalReference: s.externalReference ?? null,
      description: s.description ?? null,
    };
  });
  if (sumMoney(parsed.map((p) => p.totalValue)) > netValue)
    throw badRequest("invalid_split", "A soma dos splits excede o valor líquido da cobrança.");
  return parsed;
}

/** Stores a payment's splits as paid splits (PENDING) and answers them in the payment's `split`. */
export function storeSplits(ctx: SimContext, payment: Payment, splits: Json[] | null): void {
  if (!splits) return;
  payment.split = splits.map((s) => {
    const stored = insert(ctx, paidSplits, { ...s, status: "PENDING", paymentId: payment.id });
    const { paymentId: _p, creditDate: _c, paymentConfirmedDate: _d, ...lean } = stored;
    return lean;
  });
}

export const splitHandlers = {
  paidList: listIn(paidSplits),
  paidGet: getIn(paidSplits),
  receivedList: listIn(receivedSplits),
  receivedGet: getIn(receivedSplits),
};

// ── payment dunnings ─────────────────────────────────────────────────────────
export const dunnings = resource("paymentDunnings", "PaymentDunningShowResponse", "Negativação não encontrada.");
const DUNNING_FEE = 9.9;
const history = (ctx: SimContext, id: unknown) => collection(ctx.account, `dunningHistory:${String(id)}`);
const note = (ctx: SimContext, d: Json, description: string) => {
  const id = crypto.randomUUID();
  history(ctx, d.id).set(id, { status: d.status, description, eventDate: isoDate() });
};

function simulation(payment: Payment): Json {
  const allowed = payment.status === "OVERDUE" && !payment.deleted;
  return {
    type: "CREDIT_BUREAU",
    isAllowed: allowed,
    notAllowedReason: allowed ? null : "A cobrança precisa estar vencida.",
    feeValue: DUNNING_FEE,
    netValue: money(payment.value - DUNNING_FEE),
    startDate: allowed ? addDays(isoDate(), 1) : null,
  };
}

const dunningHistory: Resource = {
  ...dunnings,
  dto: "PaymentDunningHistoryEvent",
  key: (ctx) => `dunningHistory:${ctx.params.id}`,
  parent: (ctx) => void find(ctx, dunnings),
};

export const dunningHandlers = {
  create: createIn(dunnings, ["payment", "type"], (ctx, d, body) => {
    const payment = findPayment(ctx.account, String(body.payment));
    if (payment.status !== "OVERDUE" || payment.deleted)
      throw badRequest("invalid_payment", "Só cobranças vencidas podem ser negativadas.");
    if (body.type !== "CREDIT_BUREAU") throw badRequest("invalid_type", "Tipo de negativação inválido (CREDIT_BUREAU).");
    Object.assign(d, {
      status: "PENDING",
      requestDate: isoDate(),
      value: payment.value,
      feeValue: DUNNING_FEE,
      netValue: money(payment.value - DUNNING_FEE),
      dunningNumber: collection(ctx.account, "paymentDunnings").size + 1,
      canBeCancelled: true,
      isNecessaryResendDocumentation: false,
    });
    payment.status = "DUNNING_REQUESTED";
    note(ctx, d, "Negativação solicitada.");
  }),
  list: listIn(dunnings),
  get: getIn(dunnings),
  simulate: ((ctx) => {
    const id = ctx.query.get("payment") ?? bodyObject(ctx).payment;
    const payment = findPayment(ctx.account, typeof id === "string" ? id : undefined);
    return { payment: payment.id, value: payment.value, typeSimulations: [simulation(payment)] };
  }) as Handler,
  history: listIn(dunningHistory),
  partialPayments: ((ctx) => {
    find(ctx, dunnings);
    return listBody([], readPage(ctx.query));
  }) as Handler,
  available: ((ctx) => {
    const overdue = [...ctx.account.payments.values()].filter((p) => p.status === "OVERDUE" && !p.deleted).reverse();
    const rows = overdue.map((p) => ({
      payment: p.id,
      customer: p.customer,
      value: p.value,
      status: p.status,
      billingType: p.billingType,
      dueDate: p.dueDate,
      typeSimulations: [simulation(p)],
    }));
    return listBody(rows, readPage(ctx.query));
  }) as Handler,
  resendDocuments: ((ctx) => {
    const d = find(ctx, dunnings);
    if (!ctx.form) throw badRequest("invalid_documents", "Envie os documentos (multipart).");
    d.isNecessaryResendDocumentation = false;
    note(ctx, d, "Documentos reenviados.");
    return { id: d.id, status: d.status };
  }) as Handler,
  cancel: ((ctx) => {
    const d = find(ctx, dunnings);
    if (d.status !== "PENDING" && d.status !== "AWAITING_APPROVAL")
      throw badRequest("invalid_action", "Esta negativação não pode ser cancelada.");
    Object.assign(d, { status: "CANCELLED", canBeCancelled: false });
    const payment = findPayment(ctx.account, String(d.payment));
    payment.status = "OVERDUE";
    note(ctx, d, "Negativação cancelada.");
    return { id: d.id, status: d.status };
  }) as Handler,
};

/** Seeds a split another account pays this one (a control action: the payer's side is outside this account). */
export const seedReceivedSplit: Handler = (ctx) => {
  const body = bodyObject(ctx);
  const value = Number(body.totalValue);
  if (!(value > 0)) throw badRequest("invalid_totalValue", "Informe totalValue positivo.");
  return insert(ctx, receivedSplits, {
    walletId: typeof body.walletId === "string" ? body.walletId : crypto.randomUUID(),
    fixedValue: value,
    totalValue: value,
    status: typeof body.status === "string" ? body.status : "PENDING",
    paymentId: typeof body.paymentId === "string" ? body.paymentId : `pay_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`,
    description: body.description ?? null,
  });
};
