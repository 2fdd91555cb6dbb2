// The transactional outbox: a state change and its event row are written in one D1 batch.
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const events = sqliteTable(
  "events",
  {
    /** UUIDv7: the event's identity, sent to receivers as the envelope's `id`. */
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    /** payment.created, subscription.canceled, upstream.<event>, ping, … */
    type: text("type").notNull(),
    /** The resource as merchants see it (money as decimal strings, ISO timestamps). */
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: text("created_at").notNull(),
    /** Set once the delivery fan-out for this event has been recorded; null means the sweeper re-enqueues it. */
    fannedOutAt: text("fanned_out_at"),
  },
  (t) => [
    index("events_tenant_idx").on(t.organizationId, t.workspaceId, t.createdAt),
    index("events_pending_fanout_idx").on(t.fannedOutAt, t.createdAt),
  ],
);
