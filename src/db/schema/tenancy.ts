// Organizations, workspaces, API keys and the audit trail: the tenancy every other table hangs off.

import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const timestamps = {
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
};

export const organizations = sqliteTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** The workspace used when an organization-wide credential names none. */
  defaultWorkspaceId: text("default_workspace_id"),
  /** IANA time zone the analytics bucket days in (metric_daily). */
  timeZone: text("time_zone").notNull().default("America/Sao_Paulo"),
  /** Days each log in the organization's log store (OrgLogDO) keeps a row (src/db/org-logs/retention.ts: defaults, bounds). */
  gatewayApiLogRetentionDays: integer("gateway_api_log_retention_days").notNull().default(30),
  webhookAttemptRetentionDays: integer("webhook_attempt_retention_days").notNull().default(90),
  auditLogRetentionDays: integer("audit_log_retention_days").notNull().default(400),
  ...timestamps,
});

export const workspaces = sqliteTable(
  "workspaces",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    archivedAt: text("archived_at"),
    ...timestamps,
  },
  (t) => [index("workspaces_org_idx").on(t.organizationId, t.createdAt)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** Null: the key may act in any workspace of its organization (chosen by X-Workspace-Id). */
    workspaceId: text("workspace_id").references(() => workspaces.id),
    environment: text("environment", { enum: ["live", "test"] }).notNull(),
    name: text("name").notNull(),
    /** SHA-256 of the full secret, hex. The secret itself is never stored. */
    keyHash: text("key_hash").notNull(),
    /** What a person sees to recognise the key: `ponte_test_AbCd` and the last 4 characters. */
    displayPrefix: text("display_prefix").notNull(),
    last4: text("last4").notNull(),
    permissions: text("permissions", { mode: "json" }).$type<string[]>().notNull(),
    createdBy: text("created_by").notNull(),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
    /** Set when the key was rotated: the key that replaced it. */
    replacedBy: text("replaced_by"),
    ...timestamps,
  },
  (t) => [uniqueIndex("api_keys_hash_idx").on(t.keyHash), index("api_keys_org_idx").on(t.organizationId, t.createdAt)],
);

export const auditLogs = sqliteTable(
  "audit_logs",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    workspaceId: text("workspace_id"),
    actorType: text("actor_type", { enum: ["api_key", "user", "system"] }).notNull(),
    actorId: text("actor_id").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    requestId: text("request_id").notNull(),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("audit_logs_org_idx").on(t.organizationId, t.createdAt)],
);

export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    organizationId: text("organization_id").notNull(),
    /** The credential the key belongs to (`api_key:<id>` or `session:<user id>`): another credential's key is another request. */
    credentialId: text("credential_id").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of method, path, workspace and body. */
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["in_flight", "completed"] }).notNull(),
    responseStatus: integer("response_status"),
    /** The stored response, sealed with SECRETS_ENCRYPTION_KEY (it may hold a one-time secret). */
    responseBody: text("response_body"),
    /** Unix seconds; records live for 24 h. */
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("idempotency_keys_credential_idx").on(t.organizationId, t.credentialId, t.key),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
