CREATE INDEX `login_failures_failed_at_idx` ON `login_failures` (`failed_at`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);