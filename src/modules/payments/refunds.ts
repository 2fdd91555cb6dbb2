// Refunds: each is its own record. The amount is reserved with ONE conditional UPDATE before the
// upstream is called, so concurrent refunds can never add up to more than the charge.
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../auth/principal";
import { changedRows, insertIfChanged } from "../../db/insert-if-changed";
import { centsOf } from "../../billing/schemas";
import { upstreamJson } from "../../billing/upstream";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { formatMoney, toUpstreamAmount } from "../../lib/money";
import { charges, refunds } from "../../db/schema";
import { dispatchEvents, recordEventIfChanged } from "../../events/outbox";
import { resolveGatewayAccount } from "../../gateway/accounts";
import { ApiError } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { assertChargeAction, REFUNDABLE_STATUSES } from "./charge-status";
import { findChargeRow, presentCharge, type ChargeRow } from "./charge-state";
import { newestFirstPage } from "../../db/paging";

type RefundRow = typeof refunds.$inferSelect;

export function presentRefund(row: RefundRow) {
  return {
    id: row.id,
    object: "refund" as const,
    payment: row.chargeId,
    value: formatMoney(row.valueCents),
    description: row.description,
    status: row.status,
    origin: row.origin,
    failureReason: row.failureReason,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function refundTooLarge(row: ChargeRow, requested: number): ApiError {
  const refundable = row.valueCents - row.refundedCents;
  return new ApiError("INVALID_STATE", `Cannot refund ${formatMoney(requested)} on charge '${row.id}' (status ${row.status}): only ${formatMoney(refundable)} of ${formatMoney(row.valueCents)} is left to refund.`, {
    chargeId: row.id,
    status: row.status,
    value: formatMoney(row.valueCents),
    refundedValue: formatMoney(row.refundedCents),
    refundableValue: formatMoney(refundable),
    requestedValue: formatMoney(requested),
  });
}

export async function refundCharge(deps: Deps, principal: Principal, id: string, input: { value?: string | number | undefined; description?: string | undefined }) {
  requirePermission(principal, "payments.manage");
  const tenant = tenantOf(principal);
  const row = await findChargeRow(deps, tenant, id);
  assertChargeAction(row.status, "refund", row.id);
  const amount = input.value !== undefined ? centsOf(input.value) : row.valueCents - row.refundedCents;
  if (amount <= 0 || row.refundedCents + amount > row.valueCents) throw refundTooLarge(row, amount);
  if (!row.upstreamId) throw new ApiError("INVALID_STATE", `Charge '${id}' is not yet synced with the upstream provider.`, { chargeId: id, status: row.status, syncStatus: row.syncStatus });
  const credentials = await resolveGatewayAccount(deps, principal);

  const now = deps.now().toISOString();
  const refundId = newId();
  // The reservation: succeeds only if the sum stays within the charge and the status still allows refunds.
  const reserve = deps.db
    .update(charges)
    .set({ refundedCents: sql`${charges.refundedCents} + ${amount}`, updatedAt: now })
    .where(and(eq(charges.id, row.id), sql`${charges.refundedCents} + ${amount} <= ${charges.valueCents}`, inArray(charges.status, REFUNDABLE_STATUSES)));
  const pending = insertIfChanged(deps.db, refunds, {
    id: refundId,
    ...tenant,
    chargeId: row.id,
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
    const fresh = await findChargeRow(deps, tenant, id);
    assertChargeAction(fresh.status, "refund", fresh.id);
    throw refundTooLarge(fresh, amount);
  }

  try {
    await upstreamJson(deps, credentials, {
      flow: "refund-charge",
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
      deps.db.update(refunds).set({ status: "failed", failureReason: reason, updatedAt: failedAt }).where(and(eq(refunds.id, refundId), eq(refunds.status, "pending"))),
      deps.db.update(charges).set({ refundedCents: sql`${charges.refundedCents} - ${amount}`, updatedAt: failedAt }).where(sql`${charges.id} = ${row.id} AND changes() > 0`),
    ]);
    throw err;
  }

  const doneAt = deps.now().toISOString();
  const fresh = await findChargeRow(deps, tenant, id);
  const full = fresh.refundedCents >= fresh.valueCents;
  const next: ChargeRow = { ...fresh, status: full ? "REFUNDED" : fresh.status, updatedAt: doneAt };
  const { event, statement } = recordEventIfChanged(deps, tenantOf(fresh), "payment.refunded", presentCharge(next));
  const results = await deps.db.batch([
    deps.db.update(charges).set({ status: next.status, updatedAt: doneAt }).where(and(eq(charges.id, fresh.id), inArray(charges.status, full ? REFUNDABLE_STATUSES : [fresh.status]))),
    deps.db.update(refunds).set({ status: "done", updatedAt: doneAt }).where(and(eq(refunds.id, refundId), eq(refunds.status, "pending"))),
    statement,
  ]);
  if (changedRows(results[1]) > 0) dispatchEvents(deps, [event]);
  return presentCharge(next);
}

export async function listRefunds(deps: Deps, principal: Principal, id: string, page: PageRequest) {
  requirePermission(principal, "payments.read");
  const row = await findChargeRow(deps, tenantOf(principal), id);
  const where = eq(refunds.chargeId, row.id);
  const { rows, totalCount } = await newestFirstPage(deps.db, refunds, where, page);
  return { rows: rows.map(presentRefund), totalCount };
}
