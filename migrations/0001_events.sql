CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`created_at` text NOT NULL,
	`fanned_out_at` text
);
--> statement-breakpoint
CREATE INDEX `events_tenant_idx` ON `events` (`organization_id`,`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `events_pending_fanout_idx` ON `events` (`fanned_out_at`,`created_at`);