// The statements of a charge's create and link, built once per isolate by drizzle from the schema
// (src/db/prepared.ts) and bound per request: the pending record, the customer it bills, the record a
// retried Idempotency-Key already wrote, the link to the upstream id with its descriptive fields, and
// the event recorded with the link. Every statement names the tenant or the record's own id.
import { and, eq, exists, isNotNull, isNull, sql } from "drizzle-orm";
import { guardedSelect } from "../../db/guarded-insert";
import { boundValue, placeholdersOf, preparedStatement, rowDecoder } from "../../db/prepared";
import { customers, events, payments } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Tenant } from "../../lib/tenant";
import { billableCustomerWhere } from "../customers/service";
import { fannedOutAtBirth } from "../../events/outbox";

type PaymentRow = typeof payments.$inferSelect;
type EventRow = typeof events.$inferInsert;

const placeholder = (name: string) => sql.placeholder(name);
const TENANT = { organizationId: placeholder("organizationId"), workspaceId: placeholder("workspaceId") } as unknown as Tenant;
const CUSTOMER = placeholder("customerId") as unknown as string;

/** A payments row as D1 answers it (`SELECT *`, `RETURNING *`), decoded as drizzle decodes it. */
export const paymentFromRow = rowDecoder(payments);

/** The payment a previous attempt wrote under this Idempotency-Key, in the tenant. */
export const paymentByIdempotencyKey = preparedStatement<Tenant & { key: string }>((db) =>
  db
    .select()
    .from(payments)
    .where(and(inTenant(payments, TENANT), eq(payments.idempotencyKey, placeholder("key")))),
);

/** What the create needs of the customer: whether it can be billed, and its upstream id. */
export const customerForCharge = preparedStatement<Tenant & { customerId: string }>((db) =>
  db
    .select({ deletedAt: customers.deletedAt, upstreamId: customers.upstreamId })
    .from(customers)
    .where(billableCustomerWhere(TENANT, CUSTOMER)),
);

/** The customer read by `customerForCharge`, from D1's row (keyed by column name). */
export const chargedCustomerFromRow = (row: Record<string, unknown> | undefined) =>
  row
    ? {
        deletedAt: (row[customers.deletedAt.name] ?? null) as string | null,
        upstreamId: (row[customers.upstreamId.name] ?? null) as string | null,
      }
    : undefined;

/** The column `insertPendingPayment` answers: the upstream id of the customer the record bills. */
export const CUSTOMER_UPSTREAM_ID = "customer_upstream_id";

/**
 * The pending record, written only if the customer exists in the tenant, is not deleted and is known
 * upstream, and only if no record holds its Idempotency-Key yet (the key's unique index): nobody ever
 * sees a record for a customer that cannot be billed, and a retried key never writes a second one.
 * A record written answers its customer's upstream id (RETURNING `customer_upstream_id`), all the
 * create needs of the customer; no row answered means nothing was written.
 */
export const insertPendingPayment = preparedStatement<PaymentRow>((db) =>
  db
    .insert(payments)
    .select(
      guardedSelect(
        payments,
        placeholdersOf(payments) as unknown as typeof payments.$inferInsert,
        exists(
          db
            .select({ one: sql`1` })
            .from(customers)
            .where(and(billableCustomerWhere(TENANT, CUSTOMER), isNull(customers.deletedAt), isNotNull(customers.upstreamId))),
        ),
      ),
    )
    .onConflictDoNothing()
    .returning({
      customerUpstreamId: sql`(SELECT ${customers.upstreamId} FROM ${customers} WHERE ${and(
        eq(customers.id, payments.customerId),
        eq(customers.organizationId, payments.organizationId),
        eq(customers.workspaceId, payments.workspaceId),
      )})`.as(CUSTOMER_UPSTREAM_ID),
    }),
);

/** The descriptive fields the upstream owns that a link or refresh stores (`upstreamFields` fills them). */
export const UPSTREAM_FIELDS = [
  "invoiceUrl",
  "bankSlipUrl",
  "paymentDate",
  "netValueCents",
  "cardToken",
  "cardBrand",
  "cardLast4",
] as const satisfies readonly (keyof PaymentRow)[];
export type UpstreamFields = Partial<Pick<PaymentRow, (typeof UPSTREAM_FIELDS)[number]>>;

/** The upstream's descriptive fields given, each kept as stored when null (`coalesce`). */
const upstreamFieldsSet = () =>
  Object.fromEntries(UPSTREAM_FIELDS.map((key) => [key, sql`coalesce(${placeholder(key)}, ${payments[key]})`]));

/** Stores the upstream's descriptive fields given (null: keep the stored value) and the time of the change. */
export const refreshUpstreamFields = preparedStatement<UpstreamFields & { id: string; updatedAt: string }>((db) =>
  db
    .update(payments)
    .set({ ...upstreamFieldsSet(), updatedAt: boundValue("updatedAt") })
    .where(eq(payments.id, placeholder("id"))),
);

/**
 * pending → synced with the upstream id and the upstream's descriptive fields given (null: keep the stored
 * value); answers the record as linked (RETURNING), or nothing when it was not pending (nothing changed).
 */
export const linkPendingPayment = preparedStatement<
  Required<{ [K in keyof UpstreamFields]: UpstreamFields[K] | null }> & { id: string; upstreamId: string; updatedAt: string }
>((db) =>
  db
    .update(payments)
    .set({ ...upstreamFieldsSet(), upstreamId: boundValue("upstreamId"), syncStatus: "synced", updatedAt: boundValue("updatedAt") })
    .where(and(eq(payments.id, placeholder("id")), eq(payments.syncStatus, "pending")))
    .returning(),
);

/**
 * An event row, written only if the statement just before it in the batch changed a row (the outbox rule of
 * insertIfChanged), fanned out at birth when its workspace has no enabled endpoint (`fannedOutAtBirth`); it
 * answers `fanned_out_at` (RETURNING), so the committer knows whether to fan it out (`needsFanOut`).
 */
export const insertEventIfChanged = preparedStatement<Omit<Required<EventRow>, "fannedOutAt">>((db) =>
  db
    .insert(events)
    .select(
      guardedSelect(
        events,
        {
          ...(placeholdersOf(events) as unknown as EventRow),
          fannedOutAt: fannedOutAtBirth(boundValue("organizationId"), boundValue("workspaceId"), boundValue("createdAt")),
        } as unknown as EventRow,
        sql`changes() > 0`,
      ),
    )
    .returning({ fannedOutAt: events.fannedOutAt }),
);
