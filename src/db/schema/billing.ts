// Native billing records: Ponte owns them and mirrors each to the upstream. Every row carries its
// tenant; `upstream_id` is the upstream's id once synced, and the upstream holds our id as
// `externalReference`, so a lost answer can be reconciled without creating a second record.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const tenant = {
  organizationId: text("organization_id").notNull(),
  workspaceId: text("workspace_id").notNull(),
};
const timestamps = {
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
};
/**
 * Where a record was made: `api` (Ponte's native create), `gateway` (a passthrough route's answer),
 * `upstream` (made outside Ponte, adopted from a webhook or the reconciler).
 */
export const ORIGINS = ["api", "gateway", "upstream"] as const;
const origin = { origin: text("origin", { enum: ORIGINS }).notNull().default("api") };
/** pending: the upstream has not confirmed the record yet (e.g. timed out); the sweeper reconciles it. */
const sync = {
  upstreamId: text("upstream_id"),
  syncStatus: text("sync_status", { enum: ["pending", "synced", "failed"] }).notNull(),
};

export const customers = sqliteTable(
  "customers",
  {
    id: text("id").primaryKey(),
    ...tenant,
    ...sync,
    name: text("name").notNull(),
    cpfCnpj: text("cpf_cnpj").notNull(),
    personType: text("person_type", { enum: ["FISICA", "JURIDICA"] }).notNull(),
    email: text("email"),
    phone: text("phone"),
    mobilePhone: text("mobile_phone"),
    address: text("address"),
    addressNumber: text("address_number"),
    complement: text("complement"),
    province: text("province"),
    postalCode: text("postal_code"),
    externalReference: text("external_reference"),
    notificationDisabled: integer("notification_disabled", { mode: "boolean" }).notNull().default(false),
    observations: text("observations"),
    deletedAt: text("deleted_at"),
    ...origin,
    ...timestamps,
  },
  (t) => [
    index("customers_tenant_idx").on(t.organizationId, t.workspaceId, t.createdAt),
    // One native customer per upstream customer: adoption from a webhook and from an answer race safely.
    uniqueIndex("customers_upstream_unique_idx").on(t.workspaceId, t.upstreamId),
    index("customers_sync_idx").on(t.syncStatus, t.createdAt),
  ],
);

export const plans = sqliteTable(
  "plans",
  {
    id: text("id").primaryKey(),
    ...tenant,
    name: text("name").notNull(),
    description: text("description"),
    valueCents: integer("value_cents").notNull(),
    cycle: text("cycle", { enum: ["WEEKLY", "BIWEEKLY", "MONTHLY", "BIMONTHLY", "QUARTERLY", "SEMIANNUALLY", "YEARLY"] }).notNull(),
    /** Default billing type for subscriptions made from this plan; a subscription may override it. */
    billingType: text("billing_type", { enum: ["PIX", "BOLETO", "CREDIT_CARD", "UNDEFINED"] }),
    status: text("status", { enum: ["active", "archived"] }).notNull(),
    ...timestamps,
  },
  (t) => [index("plans_tenant_idx").on(t.organizationId, t.workspaceId, t.createdAt)],
);

export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    ...tenant,
    ...sync,
    /** The Ponte plan it started from; null for a subscription adopted from the upstream (no Ponte plan). */
    planId: text("plan_id"),
    customerId: text("customer_id").notNull(),
    billingType: text("billing_type", { enum: ["PIX", "BOLETO", "CREDIT_CARD", "UNDEFINED"] }).notNull(),
    valueCents: integer("value_cents").notNull(),
    cycle: text("cycle").notNull(),
    nextDueDate: text("next_due_date").notNull(),
    status: text("status", { enum: ["ACTIVE", "INACTIVE", "EXPIRED", "CANCELED"] }).notNull(),
    description: text("description"),
    externalReference: text("external_reference"),
    canceledAt: text("canceled_at"),
    ...origin,
    ...timestamps,
  },
  (t) => [
    index("subscriptions_tenant_idx").on(t.organizationId, t.workspaceId, t.createdAt),
    // One native subscription per upstream subscription: adoption from a webhook and from an answer race safely.
    uniqueIndex("subscriptions_upstream_unique_idx").on(t.workspaceId, t.upstreamId),
    index("subscriptions_sync_idx").on(t.syncStatus, t.createdAt),
  ],
);

/** An installment plan ("parcelamento"): its payments carry its id and their number in it. */
export const installments = sqliteTable(
  "installments",
  {
    id: text("id").primaryKey(),
    ...tenant,
    upstreamId: text("upstream_id").notNull(),
    customerId: text("customer_id").notNull(),
    /** Known when Ponte made the plan; an adopted plan's count is not in its payments' payload. */
    installmentCount: integer("installment_count"),
    billingType: text("billing_type", { enum: ["PIX", "BOLETO", "CREDIT_CARD", "UNDEFINED"] }).notNull(),
    ...origin,
    ...timestamps,
  },
  (t) => [uniqueIndex("installments_upstream_unique_idx").on(t.workspaceId, t.upstreamId)],
);

export const payments = sqliteTable(
  "payments",
  {
    id: text("id").primaryKey(),
    ...tenant,
    ...sync,
    customerId: text("customer_id").notNull(),
    subscriptionId: text("subscription_id"),
    billingType: text("billing_type", { enum: ["PIX", "BOLETO", "CREDIT_CARD", "UNDEFINED"] }).notNull(),
    /** The one transition table in the payments module decides every change. */
    status: text("status").notNull(),
    valueCents: integer("value_cents").notNull(),
    /** Sum of refunds reserved or done; never above value_cents (enforced by a conditional UPDATE). */
    refundedCents: integer("refunded_cents").notNull().default(0),
    dueDate: text("due_date").notNull(),
    description: text("description"),
    externalReference: text("external_reference"),
    discount: text("discount", { mode: "json" }).$type<Record<string, unknown>>(),
    fine: text("fine", { mode: "json" }).$type<Record<string, unknown>>(),
    interest: text("interest", { mode: "json" }).$type<Record<string, unknown>>(),
    cardToken: text("card_token"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    invoiceUrl: text("invoice_url"),
    bankSlipUrl: text("bank_slip_url"),
    paymentDate: text("payment_date"),
    failureReason: text("failure_reason"),
    /** Boleto "linha digitável", fetched from the upstream right after create (or on the next read). */
    identificationField: text("identification_field"),
    /** What the upstream says the merchant gets after its fee (`netValue`); value − net value is the payment fee. */
    netValueCents: integer("net_value_cents"),
    /** The create request's Idempotency-Key: a retry after a lost answer resumes this record instead of charging again. */
    idempotencyKey: text("idempotency_key"),
    installmentId: text("installment_id"),
    installmentNumber: integer("installment_number"),
    ...origin,
    ...timestamps,
  },
  (t) => [
    index("payments_tenant_idx").on(t.organizationId, t.workspaceId, t.createdAt),
    index("payments_sync_idx").on(t.syncStatus, t.createdAt),
    // One native payment per upstream payment, even when two webhooks race to create a subscription's payment.
    uniqueIndex("payments_upstream_unique_idx").on(t.workspaceId, t.upstreamId),
    uniqueIndex("payments_idempotency_idx").on(t.workspaceId, t.idempotencyKey),
    index("payments_subscription_idx").on(t.subscriptionId, t.createdAt),
    index("payments_installment_idx").on(t.installmentId, t.installmentNumber),
    // The dashboard's "next charges due": an indexed LIMIT read, whatever the number of charges.
    index("payments_due_idx").on(t.workspaceId, t.status, t.dueDate),
    // Revenue received in a range (profitability by plan/customer, the dashboard's rankings): the range's charges
    // only, not every charge of the tenant (bench:scale: 137,000 read for a 7-day dashboard).
    index("payments_received_idx").on(t.organizationId, t.workspaceId, t.paymentDate),
  ],
);

export const refunds = sqliteTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    ...tenant,
    paymentId: text("payment_id").notNull(),
    valueCents: integer("value_cents").notNull(),
    description: text("description"),
    /** pending while the upstream call is in flight; done; failed (its amount released). */
    status: text("status", { enum: ["pending", "done", "failed"] }).notNull(),
    /** ponte: requested through the API; upstream: found done at the upstream (e.g. refunded in its panel). */
    origin: text("origin", { enum: ["ponte", "upstream"] })
      .notNull()
      .default("ponte"),
    failureReason: text("failure_reason"),
    ...timestamps,
  },
  (t) => [
    index("refunds_payment_idx").on(t.paymentId, t.createdAt),
    // Reports read a period's refunds by when they settled (profitability): without it, every tenant's refunds are read.
    index("refunds_tenant_updated_idx").on(t.organizationId, t.workspaceId, t.updatedAt),
  ],
);

/** Card tokens: only the upstream's token, the brand and the last four digits are ever kept. */
export const paymentMethods = sqliteTable(
  "payment_methods",
  {
    id: text("id").primaryKey(),
    ...tenant,
    customerId: text("customer_id").notNull(),
    upstreamToken: text("upstream_token").notNull(),
    brand: text("brand").notNull(),
    last4: text("last4").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("payment_methods_customer_idx").on(t.workspaceId, t.customerId)],
);

/** Inbound upstream webhooks, deduplicated by the upstream's event id per gateway account. */
export const upstreamWebhookEvents = sqliteTable(
  "upstream_webhook_events",
  {
    id: text("id").primaryKey(),
    ...tenant,
    gatewayAccountId: text("gateway_account_id").notNull(),
    upstreamEventId: text("upstream_event_id").notNull(),
    event: text("event").notNull(),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    receivedAt: text("received_at").notNull(),
    processedAt: text("processed_at"),
  },
  (t) => [uniqueIndex("upstream_webhook_events_dedupe_idx").on(t.gatewayAccountId, t.upstreamEventId)],
);
