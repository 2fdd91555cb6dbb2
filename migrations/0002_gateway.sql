CREATE TABLE `gateway_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`environment` text NOT NULL,
	`upstream_key_sealed` text NOT NULL,
	`upstream_key_last4` text NOT NULL,
	`webhook_token_hash` text NOT NULL,
	`status` text NOT NULL,
	`verified_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gateway_accounts_workspace_env_idx` ON `gateway_accounts` (`workspace_id`,`environment`);--> statement-breakpoint
CREATE TABLE `gateway_api_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`gateway_account_id` text NOT NULL,
	`operation_id` text NOT NULL,
	`method` text NOT NULL,
	`surface_path` text,
	`upstream_path` text NOT NULL,
	`upstream_status` integer,
	`latency_ms` integer NOT NULL,
	`error_code` text,
	`request_id` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `gateway_api_logs_tenant_idx` ON `gateway_api_logs` (`organization_id`,`workspace_id`,`created_at`);