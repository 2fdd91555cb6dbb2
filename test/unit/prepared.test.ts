// The PIX create's statements built once (src/db/prepared.ts, src/modules/payments/statements.ts) write and
// answer exactly what drizzle's own query builder writes and answers, over real SQLite (node:sqlite behind a
// D1-shaped adapter, the migrations applied): every column of the pending record (JSON columns included),
// the tenant and billable-customer conditions, the Idempotency-Key's unique record, the link's RETURNING
// row, the event written only after a statement that changed a row. The SQL is drizzle's, from the schema:
// a column added to the schema is written and read back here without any other change.

import type { DatabaseSync } from "node:sqlite";
import { eq, getTableColumns } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { compileStatement } from "../../src/db/prepared";
import { events, payments } from "../../src/db/schema";
import { needsFanOut } from "../../src/events/outbox";
import {
  CUSTOMER_UPSTREAM_ID,
  chargedCustomerFromRow,
  customerForCharge,
  insertEventIfChanged,
  insertPendingPayment,
  linkPendingPayment,
  paymentByIdempotencyKey,
  paymentFromRow,
  refreshUpstreamFields,
  UPSTREAM_FIELDS,
} from "../../src/modules/payments/statements";
import { migratedSqlite } from "./migrated-sqlite";

type Row = Record<string, unknown>;
function d1Over(db: DatabaseSync) {
  const statement = (sql: string, params: unknown[] = []) => {
    const run = () => {
      const s = db.prepare(sql);
      if (/^\s*select|returning/i.test(sql)) {
        const results = s.all(...(params as never[])) as Row[];
        return { results, meta: { changes: /returning/i.test(sql) ? results.length : 0 } };
      }
      const info = s.run(...(params as never[]));
      return { results: [] as Row[], meta: { changes: Number(info.changes) } };
    };
    return {
      sql,
      bind: (...values: unknown[]) => statement(sql, values),
      all: async () => run(),
      run: async () => run(),
      first: async () => run().results[0] ?? null,
      raw: async () => {
        const s = db.prepare(sql);
        s.setReturnArrays(true);
        return s.all(...(params as never[]));
      },
      exec: run,
    };
  };
  return {
    prepare: (sql: string) => statement(sql),
    batch: async (statements: { exec: () => unknown }[]) => {
      db.exec("BEGIN");
      try {
        const out = statements.map((s) => s.exec());
        db.exec("COMMIT");
        return out;
      } catch (err) {
        db.exec("ROLLBACK");
        throw err;
      }
    },
  } as unknown as D1Database;
}

function migrated() {
  const db = migratedSqlite();
  db.exec(`INSERT INTO customers (id, organization_id, workspace_id, upstream_id, sync_status, name, cpf_cnpj, person_type, created_at, updated_at, deleted_at)
    VALUES ('cus_ok', 'org_a', 'ws_a', 'cus_up_1', 'synced', 'Maria', '52998224725', 'FISICA', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', NULL),
           ('cus_unsynced', 'org_a', 'ws_a', NULL, 'pending', 'João', '52998224725', 'FISICA', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', NULL),
           ('cus_deleted', 'org_a', 'ws_a', 'cus_up_2', 'synced', 'Ana', '52998224725', 'FISICA', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z')`);
  return db;
}

const TENANT = { organizationId: "org_a", workspaceId: "ws_a" };
/** Every upstream field as "not given" (null keeps the stored value). */
const NO_FIELDS = Object.fromEntries(UPSTREAM_FIELDS.map((k) => [k, null])) as Record<(typeof UPSTREAM_FIELDS)[number], null>;
function pendingRow(id: string, customerId: string, idempotencyKey: string | null): typeof payments.$inferSelect {
  return {
    id,
    ...TENANT,
    origin: "api",
    upstreamId: null,
    syncStatus: "pending",
    customerId,
    subscriptionId: null,
    billingType: "PIX",
    status: "PENDING",
    valueCents: 12990,
    refundedCents: 0,
    dueDate: "2026-12-04",
    description: "Pedido 42",
    externalReference: "ext-42",
    discount: { value: "1.00", dueDateLimitDays: 0 },
    fine: null,
    interest: { value: "2.00" },
    cardToken: null,
    cardBrand: null,
    cardLast4: null,
    invoiceUrl: null,
    bankSlipUrl: null,
    paymentDate: null,
    failureReason: null,
    identificationField: null,
    netValueCents: null,
    idempotencyKey,
    installmentId: null,
    installmentNumber: null,
    createdAt: "2026-11-27T09:00:00.000Z",
    updatedAt: "2026-11-27T09:00:00.000Z",
  };
}

describe("the PIX create's prepared statements", () => {
  it("the pending record: every column as drizzle reads it back, only for a billable customer, once per Idempotency-Key", async () => {
    const d1 = d1Over(migrated());
    const db = drizzle(d1);
    const row = pendingRow("pay_1", "cus_ok", "key-1");
    const [, customer, inserted] = await d1.batch([
      paymentByIdempotencyKey(d1, { ...TENANT, key: "key-1" }),
      customerForCharge(d1, { ...TENANT, customerId: "cus_ok" }),
      insertPendingPayment(d1, row),
    ]);
    expect(inserted?.meta.changes).toBe(1);
    // A record written answers its customer's upstream id: all the create needs of the customer.
    expect(inserted?.results).toEqual([{ [CUSTOMER_UPSTREAM_ID]: "cus_up_1" }]);
    expect(chargedCustomerFromRow(customer?.results[0] as Row)).toStrictEqual({ deletedAt: null, upstreamId: "cus_up_1" });
    expect(await db.select().from(payments).where(eq(payments.id, "pay_1")).get()).toStrictEqual(row);

    // The same key again: nothing written, the first record answered (decoded as drizzle decodes it).
    const [again, , second] = await d1.batch([
      paymentByIdempotencyKey(d1, { ...TENANT, key: "key-1" }),
      customerForCharge(d1, { ...TENANT, customerId: "cus_ok" }),
      insertPendingPayment(d1, pendingRow("pay_2", "cus_ok", "key-1")),
    ]);
    expect(second?.meta.changes).toBe(0);
    expect(second?.results).toStrictEqual([]);
    expect(paymentFromRow(again?.results[0] as Row)).toStrictEqual(row);

    // A customer not known upstream, deleted, in another tenant, or missing: no record.
    for (const [id, customerId, organizationId] of [
      ["pay_3", "cus_unsynced", "org_a"],
      ["pay_4", "cus_deleted", "org_a"],
      ["pay_5", "cus_ok", "org_b"],
      ["pay_6", "cus_missing", "org_a"],
    ] as const) {
      const [result] = await d1.batch([insertPendingPayment(d1, { ...pendingRow(id, customerId, null), organizationId })]);
      expect(result?.meta.changes, id).toBe(0);
      expect(result?.results, id).toStrictEqual([]);
    }
    const [other] = await d1.batch([customerForCharge(d1, { organizationId: "org_b", workspaceId: "ws_a", customerId: "cus_ok" })]);
    expect(chargedCustomerFromRow(other?.results[0] as Row)).toBeUndefined();
    expect(await db.select({ id: payments.id }).from(payments)).toStrictEqual([{ id: "pay_1" }]);
  });

  it("the link: the refreshed fields and the record as linked (RETURNING, drizzle's row), the event only when the link changed a row", async () => {
    const d1 = d1Over(migrated());
    const db = drizzle(d1);
    await d1.batch([insertPendingPayment(d1, pendingRow("pay_1", "cus_ok", null))]);
    const at = "2026-11-27T09:00:01.000Z";
    const none = NO_FIELDS;
    const event = (id: string) => ({
      id,
      ...TENANT,
      type: "payment.created",
      data: { id: "pay_1", value: "129.90", nested: { ok: true } },
      createdAt: at,
    });
    const [linked, recorded] = await d1.batch([
      linkPendingPayment(d1, {
        ...none,
        invoiceUrl: "https://pay/1",
        netValueCents: 12500,
        id: "pay_1",
        upstreamId: "pay_up_1",
        updatedAt: at,
      }),
      insertEventIfChanged(d1, event("evt_1")),
    ]);
    const stored = await db.select().from(payments).where(eq(payments.id, "pay_1")).get();
    expect(paymentFromRow(linked?.results[0] as Row)).toStrictEqual(stored);
    expect(stored).toMatchObject({
      upstreamId: "pay_up_1",
      syncStatus: "synced",
      invoiceUrl: "https://pay/1",
      netValueCents: 12500,
      updatedAt: at,
    });
    expect(stored?.description).toBe("Pedido 42"); // a field not given is kept
    expect(recorded?.meta.changes).toBe(1);
    // No enabled endpoint in the workspace: written fanned out at birth, and the RETURNING row says so.
    expect(recorded?.results).toEqual([{ fanned_out_at: at }]);
    expect(needsFanOut(recorded?.results[0] as Row)).toBe(false);
    expect(await db.select().from(events).where(eq(events.id, "evt_1")).get()).toStrictEqual({ ...event("evt_1"), fannedOutAt: at });

    // Linked already: no row answered, no event, the fields untouched; refreshUpstreamFields still stores newer ones.
    const [again, none2] = await d1.batch([
      linkPendingPayment(d1, { ...none, invoiceUrl: "https://pay/2", id: "pay_1", upstreamId: "pay_up_1", updatedAt: at }),
      insertEventIfChanged(d1, event("evt_2")),
    ]);
    expect(again?.results).toStrictEqual([]);
    expect(none2?.meta.changes).toBe(0);
    expect(await db.select().from(events).where(eq(events.id, "evt_2")).get()).toBeUndefined();
    expect((await db.select().from(payments).where(eq(payments.id, "pay_1")).get())?.invoiceUrl).toBe("https://pay/1");
    await refreshUpstreamFields(d1, { ...none, invoiceUrl: "https://pay/2", id: "pay_1", updatedAt: at }).run();
    expect(await db.select().from(payments).where(eq(payments.id, "pay_1")).get()).toMatchObject({
      invoiceUrl: "https://pay/2",
      netValueCents: 12500,
    });
  });

  it("an event is fanned out at birth only when its own workspace has no enabled endpoint", async () => {
    const sqlite = migrated();
    const d1 = d1Over(sqlite);
    const db = drizzle(d1);
    const at = "2026-11-27T09:00:01.000Z";
    const endpoint = (id: string, workspaceId: string, enabled: number) =>
      sqlite.exec(`INSERT INTO webhook_endpoints (id, organization_id, workspace_id, url, event_kinds, enabled, secret_sealed, created_at, updated_at)
        VALUES ('${id}', 'org_a', '${workspaceId}', 'https://hooks.example/${id}', '["*"]', ${enabled}, 'sealed', '${at}', '${at}')`);
    const record = async (id: string) => {
      await d1.batch([insertPendingPayment(d1, pendingRow(`pay_${id}`, "cus_ok", null))]);
      const [, recorded] = await d1.batch([
        linkPendingPayment(d1, { ...NO_FIELDS, id: `pay_${id}`, upstreamId: `up_${id}`, updatedAt: at }),
        insertEventIfChanged(d1, { id, ...TENANT, type: "payment.created", data: {}, createdAt: at }),
      ]);
      const stored = await db.select({ fannedOutAt: events.fannedOutAt }).from(events).where(eq(events.id, id)).get();
      return { owed: needsFanOut(recorded?.results[0] as Row), fannedOutAt: stored?.fannedOutAt };
    };
    endpoint("we_other_ws", "ws_b", 1); // another workspace's endpoint is not this event's
    endpoint("we_disabled", "ws_a", 0); // nor a disabled one
    expect(await record("evt_a")).toStrictEqual({ owed: false, fannedOutAt: at });
    endpoint("we_on", "ws_a", 1);
    expect(await record("evt_b")).toStrictEqual({ owed: true, fannedOutAt: null });
  });

  it("the decoder and the statements follow the schema: every payments column, and a missing value is an error", () => {
    const row = pendingRow("pay_1", "cus_ok", null);
    const asStored = Object.fromEntries(
      Object.entries(getTableColumns(payments)).map(([key, column]) => [
        column.name,
        (row as Row)[key] === null ? null : column.mapToDriverValue((row as Row)[key]),
      ]),
    );
    expect(paymentFromRow(asStored)).toStrictEqual(row);
    const compiled = compileStatement(
      drizzle({} as D1Database)
        .select()
        .from(payments)
        .where(eq(payments.id, "x")),
    );
    expect(compiled.args({})).toEqual(["x"]);
    const d1 = d1Over(migrated());
    expect(() => linkPendingPayment(d1, { ...NO_FIELDS, id: "pay_1", updatedAt: "now" } as never)).toThrow(/no value for "upstreamId"/);
    expect(() => linkPendingPayment(d1, { id: "pay_1", upstreamId: "up_1", updatedAt: "now" } as never)).toThrow(/no value for "/);
  });
});
