-- Step two of moving the logs out of D1 (docs/operating.md, Retention). NOT in migrations/ on purpose:
-- `wrangler d1 migrations apply` would run it in the same release as 0019, before the cron has copied the old
-- rows into the organizations' log stores, and they would be lost. Move this file into migrations/ (and drop
-- gatewayApiLogs and webhookAttempts from src/db/schema, then `npm run db:generate` to refresh the manifest)
-- only in a release after `SELECT * FROM log_copy_progress` shows done_at set for both tables.
DROP TABLE IF EXISTS `gateway_api_logs`;--> statement-breakpoint
DROP TABLE IF EXISTS `webhook_attempts`;
