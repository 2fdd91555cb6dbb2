import { z } from "@hono/zod-openapi";
import { listQuery } from "../../http/pagination";
import {
  BillingType,
  DateOnly,
  dateFilters,
  Money,
  RecordOrigin,
  SyncStatus,
  cardFieldsNeedCreditCard,
  holderInfoWithCard,
  moneyInput,
} from "../../billing/schemas";
import { PAYMENT_STATUSES } from "./status-rules";

const Discount = z.object({
  value: moneyInput({ positive: false }),
  dueDateLimitDays: z.number().int().min(0).max(3650).optional(),
  type: z.enum(["FIXED", "PERCENTAGE"]).optional(),
});
const Fine = z.object({ value: moneyInput({ positive: false }), type: z.enum(["FIXED", "PERCENTAGE"]).optional() });
const Interest = z.object({ value: moneyInput({ positive: false }) });

/** Card data goes straight to the upstream; Ponte keeps only the token, brand and last 4. */
export const CreditCard = z.object({
  holderName: z.string().min(1).max(200),
  number: z.string().min(12).max(23),
  expiryMonth: z.string().min(1).max(2),
  expiryYear: z.string().min(2).max(4),
  ccv: z.string().min(3).max(4),
});
export const CreditCardHolderInfo = z.object({
  name: z.string().min(1).max(200),
  email: z.string().max(254),
  cpfCnpj: z.string().max(20),
  postalCode: z.string().max(20),
  addressNumber: z.string().max(20),
  addressComplement: z.string().max(200).nullable().optional(),
  phone: z.string().max(30),
  mobilePhone: z.string().max(30).nullable().optional(),
});

/** The upstream's limits on an installment plan. */
export const MAX_INSTALLMENTS = 60;
export const MAX_CARD_INSTALLMENTS = 21;

const PaymentFields = z.object({
  customer: z.string().min(1).max(100).openapi({ description: "Ponte customer id." }),
  billingType: BillingType.openapi({ description: "CREDIT_CARD when the body carries creditCardToken or creditCard." }),
  value: moneyInput({ positive: true })
    .optional()
    .openapi({ description: "The charge's value; required unless installmentCount is sent." }),
  dueDate: DateOnly.openapi({ description: "The (first) due date; instalments fall due one month apart." }),
  installmentCount: z
    .number()
    .int()
    .min(2)
    .max(MAX_INSTALLMENTS)
    .optional()
    .openapi({
      description: `An installment plan: 2 to ${MAX_INSTALLMENTS} instalments (${MAX_CARD_INSTALLMENTS} by card), with installmentValue or totalValue.`,
    }),
  installmentValue: moneyInput({ positive: true }).optional().openapi({ description: "Each instalment's value (with installmentCount)." }),
  totalValue: moneyInput({ positive: true })
    .optional()
    .openapi({ description: "The plan's total, split evenly; the cents left over go on the first instalment (with installmentCount)." }),
  description: z.string().max(500).nullable().optional(),
  externalReference: z.string().max(200).nullable().optional(),
  discount: Discount.optional(),
  fine: Fine.optional(),
  interest: Interest.optional(),
  creditCardToken: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: "A Ponte payment-method id (from tokenize) or an upstream card token. Needs billingType CREDIT_CARD." }),
  creditCard: CreditCard.optional().openapi({
    description: "Raw card data, sent straight to the upstream. Needs billingType CREDIT_CARD and creditCardHolderInfo.",
  }),
  creditCardHolderInfo: CreditCardHolderInfo.optional().openapi({ description: "The card holder's data; required with creditCard." }),
  remoteIp: z.string().max(64).optional(),
});

/** The rules that span fields: card fields only with CREDIT_CARD, raw card data only with its holder's data, value or an installment plan. */
const paymentRules = (body: z.infer<typeof PaymentFields>, ctx: z.RefinementCtx) => {
  cardFieldsNeedCreditCard(body, ctx);
  holderInfoWithCard(body, ctx);
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (body.installmentCount === undefined) {
    if (body.value === undefined) issue("value", "required (or installmentCount with installmentValue or totalValue)");
    if (body.installmentValue !== undefined) issue("installmentValue", "only with installmentCount");
    if (body.totalValue !== undefined) issue("totalValue", "only with installmentCount");
    return;
  }
  if ((body.installmentValue === undefined) === (body.totalValue === undefined)) {
    issue("installmentValue", "send exactly one of installmentValue and totalValue with installmentCount");
  }
  if (body.value !== undefined) issue("value", "not with installmentCount: send installmentValue or totalValue");
  if (body.billingType === "CREDIT_CARD" && body.installmentCount > MAX_CARD_INSTALLMENTS) {
    issue("installmentCount", `at most ${MAX_CARD_INSTALLMENTS} instalments by card`);
  }
};

export const CreatePaymentBody = PaymentFields.superRefine(paymentRules).openapi("CreatePayment");

export const CardPaymentBody = PaymentFields.extend({ billingType: z.literal("CREDIT_CARD") })
  .superRefine(paymentRules)
  .openapi("CreateCardPayment");

export const RefundBody = z
  .object({
    value: moneyInput({ positive: true }).optional().openapi({ description: "Omit for the whole remaining amount." }),
    description: z.string().max(500).optional(),
  })
  .openapi("RefundPayment");

export const PaymentListQuery = listQuery({
  customer: z
    .string()
    .max(100)
    .optional()
    .openapi({ param: { name: "customer", in: "query" } }),
  subscription: z
    .string()
    .max(100)
    .optional()
    .openapi({ param: { name: "subscription", in: "query" } }),
  status: z
    .enum(PAYMENT_STATUSES)
    .optional()
    .openapi({ param: { name: "status", in: "query" } }),
  billingType: BillingType.optional().openapi({ param: { name: "billingType", in: "query" } }),
  externalReference: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: "externalReference", in: "query" } }),
  installment: z
    .uuid()
    .optional()
    .openapi({ param: { name: "installment", in: "query" }, description: "Only this installment plan's charges." }),
  ...dateFilters("dueDate"),
  ...dateFilters("paymentDate"),
  ...dateFilters("dateCreated"),
});

export const Payment = z
  .object({
    id: z.uuid(),
    object: z.literal("payment"),
    customer: z.string(),
    subscription: z.string().nullable(),
    installment: z.uuid().nullable().openapi({ description: "The installment plan (parcelamento) this charge is one instalment of." }),
    installmentNumber: z.number().int().nullable(),
    billingType: BillingType,
    status: z.string().openapi({ example: "PENDING" }),
    value: Money,
    refundedValue: Money,
    dueDate: z.string(),
    description: z.string().nullable(),
    externalReference: z.string().nullable(),
    discount: z.record(z.string(), z.unknown()).nullable(),
    fine: z.record(z.string(), z.unknown()).nullable(),
    interest: z.record(z.string(), z.unknown()).nullable(),
    creditCard: z.object({ brand: z.string(), last4: z.string() }).nullable(),
    invoiceUrl: z.string().nullable(),
    bankSlipUrl: z.string().nullable(),
    identificationField: z.string().nullable(),
    paymentDate: z.string().nullable(),
    failureReason: z.string().nullable(),
    upstreamId: z.string().nullable(),
    syncStatus: SyncStatus,
    origin: RecordOrigin,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Payment");

export const PaymentStatusView = z.object({ id: z.uuid(), status: z.string(), syncStatus: SyncStatus }).openapi("PaymentStatus");
export const PixQrCode = z.object({ payload: z.string(), encodedImage: z.string(), expirationDate: z.string() }).openapi("PixQrCode");
export const Refund = z
  .object({
    id: z.uuid(),
    object: z.literal("refund"),
    payment: z.uuid(),
    value: Money,
    description: z.string().nullable(),
    status: z.enum(["pending", "done", "failed"]),
    origin: z.enum(["ponte", "upstream"]),
    failureReason: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Refund");
