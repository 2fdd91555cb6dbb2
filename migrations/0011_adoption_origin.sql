ALTER TABLE `customers` ADD `origin` text DEFAULT 'api' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `customers_upstream_unique_idx` ON `customers` (`workspace_id`,`upstream_id`);--> statement-breakpoint
ALTER TABLE `payments` ADD `origin` text DEFAULT 'api' NOT NULL;