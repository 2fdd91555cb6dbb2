// Read-after-write through the gateway, for subscriptions: a compatibility write that answers with a
// subscription (`PUT /subscriptions/{id}`, `PUT /subscriptions/{id}/creditCard`, a create through
// another route) or a subscription deletion brings Ponte's record in line in the same request —
// adopted when new (origin `gateway`), updated with `subscription.updated` when known.
import { tenantOf, type Principal } from "../../access/principal";
import type { CatalogueOperation } from "../../compat/catalogue";
import type { Deps } from "../../deps";
import { adoptUpstreamSubscription, findSubscriptionByUpstreamId, isUpstreamSubscription } from "./adoption";
import { markSubscriptionCanceled } from "./service";
import { logLine, summarizeError } from "../../lib/log";

const isSubscriptionDeletion = (op: CatalogueOperation, data: unknown): data is { id: string; deleted: true } =>
  op.method === "DELETE" &&
  /^\/v3\/subscriptions\/\{[^}]+\}$/.test(op.upstreamPath) &&
  typeof data === "object" &&
  data !== null &&
  (data as { deleted?: unknown }).deleted === true &&
  typeof (data as { id?: unknown }).id === "string";

export async function syncSubscriptionRecords(deps: Deps, principal: Principal, op: CatalogueOperation, data: unknown): Promise<void> {
  if (op.method === "GET") return;
  const tenant = tenantOf(principal);
  try {
    if (isUpstreamSubscription(data)) {
      await adoptUpstreamSubscription(deps, tenant, data, "gateway");
    } else if (isSubscriptionDeletion(op, data)) {
      const known = await findSubscriptionByUpstreamId(deps, tenant, data.id);
      if (known) await markSubscriptionCanceled(deps, known);
    }
  } catch (err) {
    // The upstream did act: the merchant gets its answer, and the webhook or the reconciler catches Ponte up.
    logLine("warn", "passthrough subscription sync deferred", { operationId: op.operationId, error: summarizeError(err) });
  }
}
