// Field schemas shared by the billing modules: money as decimal strings, dates, billing types.
import { z } from "@hono/zod-openapi";
import { ORIGINS } from "../db/schema";
import { parseMoney } from "../lib/money";
import { DateOnly } from "../http/dates";

export const BILLING_TYPES = ["PIX", "BOLETO", "CREDIT_CARD", "UNDEFINED"] as const;
export const BillingType = z.enum(BILLING_TYPES);
export const CYCLES = ["WEEKLY", "BIWEEKLY", "MONTHLY", "BIMONTHLY", "QUARTERLY", "SEMIANNUALLY", "YEARLY"] as const;
export const Cycle = z.enum(CYCLES);

/** A decimal string ("129.90") or a JSON number, at most 2 decimals; `positive` also rejects 0. */
export const moneyInput = (options: { positive: boolean }) =>
  z
    .union([z.string(), z.number()])
    .superRefine((value, ctx) => {
      const parsed = parseMoney(value);
      if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.reason });
      else if (options.positive && parsed.cents <= 0) ctx.addIssue({ code: "custom", message: "amount must be greater than 0" });
    })
    .openapi({ example: "129.90", description: "Decimal string, or a JSON number as Asaas clients send it; at most 2 decimals." });

/** Cents of a value that already passed `moneyInput`. */
export function centsOf(value: string | number): number {
  const parsed = parseMoney(value);
  if (!parsed.ok) throw new Error(`centsOf: ${parsed.reason}`);
  return parsed.cents;
}

/** The API's one calendar-day schema (src/http/dates.ts: real, between the date floor and ceiling). */
export { DateOnly };

type DateParam = z.ZodOptional<typeof DateOnly>;
/** Asaas's date filters on a list, as it spells them: `field` (that day), `field[ge]` and `field[le]` (inclusive). */
export function dateFilters<F extends string>(field: F): Record<F | `${F}[ge]` | `${F}[le]`, DateParam> {
  const param = (name: string, description: string) => DateOnly.optional().openapi({ param: { name, in: "query" }, description });
  return {
    [field]: param(field, `Only records whose ${field} is this day (YYYY-MM-DD).`),
    [`${field}[ge]`]: param(`${field}[ge]`, `Only records whose ${field} is this day or later.`),
    [`${field}[le]`]: param(`${field}[le]`, `Only records whose ${field} is this day or earlier.`),
  } as Record<F | `${F}[ge]` | `${F}[le]`, DateParam>;
}

/** The card fields a payment or subscription body may carry. */
interface CardFields {
  billingType?: (typeof BILLING_TYPES)[number] | undefined;
  creditCardToken?: string | undefined;
  creditCard?: unknown;
  creditCardHolderInfo?: unknown;
}

/** Card fields (creditCardToken, creditCard) need billingType CREDIT_CARD when the body names a billing type. */
export function cardFieldsNeedCreditCard(body: CardFields, ctx: z.RefinementCtx) {
  if (body.billingType !== undefined && body.billingType !== "CREDIT_CARD" && (body.creditCard || body.creditCardToken)) {
    ctx.addIssue({ code: "custom", path: ["billingType"], message: "card fields need billingType CREDIT_CARD" });
  }
}

/** Raw card data (creditCard) travels with its holder's data (creditCardHolderInfo). */
export function holderInfoWithCard(body: CardFields, ctx: z.RefinementCtx) {
  if (body.creditCard && !body.creditCardHolderInfo) {
    ctx.addIssue({ code: "custom", path: ["creditCardHolderInfo"], message: "required with creditCard" });
  }
}

export const Money = z.string().openapi({ example: "129.90" });
export const RecordOrigin = z.enum(ORIGINS).openapi("RecordOrigin", {
  description:
    "Where the record was made: `api` (Ponte's own create), `gateway` (the answer of a compatibility route), `upstream` (made outside Ponte and adopted from a webhook or the reconciler).",
});

export const SyncStatus = z
  .enum(["pending", "synced", "failed"])
  .openapi({ description: "pending: not yet confirmed by the upstream (a sweeper reconciles it)." });
export const IdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "id", in: "path" } }),
});

/** The tenant headers native subscription operations document (authentication reads them). */
export const TenantHeaders = z.object({
  "X-Organization-Id": z
    .string()
    .optional()
    .openapi({ param: { name: "X-Organization-Id", in: "header" } }),
  "X-Workspace-Id": z
    .string()
    .optional()
    .openapi({ param: { name: "X-Workspace-Id", in: "header" } }),
});
