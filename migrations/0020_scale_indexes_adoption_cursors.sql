CREATE TABLE `adoption_cursors` (
	`gateway_account_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`visited_at` text NOT NULL,
	`payments_since` text NOT NULL,
	`payments_offset` integer DEFAULT 0 NOT NULL,
	`payments_pass_started_on` text NOT NULL,
	`subscriptions_since` text NOT NULL,
	`subscriptions_offset` integer DEFAULT 0 NOT NULL,
	`subscriptions_pass_started_on` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `adoption_cursors_visited_idx` ON `adoption_cursors` (`visited_at`);--> statement-breakpoint
CREATE INDEX `adoption_cursors_tenant_idx` ON `adoption_cursors` (`organization_id`,`workspace_id`);--> statement-breakpoint
CREATE INDEX `refunds_tenant_updated_idx` ON `refunds` (`organization_id`,`workspace_id`,`updated_at`);