// Expenses (PLATFORM.md): a cost filed under a category, optionally from a supplier and allocated to a
// plan or customer. Every write moves the metric rollups (`expenses`, `expenses.category.<id>`,
// `aws_costs`) in the same D1 batch, guarded so a write that changed nothing moves nothing.
import type { z } from "@hono/zod-openapi";
import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { centsOf } from "../../billing/schemas";
import { onDays } from "../../db/date-filters";
import { changedRows, insertIfChanged } from "../../db/guarded-insert";
import { newestFirstPage } from "../../db/paging";
import { auditLogs, costCategories, customers, expenses, plans } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { type ExpenseFacts, expenseDeltas, rollupIfChanged } from "../../events/metric-rollups";
import { ApiError, notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { parseExchangeRate, toBrlCents } from "../../lib/exchange";
import { formatMoney, MAX_MONEY_CENTS } from "../../lib/money";
import { newId } from "../../lib/ids";
import type { Tenant } from "../../lib/tenant";
import { auditEntry, auditRow } from "../audit/service";
import { findSupplierRow, usableCostCategory } from "../suppliers/service";
import {
  type CreateExpenseBody,
  type ExpenseFilters,
  type ExpenseRow,
  type PayExpenseBody,
  type UpdateExpenseBody,
  presentExpense,
} from "./rows";

export const factsOf = (row: ExpenseRow): ExpenseFacts => ({
  amountBrlCents: row.amountBrlCents,
  incurredOn: row.incurredOn,
  status: row.status,
  source: row.source,
  costCategoryId: row.costCategoryId,
});

export async function findExpenseRow(deps: Deps, tenant: Tenant, id: string): Promise<ExpenseRow> {
  const row = await deps.db
    .select()
    .from(expenses)
    .where(and(eq(expenses.id, id), inTenant(expenses, tenant)))
    .get();
  if (!row) throw notFound("expense", id);
  return row;
}

const invalid = (message: string, details: Record<string, unknown>) => new ApiError("VALIDATION_FAILED", message, details);

/** The rate (micros) and BRL cents of an amount: BRL has no rate; any other currency needs one. */
function conversion(amountCents: number, currency: "BRL" | "USD", rate: string | number | null | undefined) {
  if (currency === "BRL") {
    if (rate !== undefined && rate !== null)
      throw invalid("exchangeRate applies only to a currency other than BRL.", { exchangeRate: rate });
    return { exchangeRateMicros: null, amountBrlCents: amountCents };
  }
  if (rate === undefined || rate === null) throw invalid(`exchangeRate is required for ${currency}.`, { currency });
  const parsed = parseExchangeRate(rate);
  if (!parsed.ok) throw invalid(parsed.reason, { exchangeRate: rate });
  return { exchangeRateMicros: parsed.micros, amountBrlCents: brlCents(amountCents, parsed.micros) };
}

/** amount × rate in BRL cents; 400 naming amountBrl when it passes the bound on every amount (R$ 1 billion). */
function brlCents(amountCents: number, rateMicros: number): number {
  const cents = toBrlCents(amountCents, rateMicros);
  if (cents !== null) return cents;
  const message = `amountBrl (amount × exchangeRate) exceeds the maximum of ${formatMoney(MAX_MONEY_CENTS)}`;
  throw new ApiError("VALIDATION_FAILED", `${message}.`, {
    fields: [{ path: "body.amountBrl", message, code: "too_big" }],
  });
}

/** References the expense is about to hold, each of this workspace (else 404). */
async function checkReferences(
  deps: Deps,
  tenant: Tenant,
  refs: {
    costCategoryId?: string | undefined;
    supplierId?: string | null | undefined;
    planId?: string | null | undefined;
    customerId?: string | null | undefined;
  },
) {
  const checks: Promise<unknown>[] = [];
  if (refs.costCategoryId) checks.push(usableCostCategory(deps, tenant, refs.costCategoryId, "costCategoryId"));
  if (refs.supplierId) checks.push(findSupplierRow(deps, tenant, refs.supplierId));
  if (refs.planId) {
    const id = refs.planId;
    checks.push(
      deps.db
        .select({ id: plans.id })
        .from(plans)
        .where(and(eq(plans.id, id), inTenant(plans, tenant)))
        .get()
        .then((r) => {
          if (!r) throw notFound("plan", id);
        }),
    );
  }
  if (refs.customerId) {
    const id = refs.customerId;
    checks.push(
      deps.db
        .select({ id: customers.id })
        .from(customers)
        .where(and(eq(customers.id, id), inTenant(customers, tenant), isNull(customers.deletedAt)))
        .get()
        .then((r) => {
          if (!r) throw notFound("customer", id);
        }),
    );
  }
  await Promise.all(checks);
}

/** How far back a recurring expense may start: the sweeper writes every occurrence since, so at most this many monthly rows. */
export const MAX_RECURRENCE_BACKDATE_MONTHS = 36;

/** The earliest day a recurring expense entered on `now` may start (the same day of the month, 36 months back, clamped). */
export function earliestRecurrenceStart(now: Date): string {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() - MAX_RECURRENCE_BACKDATE_MONTHS;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(now.getUTCDate(), last))).toISOString().slice(0, 10);
}

/** `earliest`: the backdating bound, when the request sets the start or the recurrence (null: an unrelated edit of an older one). */
function checkRecurrence(recurrence: string, endsOn: string | null, incurredOn: string, source: string, earliest: string | null) {
  if (recurrence !== "NONE" && earliest !== null && incurredOn < earliest)
    throw invalid(
      `A recurring expense may start at most ${MAX_RECURRENCE_BACKDATE_MONTHS} months before today (on or after ${earliest}); enter older ones as single expenses.`,
      { incurredOn, earliest },
    );
  if (recurrence === "NONE" && endsOn !== null) throw invalid("recurrenceEndsOn needs a recurrence.", { recurrenceEndsOn: endsOn });
  if (endsOn !== null && endsOn < incurredOn)
    throw invalid("recurrenceEndsOn is before incurredOn.", { recurrenceEndsOn: endsOn, incurredOn });
  if (recurrence !== "NONE" && source !== "MANUAL")
    throw invalid("Only an expense entered by hand can recur (an occurrence or an import cannot).", { recurrence });
}

export async function createExpense(deps: Deps, principal: Principal, input: z.infer<typeof CreateExpenseBody>) {
  requirePermission(principal, "finance.manage");
  const tenant = tenantOf(principal);
  let costCategoryId = input.costCategoryId;
  if (input.supplierId) {
    const supplier = await findSupplierRow(deps, tenant, input.supplierId);
    costCategoryId ??= supplier.defaultCostCategoryId ?? undefined;
  }
  if (!costCategoryId) throw invalid("costCategoryId is required (the supplier has no default category).", { costCategoryId: null });
  await checkReferences(deps, tenant, { ...input, costCategoryId });
  if (input.status !== "PAID" && input.paidAt) throw invalid("paidAt needs status PAID.", { paidAt: input.paidAt });
  const amountCents = centsOf(input.amount);
  const recurrenceEndsOn = input.recurrenceEndsOn ?? null;
  checkRecurrence(input.recurrence, recurrenceEndsOn, input.incurredOn, "MANUAL", earliestRecurrenceStart(deps.now()));
  const now = deps.now().toISOString();
  const row: ExpenseRow = {
    id: newId(),
    ...tenant,
    description: input.description,
    amountCents,
    currency: input.currency,
    ...conversion(amountCents, input.currency, input.exchangeRate),
    incurredOn: input.incurredOn,
    dueDate: input.dueDate ?? null,
    paidAt: input.status === "PAID" ? new Date(input.paidAt ?? now).toISOString() : null,
    status: input.status,
    costCategoryId,
    supplierId: input.supplierId ?? null,
    planId: input.planId ?? null,
    customerId: input.customerId ?? null,
    recurrence: input.recurrence,
    recurrenceEndsOn,
    recurrenceParentId: null,
    source: "MANUAL",
    sourceRef: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.batch([
    deps.db.insert(expenses).values(row),
    ...rollupIfChanged(deps.db, tenant, expenseDeltas(null, factsOf(row))),
    auditEntry(deps, principal, {
      action: "expense.created",
      targetType: "expense",
      targetId: row.id,
      metadata: { amountBrl: row.amountBrlCents, incurredOn: row.incurredOn },
    }),
  ]);
  return presentExpense(row);
}

/** A category filter takes in the category's children (as `expenses.<key>` in formulas does). */
function inCategory(tenant: Tenant, id: string): SQL {
  const children = sql`SELECT ${costCategories.id} FROM ${costCategories} WHERE ${costCategories.workspaceId} = ${tenant.workspaceId} AND ${costCategories.parentId} = ${id}`;
  return or(eq(expenses.costCategoryId, id), sql`${expenses.costCategoryId} IN (${children})`) as SQL;
}

export async function listExpenses(deps: Deps, principal: Principal, page: PageRequest, f: ExpenseFilters) {
  requirePermission(principal, "finance.read");
  const tenant = tenantOf(principal);
  const conditions: SQL[] = [
    inTenant(expenses, tenant),
    ...onDays(expenses.incurredOn, undefined, f.from, f.to),
    ...onDays(expenses.incurredOn, f.incurredOn, f["incurredOn[ge]"], f["incurredOn[le]"]),
    ...onDays(expenses.dueDate, f.dueDate, f["dueDate[ge]"], f["dueDate[le]"]),
  ];
  if (f.costCategoryId) conditions.push(inCategory(tenant, f.costCategoryId));
  if (f.supplierId) conditions.push(eq(expenses.supplierId, f.supplierId));
  if (f.status) conditions.push(eq(expenses.status, f.status));
  if (f.source) conditions.push(eq(expenses.source, f.source));
  if (f.planId) conditions.push(eq(expenses.planId, f.planId));
  if (f.customerId) conditions.push(eq(expenses.customerId, f.customerId));
  if (f.currency) conditions.push(eq(expenses.currency, f.currency));
  const { rows, totalCount } = await newestFirstPage(deps.db, expenses, and(...conditions), page);
  return { rows: rows.map(presentExpense), totalCount };
}

export async function getExpense(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "finance.read");
  return presentExpense(await findExpenseRow(deps, tenantOf(principal), id));
}

/** Fields an imported (AWS) expense keeps as imported: only its category and allocation may change. */
const IMPORT_EDITABLE = new Set(["costCategoryId", "planId", "customerId"]);

/**
 * Writes `after` over `before` only if nobody changed the row since it was read (same `updatedAt`), with
 * its audit row and rollup deltas behind the same guard; 409 CONFLICT if it lost that race.
 */
async function writeChange(deps: Deps, principal: Principal, before: ExpenseRow, after: ExpenseRow, action: string, extra: SQL[] = []) {
  const tenant = tenantOf(principal);
  const { id, organizationId, workspaceId, createdAt, ...changes } = after;
  const [result] = await deps.db.batch([
    deps.db
      .update(expenses)
      .set(changes)
      .where(and(eq(expenses.id, before.id), inTenant(expenses, tenant), eq(expenses.updatedAt, before.updatedAt), ...extra)),
    insertIfChanged(deps.db, auditLogs, auditRow(deps, principal, { action, targetType: "expense", targetId: before.id })),
    ...rollupIfChanged(deps.db, tenant, expenseDeltas(factsOf(before), factsOf(after))),
  ]);
  if (changedRows(result) === 0)
    throw new ApiError("CONFLICT", "The expense changed while this request was made; read it again and retry.", { id: before.id });
  return presentExpense(after);
}

export async function updateExpense(deps: Deps, principal: Principal, id: string, input: z.infer<typeof UpdateExpenseBody>) {
  requirePermission(principal, "finance.manage");
  const tenant = tenantOf(principal);
  const row = await findExpenseRow(deps, tenant, id);
  if (row.source === "AWS") {
    const locked = Object.keys(input).filter((k) => !IMPORT_EDITABLE.has(k));
    if (locked.length > 0)
      throw new ApiError("INVALID_STATE", "An imported expense is read-only except its category and allocation.", { fields: locked });
  }
  const changedRef = <K extends "costCategoryId" | "supplierId" | "planId" | "customerId">(k: K) =>
    input[k] !== undefined && input[k] !== row[k] ? input[k] : undefined;
  await checkReferences(deps, tenant, {
    costCategoryId: changedRef("costCategoryId") ?? undefined,
    supplierId: changedRef("supplierId"),
    planId: changedRef("planId"),
    customerId: changedRef("customerId"),
  });
  const now = deps.now().toISOString();
  const amountCents = input.amount !== undefined ? centsOf(input.amount) : row.amountCents;
  const currency = input.currency ?? row.currency;
  const moneyChanged = input.amount !== undefined || input.currency !== undefined || input.exchangeRate !== undefined;
  // A new amount in a currency that keeps its rate is converted at that rate; BRL never has one.
  const keepRate = input.exchangeRate === undefined && currency !== "BRL" && row.exchangeRateMicros !== null;
  const converted = !moneyChanged
    ? { exchangeRateMicros: row.exchangeRateMicros, amountBrlCents: row.amountBrlCents }
    : keepRate && row.exchangeRateMicros !== null
      ? { exchangeRateMicros: row.exchangeRateMicros, amountBrlCents: brlCents(amountCents, row.exchangeRateMicros) }
      : conversion(amountCents, currency, input.exchangeRate);
  const status = input.status ?? row.status;
  // Money that left is not un-spent by a cancel: a PAID expense goes back to PENDING first (a payment marked by
  // mistake) or is deleted (recorded by mistake).
  if (row.status === "PAID" && status === "CANCELED")
    throw new ApiError(
      "INVALID_STATE",
      "A PAID expense cannot be canceled: set its status to PENDING first if it was marked paid by mistake, or delete it if it was recorded by mistake.",
      { id: row.id, status: row.status },
    );
  let paidAt = input.paidAt !== undefined ? (input.paidAt === null ? null : new Date(input.paidAt).toISOString()) : row.paidAt;
  if (status !== "PAID") {
    if (input.paidAt) throw invalid("paidAt needs status PAID.", { paidAt: input.paidAt });
    paidAt = null;
  } else paidAt ??= now;
  const after: ExpenseRow = {
    ...row,
    description: input.description ?? row.description,
    amountCents,
    currency,
    ...converted,
    incurredOn: input.incurredOn ?? row.incurredOn,
    dueDate: input.dueDate !== undefined ? input.dueDate : row.dueDate,
    status,
    paidAt,
    costCategoryId: input.costCategoryId ?? row.costCategoryId,
    supplierId: input.supplierId !== undefined ? input.supplierId : row.supplierId,
    planId: input.planId !== undefined ? input.planId : row.planId,
    customerId: input.customerId !== undefined ? input.customerId : row.customerId,
    recurrence: input.recurrence ?? row.recurrence,
    recurrenceEndsOn: input.recurrenceEndsOn !== undefined ? input.recurrenceEndsOn : row.recurrenceEndsOn,
    updatedAt: now,
  };
  if (after.recurrence === "NONE" && input.recurrenceEndsOn === undefined) after.recurrenceEndsOn = null;
  const startsAgain = input.incurredOn !== undefined || input.recurrence !== undefined;
  checkRecurrence(
    after.recurrence,
    after.recurrenceEndsOn,
    after.incurredOn,
    after.source,
    startsAgain ? earliestRecurrenceStart(deps.now()) : null,
  );
  const action = status === "CANCELED" && row.status !== "CANCELED" ? "expense.canceled" : "expense.updated";
  return writeChange(deps, principal, row, after, action);
}

/** PENDING → PAID (with `paidAt`, default now); a PAID or CANCELED expense is 409 INVALID_STATE. */
export async function payExpense(deps: Deps, principal: Principal, id: string, input: z.infer<typeof PayExpenseBody>) {
  requirePermission(principal, "finance.manage");
  const row = await findExpenseRow(deps, tenantOf(principal), id);
  if (row.status !== "PENDING")
    throw new ApiError("INVALID_STATE", `Only a PENDING expense can be paid; this one is ${row.status}.`, { id, status: row.status });
  if (row.source === "AWS")
    throw new ApiError("INVALID_STATE", "An imported expense is read-only except its category and allocation.", { id });
  const now = deps.now().toISOString();
  const after: ExpenseRow = { ...row, status: "PAID", paidAt: new Date(input.paidAt ?? now).toISOString(), updatedAt: now };
  return writeChange(deps, principal, row, after, "expense.paid", [eq(expenses.status, "PENDING")]);
}

/** Deletes the expense and takes it out of the rollups. An import's rows are the import's (409). */
export async function deleteExpense(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "finance.manage");
  const tenant = tenantOf(principal);
  const row = await findExpenseRow(deps, tenant, id);
  if (row.source === "AWS")
    throw new ApiError("INVALID_STATE", "An imported expense cannot be deleted (a re-sync would bring it back); re-file it instead.", {
      id,
    });
  const [result] = await deps.db.batch([
    deps.db.delete(expenses).where(and(eq(expenses.id, id), inTenant(expenses, tenant), eq(expenses.updatedAt, row.updatedAt))),
    insertIfChanged(deps.db, auditLogs, auditRow(deps, principal, { action: "expense.deleted", targetType: "expense", targetId: id })),
    ...rollupIfChanged(deps.db, tenant, expenseDeltas(factsOf(row), null)),
  ]);
  if (changedRows(result) === 0)
    throw new ApiError("CONFLICT", "The expense changed while this request was made; read it again and retry.", { id });
  return { id, object: "expense" as const, deleted: true as const };
}
