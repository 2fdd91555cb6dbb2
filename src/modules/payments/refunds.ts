// Refunds: each is its own record. The amount is reserved with ONE conditional UPDATE before the
// upstream is called, so concurrent refunds can never add up to more than the payment.
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { changedRows, insertIfChanged } from "../../db/guarded-insert";
import { centsOf } from "../../billing/schemas";
import { upstreamJson } from "../../billing/upstream";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { formatMoney, toUpstreamAmount } from "../../lib/money";
import { payments, refunds } from "../../db/schema";
import { dispatchEvents, recordEventIfChanged } from "../../events/outbox";
import { resolveGatewayAccount } from "../../gateway/accounts";
import { ApiError } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { assertPaymentAction, REFUNDABLE_STATUSES } from "./status-rules";
import { findPaymentRow, presentPayment, type PaymentRow } from "./lifecycle";
import { newestFirstPage } from "../../db/paging";

type RefundRow = typeof refunds.$inferSelect;

export function presentRefund(row: RefundRow) {
  return {
    id: row.id,
    object: "refund" as const,
    payment: row.paymentId,
    value: formatMoney(row.valueCents),
    description: row.description,
    status: row.status,
    origin: row.origin,
    failureReason: row.failureReason,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function refundTooLarge(row: PaymentRow, requested: number): ApiError {
  const refundable = row.valueCents - row.refundedCents;
  return new ApiError(
    "INVALID_STATE",
    `Cannot refund ${formatMoney(requested)} on payment '${row.id}' (status ${row.status}): only ${formatMoney(refundable)} of ${formatMoney(row.valueCents)} is left to refund.`,
    {
      paymentId: row.id,
      status: row.status,
      value: formatMoney(row.valueCents),
      refundedValue: formatMoney(row.refundedCents),
      refundableValue: formatMoney(refundable),
      requestedValue: formatMoney(requested),
    },
  );
}

export async function refundPayment(
  deps: Deps,
  principal: Principal,
  id: string,
  input: { value?: string | number | undefined; description?: string | undefined },
) {
  requirePermission(principal, "payments.manage");
  const tenant = tenantOf(principal);
  const row = await findPaymentRow(deps, tenant, id);
  assertPaymentAction(row.status, "refund", row.id);
  const amount = input.value !== undefined ? centsOf(input.value) : row.valueCents - row.refundedCents;
  if (amount <= 0 || row.refundedCents + amount > row.valueCents) throw refundTooLarge(row, amount);
  if (!row.upstreamId)
    throw new ApiError("INVALID_STATE", `Payment '${id}' is not yet synced with the upstream provider.`, {
      paymentId: id,
      status: row.status,
      syncStatus: row.syncStatus,
    });
  const credentials = await resolveGatewayAccount(deps, principal);

  const now = deps.now().toISOString();
  const refundId = newId();
  // The reservation: succeeds only if the sum stays within the payment and the status still allows refunds.
  // It leaves updatedAt alone (so does its release): the day a charge paid without a payment date counts
  // is its last recorded change, and only the refund's completion, with its rollups, is one.
  const reserve = deps.db
    .update(payments)
    .set({ refundedCents: sql`${payments.refundedCents} + ${amount}` })
    .where(
      and(
        eq(payments.id, row.id),
        sql`${payments.refundedCents} + ${amount} <= ${payments.valueCents}`,
        inArray(payments.status, REFUNDABLE_STATUSES),
      ),
    );
  const pending = insertIfChanged(deps.db, refunds, {
    id: refundId,
    ...tenant,
    paymentId: row.id,
    valueCents: amount,
    description: input.description ?? null,
    status: "pending",
    origin: "ponte",
    failureReason: null,
    createdAt: now,
    updatedAt: now,
  });
  const [reserved] = await deps.db.batch([reserve, pending]);
  if (changedRows(reserved) === 0) {
    const fresh = await findPaymentRow(deps, tenant, id);
    assertPaymentAction(fresh.status, "refund", fresh.id);
    throw refundTooLarge(fresh, amount);
  }

  try {
    await upstreamJson(deps, credentials, {
      flow: "refund-payment",
      method: "POST",
      path: `/v3/payments/${row.upstreamId}/refund`,
      body: { value: toUpstreamAmount(amount), ...(input.description ? { description: input.description } : {}) },
      surfacePath: `/api/v1/payments/${id}/refund`,
    });
  } catch (err) {
    // Release the reservation; if the upstream did refund after all, its webhook records it (origin upstream).
    const failedAt = deps.now().toISOString();
    const reason = err instanceof ApiError ? err.message : "upstream call failed";
    await deps.db.batch([
      deps.db
        .update(refunds)
        .set({ status: "failed", failureReason: reason, updatedAt: failedAt })
        .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending"))),
      deps.db
        .update(payments)
        .set({ refundedCents: sql`${payments.refundedCents} - ${amount}` })
        .where(sql`${payments.id} = ${row.id} AND changes() > 0`),
    ]);
    throw err;
  }

  const doneAt = deps.now().toISOString();
  const fresh = await findPaymentRow(deps, tenant, id);
  const full = fresh.refundedCents >= fresh.valueCents;
  const next: PaymentRow = { ...fresh, status: full ? "REFUNDED" : fresh.status, updatedAt: doneAt };
  const facts = { payment: { before: fresh, after: next, refund: { valueCents: amount, status: "done", updatedAt: doneAt } } };
  const { event, statement, rollups } = recordEventIfChanged(deps, tenantOf(fresh), "payment.refunded", presentPayment(next), facts);
  const results = await deps.db.batch([
    deps.db
      .update(payments)
      .set({ status: next.status, updatedAt: doneAt })
      .where(and(eq(payments.id, fresh.id), full ? inArray(payments.status, REFUNDABLE_STATUSES) : eq(payments.status, fresh.status))),
    deps.db
      .update(refunds)
      .set({ status: "done", updatedAt: doneAt })
      .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending"))),
    statement,
    ...rollups,
  ]);
  if (changedRows(results[1]) > 0) dispatchEvents(deps, [event]);
  return presentPayment(next);
}

export async function listRefunds(deps: Deps, principal: Principal, id: string, page: PageRequest) {
  requirePermission(principal, "payments.read");
  const row = await findPaymentRow(deps, tenantOf(principal), id);
  const where = eq(refunds.paymentId, row.id);
  const { rows, totalCount } = await newestFirstPage(deps.db, refunds, where, page);
  return { rows: rows.map(presentRefund), totalCount };
}
