CREATE TABLE `installments` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`upstream_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`installment_count` integer,
	`billing_type` text NOT NULL,
	`origin` text DEFAULT 'api' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `installments_upstream_unique_idx` ON `installments` (`workspace_id`,`upstream_id`);--> statement-breakpoint
ALTER TABLE `payments` ADD `installment_id` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `installment_number` integer;--> statement-breakpoint
CREATE INDEX `payments_installment_idx` ON `payments` (`installment_id`,`installment_number`);