// The Asaas dialect's id lookups, both ways, in this tenant: an Asaas client names records by the
// upstream's ids (`cus_…`, `pay_…`, `sub_…`); Ponte's native routes take Ponte's UUIDs. One query
// per direction per request, none when there is nothing to translate.
import { and, inArray, isNotNull, sql } from "drizzle-orm";
import type { Deps } from "../../deps";
import { customers, installments, payments, subscriptions } from "../../db/schema";
import { selectInList } from "../../db/in-list";
import { inTenant } from "../../db/tenant-scope";
import { isUuid } from "../../lib/ids";
import type { Tenant } from "../../lib/tenant";

/** What the upstream knows a Ponte record by, and a payment's saved card token (Asaas answers it on a card charge). */
export interface UpstreamRef {
  upstreamId: string;
  cardToken: string | null;
  netValueCents: number | null;
}

/** Ponte UUID → upstream id (and card token) for this tenant's synced customers, payments, subscriptions and installment plans. */
export async function upstreamRefsOf(deps: Deps, tenant: Tenant, ids: Iterable<string>): Promise<Map<string, UpstreamRef>> {
  const uuids = [...new Set([...ids].filter(isUuid).map((v) => v.toLowerCase()))];
  const out = new Map<string, UpstreamRef>();
  if (uuids.length === 0) return out;
  const rows = await selectInList(deps.db, uuids, (part) => {
    const lookup = (table: typeof customers | typeof subscriptions | typeof installments) =>
      deps.db
        .select({
          id: table.id,
          upstreamId: table.upstreamId,
          cardToken: sql<string | null>`NULL`,
          netValueCents: sql<number | null>`NULL`,
        })
        .from(table)
        .where(and(inTenant(table, tenant), inArray(table.id, part), isNotNull(table.upstreamId)));
    const paymentLookup = deps.db
      .select({ id: payments.id, upstreamId: payments.upstreamId, cardToken: payments.cardToken, netValueCents: payments.netValueCents })
      .from(payments)
      .where(and(inTenant(payments, tenant), inArray(payments.id, part), isNotNull(payments.upstreamId)));
    return lookup(customers).unionAll(lookup(subscriptions)).unionAll(lookup(installments)).unionAll(paymentLookup);
  });
  for (const r of rows)
    if (r.upstreamId) out.set(r.id, { upstreamId: r.upstreamId, cardToken: r.cardToken, netValueCents: r.netValueCents });
  return out;
}

/** Upstream ids are `xxx_…` (`cus_`, `pay_`, `sub_`, `ins_`…) or, for installment plans, UUID-like. */
export const looksUpstream = (value: string) => /^[a-z]{3}_[A-Za-z0-9]+$/.test(value);

/** Upstream id → Ponte UUID for this tenant's customers, payments, subscriptions and installment plans. */
export async function nativeIdsOf(deps: Deps, tenant: Tenant, ids: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set([...ids].filter((v) => v.length > 0 && v.length <= 128))];
  const out = new Map<string, string>();
  if (wanted.length === 0) return out;
  const rows = await selectInList(deps.db, wanted, (part) => {
    const lookup = (table: typeof customers | typeof payments | typeof subscriptions | typeof installments) =>
      deps.db
        .select({ id: table.id, upstreamId: table.upstreamId })
        .from(table)
        .where(and(inTenant(table, tenant), inArray(table.upstreamId, part)));
    return lookup(customers).unionAll(lookup(payments)).unionAll(lookup(subscriptions)).unionAll(lookup(installments));
  });
  for (const r of rows) if (r.upstreamId) out.set(r.upstreamId, r.id);
  return out;
}
