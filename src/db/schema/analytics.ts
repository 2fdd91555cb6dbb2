// Analytics records (PLATFORM.md: metrics, formulas). `metric_daily` holds one row per workspace, local
// day (the organization's time zone) and metric: flows (revenue, billed, …) as the day's amount, levels
// (mrr, pending_amount, …) as the day's change; it is written in the same D1 batch as the state change
// that moves it, so a series reads at most one row per day and metric whatever the number of charges.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const metricDaily = sqliteTable(
  "metric_daily",
  {
    organizationId: text("organization_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    /** YYYY-MM-DD in the organization's time zone. */
    day: text("day").notNull(),
    /**
     * A catalogue key, `expenses.category.<costCategoryId>` for expenses per category, or revenue by party:
     * `party.received.<customer|plan>.<id>` and `party.payment_fees.<customer|plan>.<id>` (on the charge's payment date).
     */
    metric: text("metric").notNull(),
    /** Integer cents (BRL metrics) or a count. */
    value: integer("value").notNull(),
  },
  (t) => [
    uniqueIndex("metric_daily_uq").on(t.workspaceId, t.metric, t.day),
    // The party rows alone (revenue by customer and plan), by day, covering (the tenant check reads both ids): a range of
    // days over every party reads these and nothing else. Partial, so no other metric's query can take it (it must name the condition itself).
    index("metric_daily_party_idx")
      .on(t.organizationId, t.workspaceId, t.day, t.metric, t.value)
      .where(sql`substr(metric, 1, 6) = 'party.'`),
  ],
);

export const formulas = sqliteTable(
  "formulas",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    /** Slug, unique per workspace; never a metric key. */
    key: text("key").notNull(),
    name: text("name").notNull(),
    expression: text("expression").notNull(),
    unit: text("unit", { enum: ["BRL", "COUNT", "PERCENT"] }).notNull(),
    description: text("description"),
    /** The formula keys the expression uses (JSON), for the cycle check at save time. */
    formulaRefs: text("formula_refs", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("formulas_key_uq").on(t.workspaceId, t.key),
    index("formulas_tenant_idx").on(t.organizationId, t.workspaceId, t.createdAt),
  ],
);
