CREATE TABLE `aws_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`auth_type` text NOT NULL,
	`role_arn` text,
	`external_id` text,
	`access_key_id` text,
	`secret_access_key_sealed` text,
	`cost_category_id` text NOT NULL,
	`exchange_rate_micros` integer NOT NULL,
	`status` text NOT NULL,
	`aws_account_id` text,
	`last_verified_at` text,
	`last_synced_at` text,
	`last_error` text,
	`synced_through` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `aws_connections_tenant_idx` ON `aws_connections` (`organization_id`,`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `aws_connections_category_idx` ON `aws_connections` (`workspace_id`,`cost_category_id`);--> statement-breakpoint
CREATE INDEX `aws_connections_due_idx` ON `aws_connections` (`status`,`last_synced_at`);