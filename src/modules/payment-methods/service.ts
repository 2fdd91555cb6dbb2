// Card tokenization: the card goes straight to the upstream tokenizer; Ponte keeps token, brand, last 4.
import { z } from "@hono/zod-openapi";
import { and, eq, or } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { upstreamJson } from "../../billing/upstream";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { paymentMethods } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import { resolveGatewayAccount } from "../../gateway/accounts";
import { ApiError, notFound } from "../../http/errors";
import { listQuery, type PageRequest } from "../../http/pagination";
import { newestFirstPage } from "../../db/paging";
import { customerForBilling } from "../customers/service";
import { CreditCard, CreditCardHolderInfo } from "../payments/schemas";

export const TokenizeBody = z
  .object({
    customer: z.string().min(1).max(100),
    creditCard: CreditCard,
    creditCardHolderInfo: CreditCardHolderInfo,
    remoteIp: z.string().min(1).max(64),
  })
  .openapi("TokenizeCard");

export const PaymentMethod = z
  .object({
    id: z.uuid(),
    object: z.literal("payment_method"),
    customer: z.uuid(),
    brand: z.string(),
    last4: z.string(),
    creditCardToken: z
      .string()
      .openapi({ description: "The upstream's token; creditCardToken on a payment also accepts this payment method's id." }),
    createdAt: z.string(),
  })
  .openapi("PaymentMethod");

export async function tokenizeCard(deps: Deps, principal: Principal, input: z.infer<typeof TokenizeBody>) {
  requirePermission(principal, "payment_methods.manage");
  const credentials = await resolveGatewayAccount(deps, principal);
  const customer = await customerForBilling(deps, credentials, tenantOf(principal), input.customer);
  const token = await upstreamJson<{ creditCardNumber: string; creditCardBrand: string; creditCardToken: string }>(deps, credentials, {
    flow: "tokenize-card",
    method: "POST",
    path: "/v3/creditCard/tokenizeCreditCard",
    body: {
      customer: customer.upstreamId,
      creditCard: input.creditCard,
      creditCardHolderInfo: input.creditCardHolderInfo,
      remoteIp: input.remoteIp,
    },
    surfacePath: "/api/v1/payment-methods/tokenize",
  });
  const row = {
    id: newId(),
    ...tenantOf(principal),
    customerId: customer.id,
    upstreamToken: token.creditCardToken,
    brand: token.creditCardBrand,
    last4: token.creditCardNumber.slice(-4),
    createdAt: deps.now().toISOString(),
  };
  await deps.db.insert(paymentMethods).values(row);
  return presentPaymentMethod(row);
}

type PaymentMethodRow = typeof paymentMethods.$inferSelect;

export function presentPaymentMethod(row: PaymentMethodRow) {
  return {
    id: row.id,
    object: "payment_method" as const,
    customer: row.customerId,
    brand: row.brand,
    last4: row.last4,
    creditCardToken: row.upstreamToken,
    createdAt: row.createdAt,
  };
}

export const PaymentMethodListQuery = listQuery({
  customer: z
    .uuid()
    .optional()
    .openapi({ param: { name: "customer", in: "query" }, description: "Only this customer's cards." }),
});

export async function listPaymentMethods(deps: Deps, principal: Principal, page: PageRequest, customer?: string) {
  requirePermission(principal, "payment_methods.read");
  const where = and(inTenant(paymentMethods, principal), customer ? eq(paymentMethods.customerId, customer) : undefined);
  const { rows, totalCount } = await newestFirstPage(deps.db, paymentMethods, where, page);
  return { rows: rows.map(presentPaymentMethod), totalCount };
}

async function findPaymentMethod(deps: Deps, principal: Principal, id: string): Promise<PaymentMethodRow> {
  const row = await deps.db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.id, id), inTenant(paymentMethods, principal)))
    .get();
  if (!row) throw notFound("payment_method", id);
  return row;
}

export async function getPaymentMethod(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "payment_methods.read");
  return presentPaymentMethod(await findPaymentMethod(deps, principal, id));
}

/** Ponte forgets the card: its id and token no longer charge anything through Ponte. */
export async function deletePaymentMethod(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "payment_methods.manage");
  const row = await findPaymentMethod(deps, principal, id);
  await deps.db.delete(paymentMethods).where(and(eq(paymentMethods.id, row.id), inTenant(paymentMethods, principal)));
  return { id: row.id, object: "payment_method" as const, deleted: true as const };
}

export interface SavedCard {
  /** What goes upstream as `creditCardToken`. */
  token: string;
  brand?: string;
  last4?: string;
}

/**
 * The one saved-card ownership rule, for payments and subscriptions alike: `token` (a payment-method id, or
 * the upstream token a saved card answered with) naming a card saved in this tenant must belong to
 * `customerId`, else 400 on body.creditCardToken. A token Ponte never saved is passed on as an upstream token.
 */
export async function cardForCustomer(deps: Deps, principal: Principal, customerId: string, token: string): Promise<SavedCard> {
  const saved = await deps.db
    .select()
    .from(paymentMethods)
    .where(and(or(eq(paymentMethods.id, token), eq(paymentMethods.upstreamToken, token)), inTenant(paymentMethods, principal)))
    .all();
  if (saved.length === 0) return { token };
  const method = saved.find((m) => m.customerId === customerId);
  if (!method) {
    throw new ApiError("VALIDATION_FAILED", "Invalid request body: body.creditCardToken.", {
      fields: [{ path: "body.creditCardToken", message: "this payment method belongs to another customer", code: "custom" }],
    });
  }
  return { token: method.upstreamToken, brand: method.brand, last4: method.last4 };
}
