// The one id translator between Ponte and the upstream, in this tenant. Ponte names its records
// (customers, payments, subscriptions, installment plans: every table with an `upstream_id`) by UUIDs;
// the upstream knows them by its own ids (`cus_…`, `pay_…`, `sub_…`, an installment plan's UUID).
// - Forwarded calls (passthrough, both dialects): a UUID of this tenant's synced record in the path,
//   the query string or the JSON body (at any depth) becomes its upstream id, in one lookup. Unknown
//   UUIDs and other tenants' are not found, so they go as sent.
// - The Asaas dialect also reads both ways: upstream id → Ponte UUID for its requests to native routes,
//   Ponte UUID → upstream id for its answers.
// Every lookup is one statement per ≤100 bound parameters through src/db/in-list.ts.
import { and, inArray, isNotNull, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { selectInList } from "../db/in-list";
import { customers, installments, payments, subscriptions } from "../db/schema";
import { inTenant, inTenantById } from "../db/tenant-scope";
import { isUuid } from "../lib/ids";
import type { Tenant } from "../lib/tenant";

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
        .where(and(inTenantById(table, tenant), inArray(table.id, part), isNotNull(table.upstreamId)));
    const paymentLookup = deps.db
      .select({ id: payments.id, upstreamId: payments.upstreamId, cardToken: payments.cardToken, netValueCents: payments.netValueCents })
      .from(payments)
      .where(and(inTenantById(payments, tenant), inArray(payments.id, part), isNotNull(payments.upstreamId)));
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

/** What a forwarded call names: its path parameters, its raw query string, its body (JSON or not). */
export interface ForwardedIds {
  params: Record<string, string>;
  /** Raw, without `?`. */
  query: string;
  body: ArrayBuffer | null;
  contentType: string | null;
}

/**
 * A JSON string whose whole content is a UUID: `"…"`, not after a backslash (inside another string),
 * and not an object key (followed by `:`), which stays as sent.
 */
const JSON_UUID_STRING = /(?<!\\)"([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})"(?!\s*:)/g;

const isJson = (contentType: string | null) => /^application\/(?:[\w.+-]*\+)?json\b/i.test((contentType ?? "").trim());

function queryPairs(query: string): { name: string; value: string; raw: string }[] {
  return query.split("&").map((raw) => {
    const eq = raw.indexOf("=");
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, " "));
      } catch {
        return s;
      }
    };
    return eq < 0 ? { name: raw, value: "", raw } : { name: raw.slice(0, eq), value: decode(raw.slice(eq + 1)), raw };
  });
}

/**
 * The call with every UUID of this tenant's synced records replaced by its upstream id: path
 * parameters, query values (`customer=<uuid>`, the rest of the query byte for byte) and JSON body
 * strings at any depth (the rest of the body byte for byte: numbers are never re-serialised). One
 * lookup, none when nothing names a UUID; a multipart body goes as sent.
 */
export async function translateForwarded(deps: Deps, tenant: Tenant, call: ForwardedIds): Promise<ForwardedIds> {
  const pairs = call.query ? queryPairs(call.query) : [];
  const text = call.body && isJson(call.contentType) ? new TextDecoder().decode(call.body) : null;
  const named = [
    ...Object.values(call.params),
    ...pairs.map((p) => p.value),
    ...(text === null ? [] : [...text.matchAll(JSON_UUID_STRING)].map((m) => m[1] as string)),
  ].filter(isUuid);
  if (named.length === 0) return call;
  const refs = await upstreamRefsOf(deps, tenant, named);
  if (refs.size === 0) return call;
  const upstreamOf = (value: string) => (isUuid(value) ? refs.get(value.toLowerCase())?.upstreamId : undefined);
  const params = Object.fromEntries(Object.entries(call.params).map(([name, value]) => [name, upstreamOf(value) ?? value]));
  const query = pairs
    .map((p) => {
      const upstream = upstreamOf(p.value);
      return upstream === undefined ? p.raw : `${p.name}=${encodeURIComponent(upstream)}`;
    })
    .join("&");
  let body = call.body;
  if (text !== null) {
    const translated = text.replace(JSON_UUID_STRING, (whole, uuid: string) => {
      const upstream = upstreamOf(uuid);
      return upstream === undefined ? whole : JSON.stringify(upstream);
    });
    if (translated !== text) body = new TextEncoder().encode(translated).buffer as ArrayBuffer;
  }
  return { ...call, params, query, body };
}
