// Read-after-write through the gateway: when a compatibility route's write answers with a payment
// (create, update, restore, an undone cash receipt, a lean or installment create…) or a payment deletion, Ponte's record is
// brought in line in the same request — adopted when new (origin `gateway`), updated through the
// transition table when known — so `GET /api/v1/payments` never shows a stale copy.
import { tenantOf, type Principal } from "../../access/principal";
import type { CatalogueOperation } from "../../compat/catalogue";
import type { Deps } from "../../deps";
import { adoptUpstreamPayment, applyUpstreamDeletion, isUpstreamPayment } from "./adoption";
import { restorePayment, undoReceivedInCash } from "./lifecycle";
import { logLine, summarizeError } from "../../lib/log";

const isPaymentDeletion = (op: CatalogueOperation, data: unknown): data is { id: string; deleted: true } =>
  op.method === "DELETE" &&
  /^\/v3\/(lean\/)?payments\//.test(op.upstreamPath) &&
  typeof data === "object" &&
  data !== null &&
  (data as { deleted?: unknown }).deleted === true &&
  typeof (data as { id?: unknown }).id === "string";

export async function syncNativeRecords(deps: Deps, principal: Principal, op: CatalogueOperation, data: unknown): Promise<void> {
  if (op.method === "GET") return;
  const tenant = tenantOf(principal);
  try {
    if (isUpstreamPayment(data)) {
      const row = await adoptUpstreamPayment(deps, tenant, data, "gateway");
      if (row && op.upstreamPath.endsWith("/restore")) await restorePayment(deps, row, data);
      if (row && op.upstreamPath.endsWith("/undoReceivedInCash")) await undoReceivedInCash(deps, row, data);
    } else if (isPaymentDeletion(op, data)) {
      await applyUpstreamDeletion(deps, tenant, data.id);
    }
  } catch (err) {
    // The upstream did act: the merchant gets its answer, and the webhook or the reconciler catches Ponte up.
    logLine("warn", "passthrough sync deferred", { operationId: op.operationId, error: summarizeError(err) });
  }
}
