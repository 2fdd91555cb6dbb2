// Points the upstream's webhook at Ponte's inbound endpoint for a gateway account, carrying the
// account's inbound token (the upstream sends it back in `asaas-access-token`), and removes it when
// the account goes. Best effort: the caller reports whether it worked; the merchant can retry by
// rotating the token (or, after a delete, remove the config in the upstream's dashboard).
import type { Deps } from "../deps";
import { ApiError } from "../http/errors";
import type { GatewayCredentials } from "./accounts";
import { callUpstream } from "./client";

/** The upstream's event names (its v3 webhook enum) Ponte subscribes to: every family it documents. */
export const UPSTREAM_WEBHOOK_EVENTS = [
  ...[
    "CREATED",
    "AWAITING_RISK_ANALYSIS",
    "APPROVED_BY_RISK_ANALYSIS",
    "REPROVED_BY_RISK_ANALYSIS",
    "AUTHORIZED",
    "UPDATED",
    "CONFIRMED",
    "RECEIVED",
    "CREDIT_CARD_CAPTURE_REFUSED",
    "ANTICIPATED",
    "OVERDUE",
    "DELETED",
    "RESTORED",
    "REFUNDED",
    "PARTIALLY_REFUNDED",
    "REFUND_IN_PROGRESS",
    "REFUND_DENIED",
    "RECEIVED_IN_CASH_UNDONE",
    "CHARGEBACK_REQUESTED",
    "CHARGEBACK_DISPUTE",
    "AWAITING_CHARGEBACK_REVERSAL",
    "DUNNING_RECEIVED",
    "DUNNING_REQUESTED",
    "BANK_SLIP_VIEWED",
    "BANK_SLIP_CANCELLED",
    "CHECKOUT_VIEWED",
    "SPLIT_CANCELLED",
    "SPLIT_DIVERGENCE_BLOCK",
    "SPLIT_DIVERGENCE_BLOCK_FINISHED",
  ].map((e) => `PAYMENT_${e}`),
  ...["CREATED", "UPDATED", "INACTIVATED", "DELETED", "SPLIT_DISABLED", "SPLIT_DIVERGENCE_BLOCK", "SPLIT_DIVERGENCE_BLOCK_FINISHED"].map(
    (e) => `SUBSCRIPTION_${e}`,
  ),
  ...["CREATED", "UPDATED", "SYNCHRONIZED", "AUTHORIZED", "PROCESSING_CANCELLATION", "CANCELED", "CANCELLATION_DENIED", "ERROR"].map(
    (e) => `INVOICE_${e}`,
  ),
  ...["CREATED", "PENDING", "IN_BANK_PROCESSING", "BLOCKED", "DONE", "FAILED", "CANCELLED"].map((e) => `TRANSFER_${e}`),
  ...["CREATED", "CANCELED", "EXPIRED", "PAID"].map((e) => `CHECKOUT_${e}`),
] as const;

export const WEBHOOK_CONFIG_NAME = "Ponte";

export interface WebhookConfigOutcome {
  configured: boolean;
  /** Why not, when it did not work (an error code, e.g. UPSTREAM_AUTH_FAILED). */
  errorCode?: string;
}

interface UpstreamWebhookList {
  data?: { id?: string; url?: string }[];
}

export interface WebhookRemovalOutcome {
  /** Whether no upstream webhook config points at the URL any more (true also when none did). */
  removed: boolean;
  errorCode?: string;
}

const failureCode = (status: number) =>
  status === 401 || status === 403 ? "UPSTREAM_AUTH_FAILED" : status === 400 ? "BAD_REQUEST" : "UPSTREAM_ERROR";

async function configsPointingAt(
  deps: Deps,
  credentials: GatewayCredentials,
  url: string,
): Promise<{ ids: string[] } | { errorCode: string }> {
  const existing = await callUpstream(deps, credentials, {
    operationId: "native:list-webhooks",
    method: "GET",
    path: "/v3/webhooks",
    query: "limit=100&offset=0",
  });
  if (existing.status !== 200) return { errorCode: failureCode(existing.status) };
  return {
    ids: ((existing.body as UpstreamWebhookList).data ?? []).flatMap((w) => (w.url === url && typeof w.id === "string" ? [w.id] : [])),
  };
}

/** Deletes every upstream webhook config pointing at `url` (a deleted account's inbound URL), so the upstream stops sending there. */
export async function removeUpstreamWebhook(deps: Deps, credentials: GatewayCredentials, url: string): Promise<WebhookRemovalOutcome> {
  try {
    const found = await configsPointingAt(deps, credentials, url);
    if ("errorCode" in found) return { removed: false, errorCode: found.errorCode };
    for (const id of found.ids) {
      const result = await callUpstream(deps, credentials, {
        operationId: "native:delete-webhook",
        method: "DELETE",
        path: `/v3/webhooks/${encodeURIComponent(id)}`,
      });
      if (result.status >= 300 && result.status !== 404) return { removed: false, errorCode: failureCode(result.status) };
    }
    return { removed: true };
  } catch (err) {
    return { removed: false, errorCode: err instanceof ApiError ? err.code : "UPSTREAM_ERROR" };
  }
}

/** Creates the upstream webhook config for `url`, or updates the one already pointing there (so rotation never piles up configs). */
export async function configureUpstreamWebhook(
  deps: Deps,
  credentials: GatewayCredentials,
  url: string,
  authToken: string,
): Promise<WebhookConfigOutcome> {
  const body = JSON.stringify({
    name: WEBHOOK_CONFIG_NAME,
    url,
    enabled: true,
    interrupted: false,
    apiVersion: 3,
    authToken,
    sendType: "SEQUENTIALLY",
    events: UPSTREAM_WEBHOOK_EVENTS,
  });
  try {
    const found = await configsPointingAt(deps, credentials, url);
    if ("errorCode" in found && found.errorCode === "UPSTREAM_AUTH_FAILED") return { configured: false, errorCode: found.errorCode };
    const matchId = "ids" in found ? found.ids[0] : undefined;
    const result = matchId
      ? await callUpstream(deps, credentials, {
          operationId: "native:update-webhook",
          method: "PUT",
          path: `/v3/webhooks/${encodeURIComponent(matchId)}`,
          body,
          contentType: "application/json",
        })
      : await callUpstream(deps, credentials, {
          operationId: "native:create-webhook",
          method: "POST",
          path: "/v3/webhooks",
          body,
          contentType: "application/json",
        });
    if (result.status >= 200 && result.status < 300) return { configured: true };
    return { configured: false, errorCode: failureCode(result.status) };
  } catch (err) {
    return { configured: false, errorCode: err instanceof ApiError ? err.code : "UPSTREAM_ERROR" };
  }
}
