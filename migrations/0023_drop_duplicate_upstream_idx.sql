DROP INDEX `customers_upstream_idx`;--> statement-breakpoint
DROP INDEX `payments_upstream_idx`;--> statement-breakpoint
DROP INDEX `subscriptions_upstream_idx`;