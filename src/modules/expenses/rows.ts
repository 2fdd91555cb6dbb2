// Expenses: the request/response schemas and the row → API presentation (money as decimal strings,
// the exchange rate as a 6-decimal string, `amountBrl` the exact BRL value every report uses).
import { z } from "@hono/zod-openapi";
import { DateOnly, dateFilters, moneyInput } from "../../billing/schemas";
import type { expenses } from "../../db/schema";
import { listQuery } from "../../http/pagination";
import { formatExchangeRate, parseExchangeRate } from "../../lib/exchange";
import { formatMoney } from "../../lib/money";
import { Instant } from "../../http/dates";

const PaidAt = Instant.openapi({ example: "2026-11-25T14:00:00Z" });

export type ExpenseRow = typeof expenses.$inferSelect;

export const CURRENCIES = ["BRL", "USD"] as const;
export const EXPENSE_STATUSES = ["PENDING", "PAID", "CANCELED"] as const;
export const EXPENSE_SOURCES = ["MANUAL", "AWS", "RECURRENCE"] as const;
export const RECURRENCES = ["NONE", "MONTHLY", "YEARLY"] as const;

const ExchangeRateInput = z
  .union([z.string(), z.number()])
  .superRefine((value, ctx) => {
    const parsed = parseExchangeRate(value);
    if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.reason });
  })
  .openapi({ example: "5.4321", description: "BRL per unit of `currency`, > 0, at most 6 decimals; required when currency is not BRL." });

const optionalId = z.uuid().nullable().optional();

export const CreateExpenseBody = z
  .object({
    description: z.string().trim().min(1).max(500),
    amount: moneyInput({ positive: true }),
    currency: z.enum(CURRENCIES).default("BRL"),
    exchangeRate: ExchangeRateInput.nullable().optional(),
    incurredOn: DateOnly.openapi({ description: "The accrual date reports use." }),
    dueDate: DateOnly.nullable().optional(),
    status: z.enum(["PENDING", "PAID"]).default("PENDING"),
    paidAt: PaidAt.nullable().optional().openapi({ description: "With status PAID; defaults to now." }),
    costCategoryId: z.uuid().optional().openapi({ description: "Required unless the supplier has a default category." }),
    supplierId: optionalId,
    planId: optionalId.openapi({ description: "Allocation: a direct cost of this plan." }),
    customerId: optionalId.openapi({ description: "Allocation: a direct cost of this customer." }),
    recurrence: z.enum(RECURRENCES).default("NONE"),
    recurrenceEndsOn: DateOnly.nullable().optional().openapi({ description: "Last day an occurrence may fall on (inclusive)." }),
  })
  .openapi("CreateExpense");

export const UpdateExpenseBody = z
  .object({
    description: z.string().trim().min(1).max(500).optional(),
    amount: moneyInput({ positive: true }).optional(),
    currency: z.enum(CURRENCIES).optional(),
    exchangeRate: ExchangeRateInput.nullable().optional(),
    incurredOn: DateOnly.optional(),
    dueDate: DateOnly.nullable().optional(),
    status: z.enum(EXPENSE_STATUSES).optional(),
    paidAt: PaidAt.nullable().optional(),
    costCategoryId: z.uuid().optional(),
    supplierId: optionalId,
    planId: optionalId,
    customerId: optionalId,
    recurrence: z.enum(RECURRENCES).optional(),
    recurrenceEndsOn: DateOnly.nullable().optional(),
  })
  .openapi("UpdateExpense");

export const PayExpenseBody = z
  .object({ paidAt: PaidAt.optional().openapi({ description: "When it was paid; defaults to now." }) })
  .openapi("PayExpense");

const param = (name: string) => ({ param: { name, in: "query" as const } });
export const ExpenseListQuery = listQuery({
  from: DateOnly.optional().openapi({ ...param("from"), description: "incurredOn on or after this day." }),
  to: DateOnly.optional().openapi({ ...param("to"), description: "incurredOn on or before this day." }),
  ...dateFilters("incurredOn"),
  ...dateFilters("dueDate"),
  costCategoryId: z
    .uuid()
    .optional()
    .openapi({ ...param("costCategoryId"), description: "This category or one of its children." }),
  supplierId: z.uuid().optional().openapi(param("supplierId")),
  status: z.enum(EXPENSE_STATUSES).optional().openapi(param("status")),
  source: z.enum(EXPENSE_SOURCES).optional().openapi(param("source")),
  planId: z.uuid().optional().openapi(param("planId")),
  customerId: z.uuid().optional().openapi(param("customerId")),
  currency: z.enum(CURRENCIES).optional().openapi(param("currency")),
});
export type ExpenseFilters = Omit<z.infer<typeof ExpenseListQuery>, "limit" | "offset">;

export const Expense = z
  .object({
    id: z.uuid(),
    object: z.literal("expense"),
    description: z.string(),
    amount: z.string().openapi({ example: "100.00", description: "In `currency`." }),
    currency: z.enum(CURRENCIES),
    exchangeRate: z.string().nullable().openapi({ example: "5.432100", description: "BRL per unit; null for BRL." }),
    amountBrl: z.string().openapi({ example: "543.21", description: "amount × exchangeRate, half-even to the cent." }),
    incurredOn: z.string(),
    dueDate: z.string().nullable(),
    paidAt: z.string().nullable(),
    status: z.enum(EXPENSE_STATUSES),
    costCategoryId: z.uuid(),
    supplierId: z.uuid().nullable(),
    planId: z.string().nullable(),
    customerId: z.string().nullable(),
    recurrence: z.enum(RECURRENCES),
    recurrenceEndsOn: z.string().nullable(),
    recurrenceParentId: z.uuid().nullable(),
    source: z.enum(EXPENSE_SOURCES),
    sourceRef: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Expense");

export function presentExpense(row: ExpenseRow) {
  return {
    id: row.id,
    object: "expense" as const,
    description: row.description,
    amount: formatMoney(row.amountCents),
    currency: row.currency,
    exchangeRate: row.exchangeRateMicros === null ? null : formatExchangeRate(row.exchangeRateMicros),
    amountBrl: formatMoney(row.amountBrlCents),
    incurredOn: row.incurredOn,
    dueDate: row.dueDate,
    paidAt: row.paidAt,
    status: row.status,
    costCategoryId: row.costCategoryId,
    supplierId: row.supplierId,
    planId: row.planId,
    customerId: row.customerId,
    recurrence: row.recurrence,
    recurrenceEndsOn: row.recurrenceEndsOn,
    recurrenceParentId: row.recurrenceParentId,
    source: row.source,
    sourceRef: row.sourceRef,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
