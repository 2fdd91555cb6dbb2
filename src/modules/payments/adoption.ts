// Adoption: a payment the upstream reports that Ponte has no record of (made through a passthrough
// route, or outside Ponte) becomes a Ponte payment, with its customer. One path for every source —
// a passthrough answer (origin `gateway`), an inbound webhook or the reconciler (origin `upstream`) —
// deduplicated by the upstream id's unique index, so two sources racing make one record and one
// `payment.created`. After that the record follows the upstream through the transition table.
import { and, eq } from "drizzle-orm";
import { BILLING_TYPES } from "../../billing/schemas";
import { credentialsFor, upstreamJson } from "../../billing/upstream";
import { changedRows } from "../../db/guarded-insert";
import { customers, installments, ORIGINS, payments, subscriptions } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { dispatchEvents, recordEventIfChanged } from "../../events/outbox";
import { newId } from "../../lib/ids";
import { fromUpstreamAmount } from "../../lib/money";
import { tenantOf, type Tenant } from "../../lib/tenant";
import { applyUpstreamPayment, presentPayment, type PaymentRow, type UpstreamPayment } from "./lifecycle";

export type Origin = (typeof ORIGINS)[number];
type CustomerRow = typeof customers.$inferSelect;

/** The upstream's customer object, as far as Ponte keeps it. */
interface UpstreamCustomer {
  id: string;
  name?: string | null;
  cpfCnpj?: string | null;
  personType?: string | null;
  email?: string | null;
  phone?: string | null;
  mobilePhone?: string | null;
  address?: string | null;
  addressNumber?: string | null;
  complement?: string | null;
  province?: string | null;
  postalCode?: string | null;
  externalReference?: string | null;
  notificationDisabled?: boolean | null;
  observations?: string | null;
  deleted?: boolean | null;
}

const billingTypeOf = (value: unknown): PaymentRow["billingType"] => BILLING_TYPES.find((t) => t === value) ?? "UNDEFINED";

/** Whether a JSON value is an upstream payment object (what payment creates and reads answer). */
export function isUpstreamPayment(value: unknown): value is UpstreamPayment & { customer: string } {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.object === "payment" && typeof v.id === "string" && typeof v.customer === "string";
}

async function findByUpstreamId<T extends typeof payments | typeof customers>(
  deps: Deps,
  table: T,
  tenant: Tenant,
  upstreamId: string,
): Promise<T["$inferSelect"] | undefined> {
  return deps.db
    .select()
    .from(table as typeof payments)
    .where(and(inTenant(table as typeof payments, tenant), eq((table as typeof payments).upstreamId, upstreamId)))
    .get() as Promise<T["$inferSelect"] | undefined>;
}

/** The Ponte customer for an upstream customer id: found, or fetched from the upstream and adopted. */
export async function adoptUpstreamCustomer(deps: Deps, tenant: Tenant, upstreamId: string, origin: Origin): Promise<CustomerRow | null> {
  const known = await findByUpstreamId(deps, customers, tenant, upstreamId);
  if (known) return known;
  const upstream = await upstreamJson<UpstreamCustomer>(deps, await credentialsFor(deps, tenant), {
    flow: "adopt-customer",
    method: "GET",
    path: `/v3/customers/${encodeURIComponent(upstreamId)}`,
  });
  const digits = (upstream.cpfCnpj ?? "").replace(/\D/g, "");
  const now = deps.now().toISOString();
  const row: CustomerRow = {
    id: newId(),
    ...tenantOf(tenant),
    upstreamId,
    syncStatus: "synced",
    name: upstream.name ?? upstreamId,
    cpfCnpj: digits,
    personType: digits.length === 14 || upstream.personType === "JURIDICA" ? "JURIDICA" : "FISICA",
    email: upstream.email ?? null,
    phone: upstream.phone ?? null,
    mobilePhone: upstream.mobilePhone ?? null,
    address: upstream.address ?? null,
    addressNumber: upstream.addressNumber ?? null,
    complement: upstream.complement ?? null,
    province: upstream.province ?? null,
    postalCode: upstream.postalCode ?? null,
    externalReference: upstream.externalReference ?? null,
    notificationDisabled: upstream.notificationDisabled === true,
    observations: upstream.observations ?? null,
    deletedAt: upstream.deleted ? now : null,
    origin,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.insert(customers).values(row).onConflictDoNothing();
  return (await findByUpstreamId(deps, customers, tenant, upstreamId)) ?? null;
}

/**
 * The Ponte payment for an upstream payment: the existing one brought up to date, or a new one
 * (with `payment.created`, then whatever its status implies through the transition table).
 */
export async function adoptUpstreamPayment(
  deps: Deps,
  tenant: Tenant,
  payment: UpstreamPayment & { customer: string },
  origin: Origin,
  options: { installmentCount?: number } = {},
): Promise<PaymentRow | null> {
  const known = await findByUpstreamId(deps, payments, tenant, payment.id);
  if (known) {
    // The most specific source names the record, even when its webhook came first: api > gateway > upstream.
    if (ORIGINS.indexOf(origin) < ORIGINS.indexOf(known.origin)) {
      await deps.db.update(payments).set({ origin }).where(eq(payments.id, known.id));
      known.origin = origin;
    }
    return applyUpstreamPayment(deps, known, payment);
  }
  const customer = await adoptUpstreamCustomer(deps, tenant, payment.customer, origin);
  if (!customer) return null;
  const subscription = payment.subscription
    ? await deps.db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(and(inTenant(subscriptions, tenant), eq(subscriptions.upstreamId, payment.subscription)))
        .get()
    : undefined;
  const installment = payment.installment
    ? await adoptInstallment(deps, tenant, payment, customer.id, origin, options.installmentCount)
    : null;
  const now = deps.now().toISOString();
  const row: PaymentRow = {
    id: newId(),
    ...tenantOf(tenant),
    installmentId: installment?.id ?? null,
    installmentNumber: installment ? (payment.installmentNumber ?? null) : null,
    upstreamId: payment.id,
    syncStatus: "synced",
    customerId: customer.id,
    subscriptionId: subscription?.id ?? null,
    billingType: billingTypeOf(payment.billingType),
    status: "PENDING",
    valueCents: typeof payment.value === "number" ? fromUpstreamAmount(payment.value) : 0,
    refundedCents: 0,
    dueDate: payment.dueDate ?? now.slice(0, 10),
    description: payment.description ?? null,
    externalReference: payment.externalReference ?? null,
    discount: null,
    fine: null,
    interest: null,
    cardToken: payment.creditCard?.creditCardToken ?? null,
    cardBrand: payment.creditCard?.creditCardBrand ?? null,
    cardLast4: payment.creditCard?.creditCardNumber?.slice(-4) ?? null,
    invoiceUrl: payment.invoiceUrl ?? null,
    bankSlipUrl: payment.bankSlipUrl ?? null,
    paymentDate: null,
    failureReason: null,
    identificationField: null,
    netValueCents: null,
    idempotencyKey: null,
    origin,
    createdAt: now,
    updatedAt: now,
  };
  const facts = { payment: { before: null, after: row } };
  const { event, statement, rollups } = recordEventIfChanged(deps, tenant, "payment.created", presentPayment(row), facts);
  const [inserted] = await deps.db.batch([deps.db.insert(payments).values(row).onConflictDoNothing(), statement, ...rollups]);
  if (changedRows(inserted) > 0) dispatchEvents(deps, [event]);
  const stored = await findByUpstreamId(deps, payments, tenant, payment.id);
  return stored ? applyUpstreamPayment(deps, stored, payment) : null;
}

/** The Ponte installment plan for an upstream installment id: found, or recorded now (once: unique index). */
async function adoptInstallment(
  deps: Deps,
  tenant: Tenant,
  payment: UpstreamPayment,
  customerId: string,
  origin: Origin,
  installmentCount?: number,
): Promise<typeof installments.$inferSelect | null> {
  const upstreamId = payment.installment ?? "";
  const find = () =>
    deps.db
      .select()
      .from(installments)
      .where(and(inTenant(installments, tenant), eq(installments.upstreamId, upstreamId)))
      .get();
  const known = await find();
  if (known) return known;
  const now = deps.now().toISOString();
  await deps.db
    .insert(installments)
    .values({
      id: newId(),
      ...tenantOf(tenant),
      upstreamId,
      customerId,
      installmentCount: installmentCount ?? null,
      billingType: billingTypeOf(payment.billingType),
      origin,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  return (await find()) ?? null;
}

/** A payment the upstream reports deleted (`{ deleted: true, id }`): the Ponte record, if any, is canceled. */
export async function applyUpstreamDeletion(deps: Deps, tenant: Tenant, upstreamId: string): Promise<PaymentRow | null> {
  const known = await findByUpstreamId(deps, payments, tenant, upstreamId);
  return known ? applyUpstreamPayment(deps, known, { id: upstreamId, deleted: true }) : null;
}
