// POST /__sim/import: records made elsewhere (Ponte's demo history), stored with their own ids, values,
// statuses and dates; idempotent, all or nothing, bounded; and the simulator's São Paulo wall clock.
import { describe, expect, it } from "vitest";
import { dateTime } from "../src/http";
import { account, type AsaasErrors, type SimList, type SimRecord } from "./helpers";

const CUSTOMER = { id: "cus_demo00000001", name: "Ana Souza", cpfCnpj: "24971563792", email: "ana@example.com", dateCreated: "2025-12-03" };
const SUBSCRIPTION = {
  id: "sub_demo00000001",
  customer: "cus_demo00000001",
  billingType: "PIX",
  cycle: "MONTHLY",
  value: 149.9,
  nextDueDate: "2026-12-03",
  status: "ACTIVE",
  description: "Assinatura Pro",
  dateCreated: "2025-12-03",
};
const RECEIVED = {
  id: "pay_demo00000001",
  customer: "cus_demo00000001",
  subscription: "sub_demo00000001",
  billingType: "PIX",
  value: 149.9,
  netValue: 148.91,
  status: "RECEIVED",
  dueDate: "2026-10-03",
  paymentDate: "2026-10-02",
  description: "Pro 2026-10",
  dateCreated: "2026-09-23",
};
const REFUNDED = {
  ...RECEIVED,
  id: "pay_demo00000002",
  status: "REFUNDED",
  refunds: [{ value: 149.9, dateCreated: "2026-10-06 14:30:00", description: "Estorno a pedido do cliente" }],
};
const OPEN = {
  ...RECEIVED,
  id: "pay_demo00000003",
  subscription: null,
  status: "PENDING",
  dueDate: "2026-12-03",
  paymentDate: null,
  netValue: null,
};

describe("POST /__sim/import", () => {
  it("stores customers, subscriptions and payments with their own ids, values, statuses and dates, and sends no webhook", async () => {
    const sim = account();
    const res = await sim.control("POST", "/__sim/import", {
      customers: [CUSTOMER],
      subscriptions: [SUBSCRIPTION],
      payments: [RECEIVED, REFUNDED, OPEN],
    });
    expect(res).toEqual({
      status: 200,
      body: {
        customers: { imported: 1, existing: 0 },
        subscriptions: { imported: 1, existing: 0 },
        payments: { imported: 3, existing: 0 },
      },
    });
    expect((await sim.json("GET", "/v3/customers/cus_demo00000001")).body).toMatchObject({
      object: "customer",
      name: "Ana Souza",
      cpfCnpj: "24971563792",
      personType: "FISICA",
      email: "ana@example.com",
      dateCreated: "2025-12-03",
      deleted: false,
    });
    expect((await sim.json("GET", "/v3/subscriptions/sub_demo00000001")).body).toMatchObject({
      customer: "cus_demo00000001",
      value: 149.9,
      cycle: "MONTHLY",
      nextDueDate: "2026-12-03",
      status: "ACTIVE",
      dateCreated: "2025-12-03",
    });
    expect((await sim.json("GET", "/v3/payments/pay_demo00000001")).body).toMatchObject({
      subscription: "sub_demo00000001",
      value: 149.9,
      netValue: 148.91,
      status: "RECEIVED",
      dueDate: "2026-10-03",
      paymentDate: "2026-10-02",
      clientPaymentDate: "2026-10-02",
      dateCreated: "2026-09-23",
    });
    const refunds = await sim.json<SimList<SimRecord>>("GET", "/v3/payments/pay_demo00000002/refunds");
    expect(refunds.body.data).toEqual([expect.objectContaining({ status: "DONE", value: 149.9, dateCreated: "2026-10-06 14:30:00" })]);
    // The subscription's payments, newest first, and an open one the API acts on like any other.
    const listed = await sim.json<SimList<SimRecord>>("GET", "/v3/subscriptions/sub_demo00000001/payments");
    expect(listed.body.data.map((p) => p.id).sort()).toEqual(["pay_demo00000001", "pay_demo00000002"]);
    expect((await sim.json("GET", "/v3/payments/pay_demo00000003/pixQrCode")).status).toBe(200);
    expect((await sim.json("POST", "/v3/payments/pay_demo00000001/refund", { value: 10 })).body).toMatchObject({ status: "RECEIVED" });
    expect((await sim.control<SimList<unknown>>("GET", "/__sim/webhooks")).body.data).toEqual([]);
  });

  it("is idempotent: ids the account holds are left as they are and counted as existing", async () => {
    const sim = account();
    await sim.control("POST", "/__sim/import", { customers: [CUSTOMER], payments: [OPEN] });
    expect((await sim.json("PUT", "/v3/payments/pay_demo00000003", { value: 200 })).status).toBe(200); // changed since
    const again = await sim.control("POST", "/__sim/import", { customers: [CUSTOMER], payments: [OPEN] });
    expect(again.body).toEqual({
      customers: { imported: 0, existing: 1 },
      subscriptions: { imported: 0, existing: 0 },
      payments: { imported: 0, existing: 1 },
    });
    expect((await sim.json("GET", "/v3/payments/pay_demo00000003")).body).toMatchObject({ value: 200 });
    expect((await sim.json<SimList<unknown>>("GET", "/v3/customers")).body.totalCount).toBe(1);
  });

  it("refuses a bad record with a 400 naming it and stores nothing of that request", async () => {
    const sim = account();
    const bad = await sim.control<AsaasErrors>("POST", "/__sim/import", {
      customers: [CUSTOMER],
      subscriptions: [SUBSCRIPTION],
      payments: [RECEIVED, { ...OPEN, dueDate: "2026-02-30" }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ code: "invalid_import", description: expect.stringContaining("payments[1].dueDate") });
    const orphan = await sim.control<AsaasErrors>("POST", "/__sim/import", { payments: [{ ...OPEN, customer: "cus_nobody" }] });
    expect(orphan.body.errors[0]?.description).toContain("payments[0].customer");
    const status = await sim.control<AsaasErrors>("POST", "/__sim/import", {
      customers: [CUSTOMER],
      payments: [{ ...OPEN, status: "PAID" }],
    });
    expect(status.body.errors[0]?.description).toContain("payments[0].status");
    expect((await sim.json("GET", "/v3/customers/cus_demo00000001")).status).toBe(404);
    expect((await sim.json("GET", "/v3/payments/pay_demo00000001")).status).toBe(404);
  });

  it("takes at most 500 records per request", async () => {
    const sim = account();
    const customers = Array.from({ length: 501 }, (_, i) => ({ ...CUSTOMER, id: `cus_demo${String(i).padStart(8, "0")}` }));
    const res = await sim.control<AsaasErrors>("POST", "/__sim/import", { customers });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]?.description).toContain("at most 500");
    expect((await sim.control("POST", "/__sim/import", { customers: customers.slice(0, 500) })).status).toBe(200);
  });
});

describe("the simulator's clock", () => {
  it("writes date-times on São Paulo's wall clock (UTC−3), as the upstream does", async () => {
    expect(dateTime(new Date("2026-11-27T01:30:05.000Z"))).toBe("2026-11-26 22:30:05");
    expect(dateTime(new Date("2026-07-01T15:00:00.000Z"))).toBe("2026-07-01 12:00:00");
    // A record made now carries now on that clock: read as UTC−3 it is within a minute of the test's clock.
    const sim = account();
    const key = await sim.json<{ dateCreated: string }>("POST", "/v3/pix/addressKeys", { type: "EVP" });
    expect(key.status).toBe(200);
    const at = Date.parse(`${key.body.dateCreated.replace(" ", "T")}-03:00`);
    expect(Math.abs(at - Date.now())).toBeLessThan(60_000);
  });
});
