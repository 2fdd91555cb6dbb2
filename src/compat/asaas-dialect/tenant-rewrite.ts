// The Asaas dialect, request side once the caller is known: what needs the tenant's records.
// - Native routes take Ponte UUIDs: an upstream id (`cus_…`, `pay_…`, `sub_…`) in the path, in the
//   list filters `customer`/`subscription`/`installment` or in a create body's `customer` becomes the
//   Ponte id it names (unknown ids are left as sent: the route answers 404/400 as for any id).
// - Passthrough routes need nothing here: every forwarded call, in either dialect, has its Ponte UUIDs
//   (path, query, JSON body) translated once, in src/compat/upstream-ids.ts.
// - Asaas's payment create sends `value` with `installmentCount` for the total; Ponte takes `totalValue`.
// - Asaas has no plans: a subscription created with value + cycle and no `plan` gets one (see asaasPlanFor).
import { and, eq } from "drizzle-orm";
import type { Principal } from "../../access/principal";
import type { Deps } from "../../deps";
import { plans } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import { newId } from "../../lib/ids";
import { parseMoney } from "../../lib/money";
import { CYCLES } from "../../billing/schemas";
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
  if (req.body && req.op?.operationId === "criar-nova-assinatura" && req.body.plan === undefined) return true;
  return false;
}

/** Asaas's `value` + `installmentCount` (no installmentValue/totalValue) is the plan's total: Ponte's `totalValue`. */
export function installmentBody(body: Obj): Obj {
  if (body.installmentCount === undefined || body.installmentCount === null || body.value === undefined) return body;
  const { value, ...rest } = body;
  if (rest.installmentValue !== undefined || rest.totalValue !== undefined) return rest;
  return { ...rest, totalValue: value };
}

/**
 * Asaas has no plans: a subscription is value + cycle (+ billing type). Ponte's subscriptions start
 * from a plan, so the dialect finds or makes one active plan per (value, cycle, billing type), named
 * `Asaas <cycle> <value>`; every such subscription shares it. Null when the body cannot make one (the
 * route then names what is missing).
 */
async function asaasPlanFor(deps: Deps, principal: Principal, body: Obj): Promise<string | null> {
  if (!principal.permissions.has("subscriptions.manage")) return null;
  const money = parseMoney(body.value);
  const cycle = body.cycle;
  if (!money.ok || money.cents <= 0 || typeof cycle !== "string" || !(CYCLES as readonly string[]).includes(cycle)) return null;
  const billingType = ["PIX", "BOLETO", "CREDIT_CARD", "UNDEFINED"].includes(String(body.billingType))
    ? (body.billingType as "PIX" | "BOLETO" | "CREDIT_CARD" | "UNDEFINED")
    : null;
  const name = `Asaas ${cycle} ${(money.cents / 100).toFixed(2)}${billingType ? ` ${billingType}` : ""}`;
  const existing = await deps.db
    .select({ id: plans.id })
    .from(plans)
    .where(and(inTenant(plans, principal), eq(plans.name, name), eq(plans.status, "active")))
    .get();
  if (existing) return existing.id;
  const now = deps.now().toISOString();
  const id = newId();
  await deps.db.insert(plans).values({
    id,
    organizationId: principal.organizationId,
    workspaceId: principal.workspaceId,
    name,
    description: "Made by the Asaas dialect for subscriptions created without a plan (value + cycle).",
    valueCents: money.cents,
    cycle: cycle as (typeof CYCLES)[number],
    billingType,
    status: "active",
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

/** The request rewritten with the tenant's ids (and plan), or null when nothing changed. */
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
  if (body && req.op?.operationId === "criar-nova-assinatura" && body.plan === undefined) {
    const plan = await asaasPlanFor(deps, principal, body);
    if (plan) body = { ...body, plan };
  }
  return { url, body };
}
