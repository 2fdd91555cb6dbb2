CREATE TABLE `log_copy_progress` (
	`source_table` text PRIMARY KEY NOT NULL,
	`last_id` text,
	`copied_rows` integer DEFAULT 0 NOT NULL,
	`done_at` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `organizations` ADD `gateway_api_log_retention_days` integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `webhook_attempt_retention_days` integer DEFAULT 90 NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `audit_log_retention_days` integer DEFAULT 400 NOT NULL;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`,`status`);