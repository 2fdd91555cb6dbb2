// Gateway accounts (a workspace's upstream credentials per environment) and the upstream call log.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const gatewayAccounts = sqliteTable(
  "gateway_accounts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    environment: text("environment", { enum: ["live", "test"] }).notNull(),
    /** AES-GCM sealed upstream API key (context: the account id); never returned. */
    upstreamKeySealed: text("upstream_key_sealed").notNull(),
    upstreamKeyLast4: text("upstream_key_last4").notNull(),
    /** SHA-256 of the inbound webhook token the upstream sends back in `asaas-access-token`. */
    webhookTokenHash: text("webhook_token_hash").notNull(),
    /** unverified → active after a successful verify; invalid_credentials when the upstream refuses the key. */
    status: text("status", { enum: ["unverified", "active", "invalid_credentials"] }).notNull(),
    verifiedAt: text("verified_at"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("gateway_accounts_workspace_env_idx").on(t.workspaceId, t.environment)],
);

/**
 * No longer written: the gateway-api-log lives in each organization's OrgLogDO (src/db/org-logs/). Kept
 * declared until migrations-deferred/0024 drops it after the copy, so no generated migration drops it early.
 */
export const gatewayApiLogs = sqliteTable(
  "gateway_api_logs",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    gatewayAccountId: text("gateway_account_id").notNull(),
    /** The catalogue operationId, or the native flow's name (e.g. `native:create-payment`). */
    operationId: text("operation_id").notNull(),
    method: text("method").notNull(),
    /** The path the merchant called (ids as sent), and the upstream path called (ids translated). */
    surfacePath: text("surface_path"),
    upstreamPath: text("upstream_path").notNull(),
    /** Null when no answer came (network error or timeout). */
    upstreamStatus: integer("upstream_status"),
    latencyMs: integer("latency_ms").notNull(),
    errorCode: text("error_code"),
    requestId: text("request_id").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("gateway_api_logs_tenant_idx").on(t.organizationId, t.workspaceId, t.createdAt)],
);

/**
 * Where the adoption sweep (modules/reconciliation/adopt-missed.ts) stands for one gateway account, per
 * upstream list (payments, subscriptions): the pass in progress lists what the upstream created on or after
 * `*_since`, and stopped at `*_offset`; a completed pass moves `*_since` to the day it started, so the next
 * pass re-lists only what may be new. `visited_at` orders the accounts (longest unvisited first).
 */
export const adoptionCursors = sqliteTable(
  "adoption_cursors",
  {
    gatewayAccountId: text("gateway_account_id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    visitedAt: text("visited_at").notNull(),
    paymentsSince: text("payments_since").notNull(),
    paymentsOffset: integer("payments_offset").notNull().default(0),
    paymentsPassStartedOn: text("payments_pass_started_on").notNull(),
    subscriptionsSince: text("subscriptions_since").notNull(),
    subscriptionsOffset: integer("subscriptions_offset").notNull().default(0),
    subscriptionsPassStartedOn: text("subscriptions_pass_started_on").notNull(),
  },
  (t) => [index("adoption_cursors_visited_idx").on(t.visitedAt), index("adoption_cursors_tenant_idx").on(t.organizationId, t.workspaceId)],
);
