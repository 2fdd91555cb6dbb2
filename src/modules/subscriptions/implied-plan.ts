// A subscription created without a plan (the Asaas dialect's value + cycle, or a Bearer call doing
// the same) starts from an implied plan, as Stripe makes a price inline with the subscription: one
// active plan per (cycle, value, billing type), named `Asaas <cycle> <value>[ <billing type>]` (the
// name plans made before keep, so they are found again), shared by every such subscription. It needs
// only `subscriptions.manage`, like the subscription. Found or built here, never written here: the
// subscription create writes it in the same batch as the subscription, after every check, and removes
// it again when the upstream refuses the subscription.
import { and, eq } from "drizzle-orm";
import { type CYCLES, centsOf } from "../../billing/schemas";
import { plans } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { ApiError } from "../../http/errors";
import { newId } from "../../lib/ids";
import type { Tenant } from "../../lib/tenant";
import type { PlanRow } from "../plans/service";

type BillingType = "PIX" | "BOLETO" | "CREDIT_CARD" | "UNDEFINED";

/** The plan to start from and, when it is new, the row to insert with the subscription. */
export async function impliedPlan(
  deps: Deps,
  tenant: Tenant,
  input: { value?: string | number | undefined; cycle?: (typeof CYCLES)[number] | undefined; billingType?: BillingType | undefined },
): Promise<{ plan: PlanRow; isNew: boolean }> {
  if (input.value === undefined || input.cycle === undefined) {
    const missing = [input.value === undefined ? "body.value" : null, input.cycle === undefined ? "body.cycle" : null].filter(
      (p): p is string => p !== null,
    );
    throw new ApiError("VALIDATION_FAILED", `Without a plan, a subscription needs ${missing.join(" and ")}.`, {
      fields: missing.map((path) => ({ path, message: "required when body.plan is omitted", code: "invalid_type" })),
    });
  }
  const cents = centsOf(input.value);
  const billingType = input.billingType ?? null;
  const name = `Asaas ${input.cycle} ${(cents / 100).toFixed(2)}${billingType ? ` ${billingType}` : ""}`;
  const existing = await deps.db
    .select()
    .from(plans)
    .where(and(inTenant(plans, tenant), eq(plans.name, name), eq(plans.status, "active")))
    .get();
  if (existing) return { plan: existing, isNew: false };
  const now = deps.now().toISOString();
  const plan: PlanRow = {
    id: newId(),
    organizationId: tenant.organizationId,
    workspaceId: tenant.workspaceId,
    name,
    description: "Made for subscriptions created without a plan (value + cycle).",
    valueCents: cents,
    cycle: input.cycle,
    billingType,
    status: "active",
    createdAt: now,
    updatedAt: now,
  };
  return { plan, isNew: true };
}
