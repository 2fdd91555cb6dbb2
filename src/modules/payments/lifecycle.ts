// Applying what the upstream says about a payment (create answer, webhook, sweeper) to the native
// record: link it, move its status through the transition table, and record each event exactly once.
import { and, eq, inArray, isNull } from "drizzle-orm";
import { changedRows, insertIfChanged } from "../../db/guarded-insert";
import { tenantOf, type Tenant } from "../../lib/tenant";
import { type Deps, d1Of } from "../../deps";
import { formatMoney, fromUpstreamAmount } from "../../lib/money";
import { newId } from "../../lib/ids";
import { BILLING_TYPES } from "../../billing/schemas";
import { payments, refunds } from "../../db/schema";
import type { ProductEventKind } from "../../events/kinds";
import { dispatchEvents, eventRow, needsFanOut, recordEventIfChanged } from "../../events/outbox";
import { eventRollupStatements, metricDeltas, rollupIfChanged } from "../../events/metric-rollups";
import { notFound } from "../../http/errors";
import { canTransition, paymentStatusFromUpstream, reopenedStatus, PAYMENT_PREDECESSORS, type PaymentStatus } from "./status-rules";
import { inTenant } from "../../db/tenant-scope";
import { markStage } from "../../http/server-timing";
import {
  insertEventIfChanged,
  linkPendingPayment,
  paymentFromRow,
  refreshUpstreamFields,
  UPSTREAM_FIELDS,
  type UpstreamFields,
} from "./statements";

export type PaymentRow = typeof payments.$inferSelect;

export function presentPayment(row: PaymentRow) {
  return {
    id: row.id,
    object: "payment" as const,
    customer: row.customerId,
    subscription: row.subscriptionId,
    installment: row.installmentId,
    installmentNumber: row.installmentNumber,
    billingType: row.billingType,
    status: row.status,
    value: formatMoney(row.valueCents),
    refundedValue: formatMoney(row.refundedCents),
    dueDate: row.dueDate,
    description: row.description,
    externalReference: row.externalReference,
    discount: row.discount ?? null,
    fine: row.fine ?? null,
    interest: row.interest ?? null,
    creditCard: row.cardLast4 && row.cardBrand ? { brand: row.cardBrand, last4: row.cardLast4 } : null,
    invoiceUrl: row.invoiceUrl,
    bankSlipUrl: row.bankSlipUrl,
    identificationField: row.identificationField,
    paymentDate: row.paymentDate,
    failureReason: row.failureReason,
    upstreamId: row.upstreamId,
    syncStatus: row.syncStatus,
    origin: row.origin,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function findPaymentRow(deps: Deps, tenant: Tenant, id: string): Promise<PaymentRow> {
  const row = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), inTenant(payments, tenant)))
    .get();
  if (!row) throw notFound("payment", id);
  return row;
}

/** The event each target status emits; REFUNDED's event belongs to the refund record that caused it. */
export const STATUS_EVENT: Partial<Record<PaymentStatus, ProductEventKind>> = {
  CONFIRMED: "payment.confirmed",
  RECEIVED: "payment.received",
  RECEIVED_IN_CASH: "payment.received",
  OVERDUE: "payment.overdue",
  CANCELED: "payment.canceled",
  FAILED: "payment.failed",
};

/** Moves the payment to `to` if the table allows it from its current (stored) status; emits once. */
export async function transitionPayment(
  deps: Deps,
  row: PaymentRow,
  to: PaymentStatus,
  extra: Partial<PaymentRow> = {},
): Promise<{ row: PaymentRow; changed: boolean }> {
  const updatedAt = deps.now().toISOString();
  const next: PaymentRow = { ...row, ...extra, status: to, updatedAt };
  const kind = STATUS_EVENT[to];
  const update = deps.db
    .update(payments)
    .set({ ...extra, status: to, updatedAt })
    .where(and(eq(payments.id, row.id), inArray(payments.status, [...PAYMENT_PREDECESSORS[to]])));
  if (!kind) {
    const result = await update.run();
    return { row: next, changed: changedRows(result) > 0 };
  }
  const facts = { payment: { before: row, after: next } };
  const { event, statement, rollups } = recordEventIfChanged(deps, tenantOf(row), kind, presentPayment(next), facts);
  const [result] = await deps.db.batch([update, statement, ...rollups]);
  const changed = changedRows(result) > 0;
  if (changed) dispatchEvents(deps, [event]);
  return { row: next, changed };
}

export interface UpstreamPayment {
  id: string;
  status?: string;
  deleted?: boolean;
  value?: number;
  netValue?: number;
  invoiceUrl?: string | null;
  bankSlipUrl?: string | null;
  paymentDate?: string | null;
  creditCard?: { creditCardNumber?: string; creditCardBrand?: string; creditCardToken?: string } | null;
  refunds?: { value: number; status?: string; description?: string | null }[] | null;
  subscription?: string | null;
  installment?: string | null;
  installmentNumber?: number | null;
  externalReference?: string | null;
  dueDate?: string;
  billingType?: string;
  description?: string | null;
}

/** An upstream amount in cents, or null when absent or not a valid amount (never a throw). */
function upstreamCents(n: unknown): number | null {
  if (typeof n !== "number") return null;
  try {
    return fromUpstreamAmount(n);
  } catch {
    return null;
  }
}

/** Descriptive fields the upstream owns (links, card summary, payment date), never card data. */
function upstreamFields(row: PaymentRow, payment: UpstreamPayment): UpstreamFields {
  const fields: UpstreamFields = {};
  if (payment.invoiceUrl && payment.invoiceUrl !== row.invoiceUrl) fields.invoiceUrl = payment.invoiceUrl;
  if (payment.bankSlipUrl && payment.bankSlipUrl !== row.bankSlipUrl) fields.bankSlipUrl = payment.bankSlipUrl;
  if (payment.paymentDate && payment.paymentDate !== row.paymentDate) fields.paymentDate = payment.paymentDate;
  const netValueCents = upstreamCents(payment.netValue);
  if (netValueCents !== null && netValueCents !== row.netValueCents) fields.netValueCents = netValueCents;
  const card = payment.creditCard;
  if (card?.creditCardToken && card.creditCardToken !== row.cardToken) fields.cardToken = card.creditCardToken;
  if (card?.creditCardBrand && card.creditCardBrand !== row.cardBrand) fields.cardBrand = card.creditCardBrand;
  if (card?.creditCardNumber && card.creditCardNumber !== row.cardLast4) fields.cardLast4 = card.creditCardNumber.slice(-4);
  return fields;
}

/**
 * pending → synced with the upstream id: the moment `payment.created` is recorded (once, whoever gets there
 * first). The linked record comes back from the UPDATE (RETURNING); when another path (a webhook, the
 * sweeper) linked it first, it is read as it stands. `answerStatus`: the create's HTTP status, for a create
 * the link settles (`settlesOnLink`): the Idempotency-Key's answer, the record as linked, is stored in the
 * same batch, only if this link is the one that committed.
 */
export async function linkPayment(deps: Deps, row: PaymentRow, payment: UpstreamPayment, answerStatus?: number): Promise<PaymentRow> {
  const fields = upstreamFields(row, payment);
  const updatedAt = deps.now().toISOString();
  const next: PaymentRow = { ...row, ...fields, upstreamId: payment.id, syncStatus: "synced", updatedAt };
  const d1 = d1Of(deps);
  const link = linkPendingPayment(d1, { ...NO_FIELDS, ...fields, id: row.id, upstreamId: payment.id, updatedAt });
  const facts = { payment: { before: null, after: next } };
  // The event's row and id from the outbox; its rollups as prepared statements (the same upserts eventRollups builds).
  const created = eventRow(deps, tenantOf(row), "payment.created", presentPayment({ ...next, status: "PENDING" }));
  const { event } = created;
  const answer = answerStatus === undefined ? undefined : await deps.keyAnswer?.(answerStatus, presentPayment(next), { eventId: event.id });
  markStage(deps, "link-build");
  const results = await d1.batch([
    link,
    insertEventIfChanged(d1, created.row as Omit<Required<typeof created.row>, "fannedOutAt">),
    ...eventRollupStatements(d1, tenantOf(row), event.id, facts),
    ...(answer ? [answer.statement] : []),
  ]);
  markStage(deps, "link-batch");
  if (answer) answer.settle(results[results.length - 1]);
  const linked = results[0]?.results[0] as Record<string, unknown> | undefined;
  if (!linked) {
    // Another path (a webhook, the sweeper) linked it first: this answer's fields still apply, then the record as it stands.
    if (Object.keys(fields).length > 0) await refreshUpstreamFields(d1, { ...NO_FIELDS, ...fields, id: row.id, updatedAt }).run();
    return (await deps.db.select().from(payments).where(eq(payments.id, row.id)).get()) ?? next;
  }
  // No enabled endpoint in the workspace: the event was written fanned out, nothing to hand off.
  if (needsFanOut(results[1]?.results[0] as Record<string, unknown> | undefined)) dispatchEvents(deps, [event]);
  return paymentFromRow(linked);
}

/** Every upstream field as "not given" (null keeps the stored value in refreshUpstreamFields). */
const NO_FIELDS = Object.fromEntries(UPSTREAM_FIELDS.map((key) => [key, null])) as Record<(typeof UPSTREAM_FIELDS)[number], null>;

/**
 * True when linking is all `applyUpstreamPayment` would do with this create answer: the upstream reports
 * the same terms, no status move and no refund. Its create can answer with the record as linked.
 */
export function settlesOnLink(row: PaymentRow, payment: UpstreamPayment): boolean {
  const linked: PaymentRow = { ...row, ...upstreamFields(row, payment) };
  const target = paymentStatusFromUpstream(payment.status, payment.deleted === true);
  const moves = target !== null && target !== "REFUNDED" && target !== row.status && canTransition(row.status, target);
  return Object.keys(changedTerms(linked, payment)).length === 0 && !moves && !payment.refunds?.length;
}

/** The terms of a charge the upstream may change after create (a passthrough PUT, the upstream's panel). */
function changedTerms(row: PaymentRow, payment: UpstreamPayment): Partial<PaymentRow> {
  const terms: Partial<PaymentRow> = {};
  if (typeof payment.value === "number") {
    const valueCents = fromUpstreamAmount(payment.value);
    if (valueCents !== row.valueCents && valueCents >= row.refundedCents) terms.valueCents = valueCents;
  }
  if (payment.dueDate && payment.dueDate !== row.dueDate) terms.dueDate = payment.dueDate;
  if (payment.description !== undefined && (payment.description ?? null) !== row.description)
    terms.description = payment.description ?? null;
  const billingType = BILLING_TYPES.find((t) => t === payment.billingType);
  if (billingType && billingType !== row.billingType) terms.billingType = billingType;
  return terms;
}

/** Stores changed terms and records `payment.updated` in one batch (once per change). */
async function updateTerms(deps: Deps, row: PaymentRow, terms: Partial<PaymentRow>): Promise<PaymentRow> {
  const updatedAt = deps.now().toISOString();
  const next: PaymentRow = { ...row, ...terms, updatedAt };
  const update = deps.db
    .update(payments)
    .set({ ...terms, updatedAt })
    .where(and(eq(payments.id, row.id), eq(payments.updatedAt, row.updatedAt)));
  const facts = { payment: { before: row, after: next } };
  const { event, statement, rollups } = recordEventIfChanged(deps, tenantOf(row), "payment.updated", presentPayment(next), facts);
  const [result] = await deps.db.batch([update, statement, ...rollups]);
  if (changedRows(result) === 0) return (await deps.db.select().from(payments).where(eq(payments.id, row.id)).get()) ?? row;
  dispatchEvents(deps, [event]);
  return next;
}

/**
 * Stores the upstream's descriptive fields; a payment date or net value arriving for a paid charge moves
 * its revenue and fees (the rollups follow, guarded on the values read so a repeat counts once).
 */
async function refreshFields(deps: Deps, row: PaymentRow, fields: Partial<PaymentRow>): Promise<PaymentRow> {
  const next: PaymentRow = { ...row, ...fields };
  const unchanged = and(
    eq(payments.id, row.id),
    row.paymentDate === null ? isNull(payments.paymentDate) : eq(payments.paymentDate, row.paymentDate),
    row.netValueCents === null ? isNull(payments.netValueCents) : eq(payments.netValueCents, row.netValueCents),
    eq(payments.status, row.status),
  );
  const rollups = rollupIfChanged(deps.db, tenantOf(row), metricDeltas({ payment: { before: row, after: next } }));
  const [result] = await deps.db.batch([deps.db.update(payments).set(fields).where(unchanged), ...rollups]);
  return changedRows(result) > 0 ? next : ((await deps.db.select().from(payments).where(eq(payments.id, row.id)).get()) ?? row);
}

/** The native status a payment's payload implies, or `forced` (e.g. FAILED for a refused capture). */
export async function applyUpstreamPayment(
  deps: Deps,
  row: PaymentRow,
  payment: UpstreamPayment,
  forced?: PaymentStatus | null,
  failureReason?: string,
): Promise<PaymentRow> {
  let current = row.syncStatus === "pending" || row.upstreamId === null ? await linkPayment(deps, row, payment) : row;
  if (current === row) {
    const fields = upstreamFields(row, payment);
    if (Object.keys(fields).length > 0) current = await refreshFields(deps, row, fields);
  }
  const terms = changedTerms(current, payment);
  if (Object.keys(terms).length > 0) current = await updateTerms(deps, current, terms);
  const target = forced ?? paymentStatusFromUpstream(payment.status, payment.deleted === true);
  if (target && target !== "REFUNDED" && target !== current.status && canTransition(current.status, target)) {
    const extra: Partial<PaymentRow> = target === "FAILED" && failureReason ? { failureReason } : {};
    current = (await transitionPayment(deps, current, target, extra)).row;
  }
  if (payment.refunds && payment.refunds.length > 0) current = await recordUpstreamRefunds(deps, current, payment.refunds);
  return current;
}

/**
 * A canceled payment the upstream restored (its restore operation, or PAYMENT_RESTORED) is open
 * again with the status the upstream gives it: the one way out of CANCELED, and only on that signal,
 * so a late creation webhook never reopens a canceled charge.
 */
export async function restorePayment(deps: Deps, row: PaymentRow, payment: UpstreamPayment): Promise<PaymentRow> {
  return reopenPayment(deps, row, payment, "CANCELED", "payment.restored");
}

/**
 * A cash receipt the upstream undid (its undoReceivedInCash operation, or PAYMENT_RECEIVED_IN_CASH_UNDONE):
 * the charge is open again (PENDING, or OVERDUE past its due date, as the upstream says) and has no
 * payment date; the rollups take its revenue and fees back from the day it was paid and put its value
 * back in the open amounts. Recorded as `payment.updated` (the catalogue has no kind of its own for it).
 */
export async function undoReceivedInCash(deps: Deps, row: PaymentRow, payment: UpstreamPayment): Promise<PaymentRow> {
  return reopenPayment(deps, row, payment, "RECEIVED_IN_CASH", "payment.updated", { paymentDate: null });
}

/** `from` → the open status the upstream reports, guarded on `from` and recorded once with its rollups; then the rest of the payload. */
async function reopenPayment(
  deps: Deps,
  row: PaymentRow,
  payment: UpstreamPayment,
  from: PaymentStatus,
  kind: ProductEventKind,
  extra: Partial<PaymentRow> = {},
): Promise<PaymentRow> {
  const to = reopenedStatus(payment.status);
  if (row.status !== from || !to) return applyUpstreamPayment(deps, row, payment);
  const updatedAt = deps.now().toISOString();
  const next: PaymentRow = { ...row, ...extra, status: to, updatedAt };
  const update = deps.db
    .update(payments)
    .set({ ...extra, status: to, updatedAt })
    .where(and(eq(payments.id, row.id), eq(payments.status, from)));
  const facts = { payment: { before: row, after: next } };
  const { event, statement, rollups } = recordEventIfChanged(deps, tenantOf(row), kind, presentPayment(next), facts);
  const [result] = await deps.db.batch([update, statement, ...rollups]);
  if (changedRows(result) === 0) return applyUpstreamPayment(deps, await findPaymentRow(deps, tenantOf(row), row.id), payment);
  dispatchEvents(deps, [event]);
  return applyUpstreamPayment(deps, next, payment);
}

/**
 * Refunds the upstream reports beyond what Ponte has reserved (e.g. made in the upstream's panel) become
 * refund records of origin `upstream`; refunds Ponte itself requested are already counted, so nothing repeats.
 */
async function recordUpstreamRefunds(deps: Deps, row: PaymentRow, items: NonNullable<UpstreamPayment["refunds"]>): Promise<PaymentRow> {
  const upstreamTotal = items.filter((r) => r.status !== "CANCELLED").reduce((sum, r) => sum + fromUpstreamAmount(r.value), 0);
  const fresh = await deps.db.select().from(payments).where(eq(payments.id, row.id)).get();
  if (!fresh) return row;
  const delta = Math.min(upstreamTotal, fresh.valueCents) - fresh.refundedCents;
  if (delta <= 0) return fresh;
  const now = deps.now().toISOString();
  const refundedCents = fresh.refundedCents + delta;
  const full = refundedCents === fresh.valueCents && canTransition(fresh.status, "REFUNDED");
  const next: PaymentRow = { ...fresh, refundedCents, status: full ? "REFUNDED" : fresh.status, updatedAt: now };
  // Compare-and-set on the amount read, so two webhooks carrying the same refund count it once.
  const update = deps.db
    .update(payments)
    .set({ refundedCents, ...(full ? { status: "REFUNDED" } : {}), updatedAt: now })
    .where(and(eq(payments.id, fresh.id), eq(payments.refundedCents, fresh.refundedCents)));
  const facts = { payment: { before: fresh, after: next, refund: { valueCents: delta, status: "done", updatedAt: now } } };
  const { event, statement, rollups } = recordEventIfChanged(deps, tenantOf(fresh), "payment.refunded", presentPayment(next), facts);
  // Chained on the event insert, which happened only if the update did.
  const refundRow = insertIfChanged(deps.db, refunds, {
    id: newId(),
    ...tenantOf(fresh),
    paymentId: fresh.id,
    valueCents: delta,
    description: "Refunded at the upstream provider",
    status: "done",
    origin: "upstream",
    failureReason: null,
    createdAt: now,
    updatedAt: now,
  });
  const [result] = await deps.db.batch([update, statement, refundRow, ...rollups]);
  if (changedRows(result) === 0) return fresh;
  dispatchEvents(deps, [event]);
  return next;
}
