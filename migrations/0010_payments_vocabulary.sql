ALTER TABLE `charges` RENAME TO `payments`;--> statement-breakpoint
ALTER TABLE `refunds` RENAME COLUMN "charge_id" TO "payment_id";--> statement-breakpoint
DROP INDEX `charges_tenant_idx`;--> statement-breakpoint
DROP INDEX `charges_upstream_idx`;--> statement-breakpoint
DROP INDEX `charges_sync_idx`;--> statement-breakpoint
DROP INDEX `charges_upstream_unique_idx`;--> statement-breakpoint
DROP INDEX `charges_idempotency_idx`;--> statement-breakpoint
DROP INDEX `charges_subscription_idx`;--> statement-breakpoint
CREATE INDEX `payments_tenant_idx` ON `payments` (`organization_id`,`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_upstream_idx` ON `payments` (`workspace_id`,`upstream_id`);--> statement-breakpoint
CREATE INDEX `payments_sync_idx` ON `payments` (`sync_status`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_upstream_unique_idx` ON `payments` (`workspace_id`,`upstream_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_idempotency_idx` ON `payments` (`workspace_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `payments_subscription_idx` ON `payments` (`subscription_id`,`created_at`);--> statement-breakpoint
DROP INDEX `refunds_charge_idx`;--> statement-breakpoint
CREATE INDEX `refunds_payment_idx` ON `refunds` (`payment_id`,`created_at`);