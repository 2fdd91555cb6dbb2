CREATE TABLE `charges` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`upstream_id` text,
	`sync_status` text NOT NULL,
	`customer_id` text NOT NULL,
	`subscription_id` text,
	`billing_type` text NOT NULL,
	`status` text NOT NULL,
	`value_cents` integer NOT NULL,
	`refunded_cents` integer DEFAULT 0 NOT NULL,
	`due_date` text NOT NULL,
	`description` text,
	`external_reference` text,
	`discount` text,
	`fine` text,
	`interest` text,
	`card_token` text,
	`card_brand` text,
	`card_last4` text,
	`invoice_url` text,
	`bank_slip_url` text,
	`payment_date` text,
	`failure_reason` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `charges_tenant_idx` ON `charges` (`organization_id`,`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `charges_upstream_idx` ON `charges` (`workspace_id`,`upstream_id`);--> statement-breakpoint
CREATE INDEX `charges_sync_idx` ON `charges` (`sync_status`,`created_at`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`upstream_id` text,
	`sync_status` text NOT NULL,
	`name` text NOT NULL,
	`cpf_cnpj` text NOT NULL,
	`person_type` text NOT NULL,
	`email` text,
	`phone` text,
	`mobile_phone` text,
	`address` text,
	`address_number` text,
	`complement` text,
	`province` text,
	`postal_code` text,
	`external_reference` text,
	`notification_disabled` integer DEFAULT false NOT NULL,
	`observations` text,
	`deleted_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `customers_tenant_idx` ON `customers` (`organization_id`,`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `customers_upstream_idx` ON `customers` (`workspace_id`,`upstream_id`);--> statement-breakpoint
CREATE TABLE `payment_methods` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`upstream_token` text NOT NULL,
	`brand` text NOT NULL,
	`last4` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payment_methods_customer_idx` ON `payment_methods` (`workspace_id`,`customer_id`);--> statement-breakpoint
CREATE TABLE `plans` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`value_cents` integer NOT NULL,
	`cycle` text NOT NULL,
	`billing_type` text,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `plans_tenant_idx` ON `plans` (`organization_id`,`workspace_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`charge_id` text NOT NULL,
	`value_cents` integer NOT NULL,
	`description` text,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `refunds_charge_idx` ON `refunds` (`charge_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`upstream_id` text,
	`sync_status` text NOT NULL,
	`plan_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`billing_type` text NOT NULL,
	`value_cents` integer NOT NULL,
	`cycle` text NOT NULL,
	`next_due_date` text NOT NULL,
	`status` text NOT NULL,
	`description` text,
	`external_reference` text,
	`canceled_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `subscriptions_tenant_idx` ON `subscriptions` (`organization_id`,`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `subscriptions_upstream_idx` ON `subscriptions` (`workspace_id`,`upstream_id`);--> statement-breakpoint
CREATE TABLE `upstream_webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`gateway_account_id` text NOT NULL,
	`upstream_event_id` text NOT NULL,
	`event` text NOT NULL,
	`payload` text NOT NULL,
	`received_at` text NOT NULL,
	`processed_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `upstream_webhook_events_dedupe_idx` ON `upstream_webhook_events` (`gateway_account_id`,`upstream_event_id`);