// The Asaas dialect, request side once the caller is known: what needs the tenant's records.
// - Native routes take Ponte UUIDs: an upstream id (`cus_…`, `pay_…`, `sub_…`) in the path, in the
//   list filters `customer`/`subscription`/`installment` or in a create body's `customer` becomes the
//   Ponte id it names (unknown ids are left as sent: the route answers 404/400 as for any id).
// - Passthrough routes need nothing here: every forwarded call, in either dialect, has its Ponte UUIDs
//   (path, query, JSON body) translated once, in src/compat/upstream-ids.ts.
// - Asaas's payment create sends `value` with `installmentCount` for the total; Ponte takes `totalValue`.
// - Asaas has no plans: a subscription created with value + cycle and no `plan` goes as it is; the
//   subscription create finds or makes its plan after the guard (src/modules/subscriptions/implied-plan.ts).
import type { Principal } from "../../access/principal";
import type { Deps } from "../../deps";
import type { CatalogueOperation } from "../catalogue";
import { looksUpstream, nativeIdsOf } from "../upstream-ids";

type Obj = Record<string, unknown>;

/** Native routes outside the catalogue that take a record id (the product-level `/pix`, `/cancel`, `PATCH`). */
const INTERNAL_NATIVE = /^\/api\/v1\/(?:payments\/[^/]+\/(?:pix|cancel)|subscriptions\/[^/]+(?:\/cancel)?|payment-methods\/[^/]+)\/?$/;
const LIST_FILTERS = ["customer", "subscription", "installment"] as const;
/** Asaas's installment ids are UUIDs of its own: any `installment` filter is looked up among the plans' upstream ids. */
const filterNeedsLookup = (name: (typeof LIST_FILTERS)[number], value: string | null) =>
  !!value && (name === "installment" || looksUpstream(value));

export interface PendingRequest {
  method: string;
  url: URL;
  /** The matched catalogue operation, if any. */
  op: CatalogueOperation | null;
  /** The JSON body, parsed (null when none or not JSON). */
  body: Obj | null;
}

/** Does this request carry anything the tenant's records must translate? (Checked before authenticating for it.) */
export function needsTenant(req: PendingRequest): boolean {
  const native = req.op ? req.op.kind === "native" : INTERNAL_NATIVE.test(req.url.pathname);
  if (!native) return false;
  if (req.url.pathname.split("/").some(looksUpstream)) return true;
  if (LIST_FILTERS.some((f) => filterNeedsLookup(f, req.url.searchParams.get(f)))) return true;
  if (req.body && typeof req.body.customer === "string" && looksUpstream(req.body.customer)) return true;
  return false;
}

/** Asaas's `value` + `installmentCount` (no installmentValue/totalValue) is the plan's total: Ponte's `totalValue`. */
export function installmentBody(body: Obj): Obj {
  if (body.installmentCount === undefined || body.installmentCount === null || body.value === undefined) return body;
  const { value, ...rest } = body;
  if (rest.installmentValue !== undefined || rest.totalValue !== undefined) return rest;
  return { ...rest, totalValue: value };
}

/** The request rewritten with the tenant's ids, or null when nothing changed. */
export async function rewriteForTenant(
  deps: Deps,
  principal: Principal,
  req: PendingRequest,
): Promise<{ url: URL; body: Obj | null } | null> {
  const url = new URL(req.url);
  let body = req.body;
  if (req.op?.kind === "passthrough") return null;
  const segments = url.pathname.split("/");
  const filters = LIST_FILTERS.map((f) => url.searchParams.get(f) ?? "").filter((v, i) =>
    filterNeedsLookup(LIST_FILTERS[i] as (typeof LIST_FILTERS)[number], v),
  );
  const wanted = [
    ...segments.filter(looksUpstream),
    ...filters,
    typeof body?.customer === "string" && looksUpstream(body.customer) ? body.customer : "",
  ];
  const native = await nativeIdsOf(deps, principal, wanted);
  url.pathname = segments.map((s) => native.get(s) ?? s).join("/");
  for (const f of LIST_FILTERS) {
    const v = url.searchParams.get(f);
    if (v && native.has(v)) url.searchParams.set(f, native.get(v) as string);
  }
  if (body && typeof body.customer === "string" && native.has(body.customer)) body = { ...body, customer: native.get(body.customer) };
  return { url, body };
}
