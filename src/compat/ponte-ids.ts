// Upstream id → Ponte UUID, the reverse of src/compat/native-ids.ts: which of a set of upstream ids name
// this tenant's customers, payments, subscriptions or installment plans. One lookup per answer, split
// under D1's parameter limit (src/db/in-list.ts). When the unified id module (src/compat/upstream-ids.ts,
// branch ids-d1) lands, this is the one function to point at its reverse lookup.
import { and, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { customers, installments, payments, subscriptions } from "../db/schema";
import { selectInList } from "../db/in-list";
import { inTenant } from "../db/tenant-scope";
import type { Tenant } from "../lib/tenant";
import type { PonteIds } from "./bearer-vocabulary";

type Held = typeof customers | typeof payments | typeof subscriptions | typeof installments;

/** The Ponte UUID of each upstream id that names a record of this tenant; none queried for an empty set. */
export async function ponteIdsOf(deps: Deps, tenant: Tenant, upstreamIds: readonly string[]): Promise<PonteIds> {
  if (upstreamIds.length === 0) return new Map();
  const rows = await selectInList(deps.db, upstreamIds, (part) => {
    const branch = (table: Held) =>
      deps.db
        .select({ id: table.id, upstreamId: table.upstreamId })
        .from(table)
        .where(and(inTenant(table, tenant), inArray(table.upstreamId, part)));
    return branch(customers).unionAll(branch(payments)).unionAll(branch(subscriptions)).unionAll(branch(installments));
  });
  return new Map(rows.flatMap((r) => (r.upstreamId ? [[r.upstreamId, r.id] as const] : [])));
}
