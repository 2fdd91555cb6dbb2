// Adoption of subscriptions: one the upstream reports that Ponte has no record of (made in the
// upstream's panel, by a payment link or checkout, or through a compatibility route) becomes a Ponte
// subscription without a plan, with its customer adopted as payments do. One path for every source —
// a passthrough answer (origin `gateway`), an inbound webhook or the reconciler (origin `upstream`) —
// deduplicated by the upstream id's unique index, so two sources racing make one record and one
// `subscription.created`. A known record follows the upstream's latest answer (`subscription.updated`);
// CANCELED is final (a late webhook never reopens it).
import { and, eq, ne } from "drizzle-orm";
import { BILLING_TYPES } from "../../billing/schemas";
import { credentialsFor, upstreamJson } from "../../billing/upstream";
import { changedRows } from "../../db/guarded-insert";
import { ORIGINS, subscriptions } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { dispatchEvents, recordEventIfChanged } from "../../events/outbox";
import { newId } from "../../lib/ids";
import { fromUpstreamAmount } from "../../lib/money";
import { tenantOf, type Tenant } from "../../lib/tenant";
import { adoptUpstreamCustomer, type Origin } from "../payments/adoption";
import { markSubscriptionCanceled, presentSubscription, type SubscriptionRow } from "./service";

/** The upstream's subscription object, as far as Ponte keeps it. */
export interface UpstreamSubscription {
  object: "subscription";
  id: string;
  customer: string;
  billingType?: string | null;
  cycle?: string | null;
  value?: number | null;
  nextDueDate?: string | null;
  description?: string | null;
  externalReference?: string | null;
  status?: string | null;
  deleted?: boolean | null;
}

const CYCLES = ["WEEKLY", "BIWEEKLY", "MONTHLY", "BIMONTHLY", "QUARTERLY", "SEMIANNUALLY", "YEARLY"];
const OPEN_STATUSES = ["ACTIVE", "INACTIVE", "EXPIRED"] as const;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a JSON value is an upstream subscription object (what subscription creates, reads and updates answer). */
export function isUpstreamSubscription(value: unknown): value is UpstreamSubscription {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.object === "subscription" && typeof v.id === "string" && typeof v.customer === "string";
}

export async function findSubscriptionByUpstreamId(deps: Deps, tenant: Tenant, upstreamId: string): Promise<SubscriptionRow | undefined> {
  return deps.db
    .select()
    .from(subscriptions)
    .where(and(inTenant(subscriptions, tenant), eq(subscriptions.upstreamId, upstreamId)))
    .get();
}

/** The terms the upstream's answer states, each only when present and well-formed (an absent field keeps Ponte's). */
function termsOf(sub: UpstreamSubscription): Partial<SubscriptionRow> {
  const terms: Partial<SubscriptionRow> = {};
  const billingType = BILLING_TYPES.find((t) => t === sub.billingType);
  if (billingType) terms.billingType = billingType;
  if (typeof sub.value === "number" && Number.isFinite(sub.value) && sub.value >= 0) terms.valueCents = fromUpstreamAmount(sub.value);
  if (typeof sub.cycle === "string" && CYCLES.includes(sub.cycle)) terms.cycle = sub.cycle;
  if (typeof sub.nextDueDate === "string" && DAY_RE.test(sub.nextDueDate)) terms.nextDueDate = sub.nextDueDate;
  if (sub.description !== undefined) terms.description = sub.description ?? null;
  const status = OPEN_STATUSES.find((s) => s === sub.status);
  if (status) terms.status = status;
  return terms;
}

/**
 * A known subscription brought in line with the upstream's answer: changed terms (value, cycle, due
 * date, billing type, description, ACTIVE/INACTIVE/EXPIRED) are written with `subscription.updated`
 * (its metric facts move MRR and active counts); a deletion cancels it. CANCELED is never left.
 */
export async function applyUpstreamSubscription(deps: Deps, row: SubscriptionRow, sub: UpstreamSubscription): Promise<SubscriptionRow> {
  if (row.status === "CANCELED") return row;
  if (sub.deleted === true) return markSubscriptionCanceled(deps, row);
  const terms = termsOf(sub);
  // Ponte's own subscriptions carry Ponte's id upstream as externalReference; only adopted ones take the upstream's.
  if (row.origin !== "api" && sub.externalReference !== undefined) terms.externalReference = sub.externalReference ?? null;
  const changed = (Object.keys(terms) as (keyof SubscriptionRow)[]).filter((k) => terms[k] !== row[k]);
  if (changed.length === 0) return row;
  const updatedAt = deps.now().toISOString();
  const next: SubscriptionRow = { ...row, ...terms, updatedAt };
  const facts = { subscription: { before: row, after: next } };
  const { event, statement, rollups } = recordEventIfChanged(deps, row, "subscription.updated", presentSubscription(next), facts);
  // Guarded on the version read: a concurrent change makes this one a no-op (no second event), and the next sync applies.
  const [result] = await deps.db.batch([
    deps.db
      .update(subscriptions)
      .set({ ...terms, updatedAt })
      .where(and(eq(subscriptions.id, row.id), eq(subscriptions.updatedAt, row.updatedAt), ne(subscriptions.status, "CANCELED"))),
    statement,
    ...rollups,
  ]);
  if (changedRows(result) > 0) {
    dispatchEvents(deps, [event]);
    return next;
  }
  return row;
}

/**
 * The Ponte subscription for an upstream subscription: the existing one brought up to date, or a new
 * one without a plan (with `subscription.created`, then a cancel if the upstream already deleted it).
 */
export async function adoptUpstreamSubscription(
  deps: Deps,
  tenant: Tenant,
  sub: UpstreamSubscription,
  origin: Origin,
): Promise<SubscriptionRow | null> {
  const known = await findSubscriptionByUpstreamId(deps, tenant, sub.id);
  if (known) {
    // The most specific source names the record, even when its webhook came first: api > gateway > upstream.
    if (ORIGINS.indexOf(origin) < ORIGINS.indexOf(known.origin)) {
      await deps.db.update(subscriptions).set({ origin }).where(eq(subscriptions.id, known.id));
      known.origin = origin;
    }
    return applyUpstreamSubscription(deps, known, sub);
  }
  const customer = await adoptUpstreamCustomer(deps, tenant, sub.customer, origin);
  if (!customer) return null;
  const now = deps.now().toISOString();
  const terms = termsOf(sub);
  const row: SubscriptionRow = {
    id: newId(),
    ...tenantOf(tenant),
    upstreamId: sub.id,
    syncStatus: "synced",
    planId: null,
    customerId: customer.id,
    billingType: terms.billingType ?? "UNDEFINED",
    valueCents: terms.valueCents ?? 0,
    cycle: terms.cycle ?? "MONTHLY",
    nextDueDate: terms.nextDueDate ?? now.slice(0, 10),
    status: terms.status ?? "ACTIVE",
    description: terms.description ?? null,
    externalReference: sub.externalReference ?? null,
    canceledAt: null,
    origin,
    createdAt: now,
    updatedAt: now,
  };
  const facts = { subscription: { before: null, after: row } };
  const { event, statement, rollups } = recordEventIfChanged(deps, tenant, "subscription.created", presentSubscription(row), facts);
  const [inserted] = await deps.db.batch([deps.db.insert(subscriptions).values(row).onConflictDoNothing(), statement, ...rollups]);
  if (changedRows(inserted) > 0) dispatchEvents(deps, [event]);
  const stored = await findSubscriptionByUpstreamId(deps, tenant, sub.id);
  return stored ? applyUpstreamSubscription(deps, stored, sub) : null;
}

/** The Ponte subscription for an upstream subscription id: found, or fetched from the upstream and adopted. */
export async function adoptUpstreamSubscriptionById(
  deps: Deps,
  tenant: Tenant,
  upstreamId: string,
  origin: Origin,
): Promise<SubscriptionRow | null> {
  const known = await findSubscriptionByUpstreamId(deps, tenant, upstreamId);
  if (known) return known;
  const upstream = await upstreamJson<unknown>(deps, await credentialsFor(deps, tenant), {
    flow: "adopt-subscription",
    method: "GET",
    path: `/v3/subscriptions/${encodeURIComponent(upstreamId)}`,
  });
  return isUpstreamSubscription(upstream) ? adoptUpstreamSubscription(deps, tenant, upstream, origin) : null;
}
