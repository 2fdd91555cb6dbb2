PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`upstream_id` text,
	`sync_status` text NOT NULL,
	`plan_id` text,
	`customer_id` text NOT NULL,
	`billing_type` text NOT NULL,
	`value_cents` integer NOT NULL,
	`cycle` text NOT NULL,
	`next_due_date` text NOT NULL,
	`status` text NOT NULL,
	`description` text,
	`external_reference` text,
	`canceled_at` text,
	`origin` text DEFAULT 'api' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_subscriptions`("id", "organization_id", "workspace_id", "upstream_id", "sync_status", "plan_id", "customer_id", "billing_type", "value_cents", "cycle", "next_due_date", "status", "description", "external_reference", "canceled_at", "created_at", "updated_at") SELECT "id", "organization_id", "workspace_id", "upstream_id", "sync_status", "plan_id", "customer_id", "billing_type", "value_cents", "cycle", "next_due_date", "status", "description", "external_reference", "canceled_at", "created_at", "updated_at" FROM `subscriptions`;--> statement-breakpoint
DROP TABLE `subscriptions`;--> statement-breakpoint
ALTER TABLE `__new_subscriptions` RENAME TO `subscriptions`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `subscriptions_tenant_idx` ON `subscriptions` (`organization_id`,`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `subscriptions_upstream_idx` ON `subscriptions` (`workspace_id`,`upstream_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_upstream_unique_idx` ON `subscriptions` (`workspace_id`,`upstream_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_sync_idx` ON `subscriptions` (`sync_status`,`created_at`);