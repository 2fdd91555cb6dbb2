// The one way to reach an organization's log store: its OrgLogDO, named by the organization id. Callers
// pass the organization of the authenticated principal (or of the stored row being logged), so another
// organization's store is never addressed.
import type { Env } from "../../config";

/** Most organizations an isolate remembers the store id of; past it the memo starts over. */
const REMEMBERED_IDS = 1_000;

/**
 * Each namespace's store ids by organization: `idFromName` hashes the name on every call (about 3 % of an
 * isolate's busy time under the passthrough load, where every flush of the gateway log addresses a store).
 */
const idsByNamespace = new WeakMap<Env["ORG_LOGS"], Map<string, DurableObjectId>>();

function storeId(namespace: Env["ORG_LOGS"], organizationId: string): DurableObjectId {
  let ids = idsByNamespace.get(namespace);
  if (!ids) {
    ids = new Map();
    idsByNamespace.set(namespace, ids);
  }
  let id = ids.get(organizationId);
  if (!id) {
    if (ids.size >= REMEMBERED_IDS) ids.clear();
    id = namespace.idFromName(organizationId);
    ids.set(organizationId, id);
  }
  return id;
}

export const orgLogs = (env: Pick<Env, "ORG_LOGS">, organizationId: string) => env.ORG_LOGS.get(storeId(env.ORG_LOGS, organizationId));
