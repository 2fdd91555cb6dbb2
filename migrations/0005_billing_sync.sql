ALTER TABLE `charges` ADD `identification_field` text;--> statement-breakpoint
ALTER TABLE `charges` ADD `idempotency_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `charges_upstream_unique_idx` ON `charges` (`workspace_id`,`upstream_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `charges_idempotency_idx` ON `charges` (`workspace_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `charges_subscription_idx` ON `charges` (`subscription_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `refunds` ADD `origin` text DEFAULT 'ponte' NOT NULL;--> statement-breakpoint
ALTER TABLE `refunds` ADD `failure_reason` text;--> statement-breakpoint
CREATE INDEX `customers_sync_idx` ON `customers` (`sync_status`,`created_at`);--> statement-breakpoint
CREATE INDEX `subscriptions_sync_idx` ON `subscriptions` (`sync_status`,`created_at`);