CREATE INDEX `metric_daily_party_idx` ON `metric_daily` (`organization_id`,`workspace_id`,`day`,`metric`,`value`) WHERE substr(metric, 1, 6) = 'party.';--> statement-breakpoint
-- Back-fill the revenue-by-party rollups (src/events/metric-contributions.ts partyContributions) from the charges:
-- a charge paid (CONFIRMED, RECEIVED, RECEIVED_IN_CASH, REFUNDED), known upstream, with a payment date counts its
-- value (party.received.*) and value − net value (party.payment_fees.*) on its payment date, by customer and by its
-- subscription's plan. The payment date is a local date, the same in every time zone, so SQL computes it exactly.
-- `value = excluded.value`: the back-fill is the whole truth for these rows, whichever ran first (this or a write).
INSERT INTO `metric_daily` (`organization_id`, `workspace_id`, `day`, `metric`, `value`)
SELECT `organization_id`, `workspace_id`, `day`, `metric`, `value` FROM (
  SELECT p.`organization_id`, p.`workspace_id`, p.`payment_date` AS `day`, 'party.received.customer.' || p.`customer_id` AS `metric`,
    sum(p.`value_cents`) AS `value`
  FROM `payments` p
  WHERE p.`upstream_id` IS NOT NULL AND p.`status` IN ('CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH', 'REFUNDED') AND p.`payment_date` IS NOT NULL
  GROUP BY p.`workspace_id`, p.`customer_id`, p.`payment_date`
  UNION ALL
  SELECT p.`organization_id`, p.`workspace_id`, p.`payment_date`, 'party.payment_fees.customer.' || p.`customer_id`,
    sum(CASE WHEN p.`net_value_cents` IS NULL THEN 0 ELSE p.`value_cents` - p.`net_value_cents` END)
  FROM `payments` p
  WHERE p.`upstream_id` IS NOT NULL AND p.`status` IN ('CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH', 'REFUNDED') AND p.`payment_date` IS NOT NULL
  GROUP BY p.`workspace_id`, p.`customer_id`, p.`payment_date`
  UNION ALL
  SELECT p.`organization_id`, p.`workspace_id`, p.`payment_date`, 'party.received.plan.' || s.`plan_id`, sum(p.`value_cents`)
  FROM `payments` p JOIN `subscriptions` s ON s.`id` = p.`subscription_id`
  WHERE p.`upstream_id` IS NOT NULL AND p.`status` IN ('CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH', 'REFUNDED') AND p.`payment_date` IS NOT NULL
    AND s.`plan_id` IS NOT NULL
  GROUP BY p.`workspace_id`, s.`plan_id`, p.`payment_date`
  UNION ALL
  SELECT p.`organization_id`, p.`workspace_id`, p.`payment_date`, 'party.payment_fees.plan.' || s.`plan_id`,
    sum(CASE WHEN p.`net_value_cents` IS NULL THEN 0 ELSE p.`value_cents` - p.`net_value_cents` END)
  FROM `payments` p JOIN `subscriptions` s ON s.`id` = p.`subscription_id`
  WHERE p.`upstream_id` IS NOT NULL AND p.`status` IN ('CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH', 'REFUNDED') AND p.`payment_date` IS NOT NULL
    AND s.`plan_id` IS NOT NULL
  GROUP BY p.`workspace_id`, s.`plan_id`, p.`payment_date`
) WHERE `value` <> 0
ON CONFLICT (`workspace_id`, `metric`, `day`) DO UPDATE SET `value` = excluded.`value`;
