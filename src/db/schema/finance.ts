// Finance records (PLATFORM.md: cost-categories, suppliers, expenses): Ponte's own data, never mirrored
// upstream. Money is integer cents; the exchange rate is an exact scaled integer (BRL per unit × 10^6).
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const tenant = {
  organizationId: text("organization_id").notNull(),
  workspaceId: text("workspace_id").notNull(),
};
const timestamps = {
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
};

/** A two-level tree: `parent_id` is null (top level) or a top-level category of the same workspace. */
export const costCategories = sqliteTable(
  "cost_categories",
  {
    id: text("id").primaryKey(),
    ...tenant,
    parentId: text("parent_id"),
    /** Slug used in formulas (`expenses.<key>`); unique per workspace. */
    key: text("key").notNull(),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["FIXED", "VARIABLE"] }).notNull(),
    description: text("description"),
    archived: integer("archived", { mode: "boolean" }).notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index("cost_categories_tenant_idx").on(t.organizationId, t.workspaceId, t.createdAt),
    uniqueIndex("cost_categories_key_uq").on(t.workspaceId, t.key),
    // Name unique among siblings (case-insensitive): children under their parent, top-level ones among themselves.
    uniqueIndex("cost_categories_child_name_uq").on(t.workspaceId, t.parentId, sql`lower(${t.name})`),
    uniqueIndex("cost_categories_top_name_uq").on(t.workspaceId, sql`lower(${t.name})`).where(sql`${t.parentId} IS NULL`),
    index("cost_categories_parent_idx").on(t.workspaceId, t.parentId),
  ],
);

export const suppliers = sqliteTable(
  "suppliers",
  {
    id: text("id").primaryKey(),
    ...tenant,
    name: text("name").notNull(),
    /** Digits only; optional. */
    cpfCnpj: text("cpf_cnpj"),
    email: text("email"),
    phone: text("phone"),
    website: text("website"),
    defaultCostCategoryId: text("default_cost_category_id"),
    notes: text("notes"),
    archived: integer("archived", { mode: "boolean" }).notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index("suppliers_tenant_idx").on(t.organizationId, t.workspaceId, t.createdAt),
    index("suppliers_cpf_cnpj_idx").on(t.workspaceId, t.cpfCnpj),
    index("suppliers_category_idx").on(t.workspaceId, t.defaultCostCategoryId),
  ],
);

export const expenses = sqliteTable(
  "expenses",
  {
    id: text("id").primaryKey(),
    ...tenant,
    description: text("description").notNull(),
    /** In `currency`. */
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency", { enum: ["BRL", "USD"] }).notNull(),
    /** BRL per unit of `currency` × 1,000,000 (six decimals, exact); null for BRL. */
    exchangeRateMicros: integer("exchange_rate_micros"),
    /** amount × rate, rounded half-even to the cent; what every report uses. */
    amountBrlCents: integer("amount_brl_cents").notNull(),
    /** YYYY-MM-DD: the accrual date reports use. */
    incurredOn: text("incurred_on").notNull(),
    dueDate: text("due_date"),
    paidAt: text("paid_at"),
    status: text("status", { enum: ["PENDING", "PAID", "CANCELED"] }).notNull(),
    costCategoryId: text("cost_category_id").notNull(),
    supplierId: text("supplier_id"),
    planId: text("plan_id"),
    customerId: text("customer_id"),
    recurrence: text("recurrence", { enum: ["NONE", "MONTHLY", "YEARLY"] })
      .notNull()
      .default("NONE"),
    recurrenceEndsOn: text("recurrence_ends_on"),
    /** For source RECURRENCE: the recurring expense this occurrence was materialised from. */
    recurrenceParentId: text("recurrence_parent_id"),
    source: text("source", { enum: ["MANUAL", "AWS", "RECURRENCE"] }).notNull(),
    /** Idempotency key of an import or occurrence (`aws:<connection>:<day>:<service>`, `recurrence:<parent>:<date>`). */
    sourceRef: text("source_ref"),
    ...timestamps,
  },
  (t) => [
    index("expenses_tenant_idx").on(t.organizationId, t.workspaceId, t.createdAt),
    index("expenses_incurred_idx").on(t.workspaceId, t.incurredOn),
    uniqueIndex("expenses_source_ref_uq").on(t.workspaceId, t.sourceRef),
    index("expenses_category_idx").on(t.workspaceId, t.costCategoryId),
    index("expenses_supplier_idx").on(t.workspaceId, t.supplierId),
    index("expenses_plan_idx").on(t.workspaceId, t.planId),
    index("expenses_customer_idx").on(t.workspaceId, t.customerId),
    index("expenses_recurrence_idx").on(t.recurrence, t.workspaceId),
    index("expenses_recurrence_parent_idx").on(t.recurrenceParentId),
  ],
);
