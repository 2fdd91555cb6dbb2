CREATE TABLE `formulas` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`expression` text NOT NULL,
	`unit` text NOT NULL,
	`description` text,
	`formula_refs` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `formulas_key_uq` ON `formulas` (`workspace_id`,`key`);--> statement-breakpoint
CREATE INDEX `formulas_tenant_idx` ON `formulas` (`organization_id`,`workspace_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `metric_daily` (
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`day` text NOT NULL,
	`metric` text NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `metric_daily_uq` ON `metric_daily` (`workspace_id`,`metric`,`day`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `time_zone` text DEFAULT 'America/Sao_Paulo' NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `net_value_cents` integer;