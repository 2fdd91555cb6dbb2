// Outbound webhooks: the endpoints merchants register, one delivery per (endpoint, event), and every attempt.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    url: text("url").notNull(),
    description: text("description"),
    /** Exact kinds, `upstream.*`, or `*`. */
    eventKinds: text("event_kinds", { mode: "json" }).$type<string[]>().notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    /** `consecutive_failures` (auto-disabled) or `manual`. */
    disabledReason: text("disabled_reason"),
    disabledAt: text("disabled_at"),
    /** AES-GCM sealed `whsec_…` (context = endpoint id); never returned after creation. */
    secretSealed: text("secret_sealed").notNull(),
    /** The secret replaced by the last rotation, still signed with until `previousSecretExpiresAt`. */
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretExpiresAt: text("previous_secret_expires_at"),
    secretRotatedAt: text("secret_rotated_at"),
    /** A mirror of the EndpointDO streak, for display; the DO is the source of truth. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("webhook_endpoints_tenant_idx").on(t.organizationId, t.workspaceId, t.createdAt)],
);

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "retrying"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const ATTEMPT_ERROR_KINDS = ["timeout", "network", "http_status", "redirect", "url_policy"] as const;
export type AttemptErrorKind = (typeof ATTEMPT_ERROR_KINDS)[number];

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    /** Sent as X-Service-Delivery; stable across the delivery's attempts. */
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull(),
    /** Every attempt made, automatic or manual. */
    attemptCount: integer("attempt_count").notNull().default(0),
    /** Automatic attempts in the current cycle: what the retry schedule counts (reset by recover). */
    scheduledAttempts: integer("scheduled_attempts").notNull().default(0),
    /** When the next automatic attempt is due; null once succeeded or failed. */
    nextAttemptAt: text("next_attempt_at"),
    lastAttemptAt: text("last_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastErrorKind: text("last_error_kind", { enum: ATTEMPT_ERROR_KINDS }),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // A redelivered queue message never duplicates the fan-out.
    uniqueIndex("webhook_deliveries_endpoint_event_idx").on(t.endpointId, t.eventId),
    index("webhook_deliveries_tenant_idx").on(t.organizationId, t.workspaceId, t.createdAt),
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint_due_idx").on(t.endpointId, t.status, t.nextAttemptAt),
    // The outbox pruner asks whether an event still has deliveries in flight.
    index("webhook_deliveries_event_idx").on(t.eventId, t.status),
  ],
);

/**
 * No longer written: attempts live in each organization's OrgLogDO (src/db/org-logs/). Kept declared until
 * migrations-deferred/0024 drops it after the copy, so no generated migration drops it early.
 */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id").notNull(),
    /** `automatic` (queue/retry), `manual` (redeliver) or `test` (the Test action). */
    trigger: text("trigger", { enum: ["automatic", "manual", "test"] }).notNull(),
    attemptedAt: text("attempted_at").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    errorKind: text("error_kind", { enum: ATTEMPT_ERROR_KINDS }),
    errorMessage: text("error_message"),
    /** First 1 KiB of the response body. */
    responseExcerpt: text("response_excerpt"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt)],
);
