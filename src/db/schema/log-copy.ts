// The one-off copy of the logs D1 used to hold into the organizations' log stores (src/db/org-logs/copy.ts):
// one row per old table, its cursor (the last id copied; ids are UUIDv7, so id order is write order)
// and when the copy found nothing left. Migration 0024 (deferred) drops the old tables; apply it only after every
// row here has done_at set.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const logCopyProgress = sqliteTable("log_copy_progress", {
  /** The D1 table being copied: gateway_api_logs or webhook_attempts. */
  sourceTable: text("source_table").primaryKey(),
  lastId: text("last_id"),
  copiedRows: integer("copied_rows").notNull().default(0),
  doneAt: text("done_at"),
  updatedAt: text("updated_at").notNull(),
});
