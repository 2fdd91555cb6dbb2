CREATE TABLE `cost_categories` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`parent_id` text,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`description` text,
	`archived` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cost_categories_tenant_idx` ON `cost_categories` (`organization_id`,`workspace_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `cost_categories_key_uq` ON `cost_categories` (`workspace_id`,`key`);--> statement-breakpoint
CREATE UNIQUE INDEX `cost_categories_child_name_uq` ON `cost_categories` (`workspace_id`,`parent_id`,lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX `cost_categories_top_name_uq` ON `cost_categories` (`workspace_id`,lower("name")) WHERE "cost_categories"."parent_id" IS NULL;--> statement-breakpoint
CREATE INDEX `cost_categories_parent_idx` ON `cost_categories` (`workspace_id`,`parent_id`);--> statement-breakpoint
CREATE TABLE `expenses` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`description` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`exchange_rate_micros` integer,
	`amount_brl_cents` integer NOT NULL,
	`incurred_on` text NOT NULL,
	`due_date` text,
	`paid_at` text,
	`status` text NOT NULL,
	`cost_category_id` text NOT NULL,
	`supplier_id` text,
	`plan_id` text,
	`customer_id` text,
	`recurrence` text DEFAULT 'NONE' NOT NULL,
	`recurrence_ends_on` text,
	`recurrence_parent_id` text,
	`source` text NOT NULL,
	`source_ref` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `expenses_tenant_idx` ON `expenses` (`organization_id`,`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `expenses_incurred_idx` ON `expenses` (`workspace_id`,`incurred_on`);--> statement-breakpoint
CREATE UNIQUE INDEX `expenses_source_ref_uq` ON `expenses` (`workspace_id`,`source_ref`);--> statement-breakpoint
CREATE INDEX `expenses_category_idx` ON `expenses` (`workspace_id`,`cost_category_id`);--> statement-breakpoint
CREATE INDEX `expenses_supplier_idx` ON `expenses` (`workspace_id`,`supplier_id`);--> statement-breakpoint
CREATE INDEX `expenses_plan_idx` ON `expenses` (`workspace_id`,`plan_id`);--> statement-breakpoint
CREATE INDEX `expenses_customer_idx` ON `expenses` (`workspace_id`,`customer_id`);--> statement-breakpoint
CREATE INDEX `expenses_recurrence_idx` ON `expenses` (`recurrence`,`workspace_id`);--> statement-breakpoint
CREATE INDEX `expenses_recurrence_parent_idx` ON `expenses` (`recurrence_parent_id`);--> statement-breakpoint
CREATE TABLE `suppliers` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`cpf_cnpj` text,
	`email` text,
	`phone` text,
	`website` text,
	`default_cost_category_id` text,
	`notes` text,
	`archived` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `suppliers_tenant_idx` ON `suppliers` (`organization_id`,`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `suppliers_cpf_cnpj_idx` ON `suppliers` (`workspace_id`,`cpf_cnpj`);--> statement-breakpoint
CREATE INDEX `suppliers_category_idx` ON `suppliers` (`workspace_id`,`default_cost_category_id`);