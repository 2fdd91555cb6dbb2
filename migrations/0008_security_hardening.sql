CREATE TABLE `auth_attempts` (
	`scope` text NOT NULL,
	`subject` text NOT NULL,
	`count` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`scope`, `subject`)
);
--> statement-breakpoint
CREATE INDEX `auth_attempts_expires_idx` ON `auth_attempts` (`expires_at`);--> statement-breakpoint
DROP TABLE `login_failures`;--> statement-breakpoint
-- Stored idempotent responses were scoped to the organization and kept in clear: they are dropped (they
-- live 24 h and only serve replays) and the table is recreated scoped to the credential, bodies sealed.
DROP TABLE `idempotency_keys`;--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`organization_id` text NOT NULL,
	`credential_id` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `idempotency_keys_credential_idx` ON `idempotency_keys` (`organization_id`,`credential_id`,`key`);