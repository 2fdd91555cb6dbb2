import { z } from "@hono/zod-openapi";
import { listQuery } from "../../http/pagination";
import { BillingType, Cycle, DateOnly, Money, RecordOrigin, SyncStatus, cardFieldsNeedCreditCard, moneyInput } from "../../billing/schemas";
import { CreditCard, CreditCardHolderInfo } from "../payments/schemas";

export const SUBSCRIPTION_STATUSES = ["ACTIVE", "INACTIVE", "EXPIRED", "CANCELED"] as const;

const SubscriptionFields = z.object({
  plan: z.string().min(1).max(100).optional().openapi({
    description:
      "Ponte plan id; value, cycle and billingType default to the plan's. Omitted: value and cycle are required and the subscription starts from the one active plan for that cycle, value and billing type (made with it, in the same write, when there is none; subscriptions.manage suffices).",
  }),
  customer: z.string().min(1).max(100),
  billingType: BillingType.optional().openapi({
    description: "Defaults to the plan's; CREDIT_CARD when the body carries creditCardToken or creditCard.",
  }),
  nextDueDate: DateOnly,
  value: moneyInput({ positive: true }).optional(),
  cycle: Cycle.optional(),
  description: z.string().max(500).nullable().optional(),
  externalReference: z.string().max(200).nullable().optional(),
  creditCardToken: z.string().min(1).max(200).optional(),
  creditCard: CreditCard.optional(),
  creditCardHolderInfo: CreditCardHolderInfo.optional(),
  remoteIp: z.string().max(64).optional(),
});

// A billing type left to the plan's default is checked against the card fields by the service (it needs the plan).
export const CreateSubscriptionBody = SubscriptionFields.superRefine(cardFieldsNeedCreditCard).openapi("CreateSubscription");

export const CardSubscriptionBody = SubscriptionFields.extend({ billingType: z.literal("CREDIT_CARD") }).openapi("CreateCardSubscription");

export const UpdateSubscriptionBody = z
  .object({
    billingType: BillingType.optional(),
    value: moneyInput({ positive: true }).optional(),
    nextDueDate: DateOnly.optional(),
    description: z.string().max(500).nullable().optional(),
    externalReference: z.string().max(200).nullable().optional(),
  })
  .openapi("UpdateSubscription");

export const SubscriptionListQuery = listQuery({
  customer: z
    .string()
    .max(100)
    .optional()
    .openapi({ param: { name: "customer", in: "query" } }),
  plan: z
    .string()
    .max(100)
    .optional()
    .openapi({ param: { name: "plan", in: "query" } }),
  status: z
    .enum(SUBSCRIPTION_STATUSES)
    .optional()
    .openapi({ param: { name: "status", in: "query" } }),
});

export const Subscription = z
  .object({
    id: z.uuid(),
    object: z.literal("subscription"),
    plan: z.string().nullable().openapi({ description: "The Ponte plan it started from; null when adopted from the upstream." }),
    customer: z.string(),
    billingType: BillingType,
    value: Money,
    cycle: Cycle,
    nextDueDate: z.string(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    description: z.string().nullable(),
    externalReference: z.string().nullable(),
    canceledAt: z.string().nullable(),
    upstreamId: z.string().nullable(),
    syncStatus: SyncStatus,
    origin: RecordOrigin,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Subscription");
