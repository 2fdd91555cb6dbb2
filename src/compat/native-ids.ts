// Native id translation: a merchant may name a Ponte record (customer, payment, subscription) by its
// UUID on any compatibility path; the upstream knows that record by its own id (`upstream_id`).
import { and, inArray, isNotNull } from "drizzle-orm";
import type { Deps } from "../deps";
import { isUuid } from "../lib/ids";
import { payments, customers, subscriptions } from "../db/schema";
import { selectInList } from "../db/in-list";
import { inTenant } from "../db/tenant-scope";
import type { Tenant } from "../lib/tenant";

/**
 * Maps each value that is the UUID of this tenant's customer, payment or subscription (already
 * synced) to its upstream id. Anything else — upstream ids such as `pay_…`, unknown UUIDs, another
 * tenant's UUIDs, records not yet synced — is returned unchanged. One query, and none at all when
 * no value is a UUID.
 */
export async function translateNativeIds<T extends Record<string, string>>(deps: Deps, tenant: Tenant, values: T): Promise<T> {
  const uuids = [
    ...new Set(
      Object.values(values)
        .filter(isUuid)
        .map((v) => v.toLowerCase()),
    ),
  ];
  if (uuids.length === 0) return values;
  const rows = await selectInList(deps.db, uuids, (part) => {
    const lookup = (table: typeof customers | typeof payments | typeof subscriptions) =>
      deps.db
        .select({ id: table.id, upstreamId: table.upstreamId })
        .from(table)
        .where(and(inTenant(table, tenant), inArray(table.id, part), isNotNull(table.upstreamId)));
    return lookup(customers).unionAll(lookup(payments)).unionAll(lookup(subscriptions));
  });
  if (rows.length === 0) return values;
  const upstreamOf = new Map(rows.map((r) => [r.id, r.upstreamId as string]));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) out[name] = upstreamOf.get(value.toLowerCase()) ?? value;
  return out as T;
}

/** One value: its upstream id when it names this tenant's synced native record, else itself. */
export async function translateNativeId(deps: Deps, tenant: Tenant, value: string): Promise<string> {
  return (await translateNativeIds(deps, tenant, { value })).value;
}
