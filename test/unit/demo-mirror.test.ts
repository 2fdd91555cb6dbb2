// The demo mirror's mapping (scripts/lib/demo-mirror.mjs): Ponte's rows as the upstream answers them —
// upstream ids, reais, São Paulo dates, Ponte's CANCELED as the upstream's removal — and bounded batches
// that name a customer before what refers to it.
import { describe, expect, it } from "vitest";
import { describeMirror, MIRROR_BATCH, mirrorBatches, mirrorRecords } from "../../scripts/lib/demo-mirror.mjs";

const customer = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `cus_demo${String(n).padStart(8, "0")}`,
  name: `Cliente ${n}`,
  cpfCnpj: "24971563792",
  email: null,
  phone: null,
  mobilePhone: "11987654321",
  externalReference: null,
  createdAt: "2026-03-01T02:30:00.000Z", // 23:30 on Feb 28 in São Paulo
  deleted: 0,
  ...extra,
});
const payment = (extra: Record<string, unknown>) => ({
  id: "pay_demo00000001",
  customer: "cus_demo00000001",
  subscription: "sub_demo00000001",
  billingType: "PIX",
  status: "RECEIVED",
  valueCents: 14990,
  netValueCents: 14891,
  dueDate: "2026-03-10",
  paymentDate: "2026-03-09",
  description: "Pro 2026-03",
  externalReference: null,
  createdAt: "2026-03-01T12:00:00.000Z",
  ...extra,
});
const rows = (over: Partial<Record<"customers" | "subscriptions" | "payments" | "refunds", Record<string, unknown>[]>>) => ({
  customers: [],
  subscriptions: [],
  payments: [],
  refunds: [],
  ...over,
});

describe("mirrorRecords", () => {
  it("answers customers and subscriptions as the upstream does: its ids, reais, the São Paulo day; CANCELED is a removed, INACTIVE subscription", () => {
    const out = mirrorRecords(
      rows({
        customers: [customer(1), customer(2, { deleted: 1 })],
        subscriptions: [
          {
            id: "sub_demo00000001",
            customer: "cus_demo00000001",
            billingType: "BOLETO",
            valueCents: 149900,
            cycle: "YEARLY",
            nextDueDate: "2027-03-01",
            status: "CANCELED",
            description: "Assinatura Pro Anual",
            externalReference: null,
            createdAt: "2026-03-01T02:30:00.000Z",
          },
        ],
      }),
    );
    expect(out.customers[0]).toMatchObject({
      id: "cus_demo00000001",
      dateCreated: "2026-02-28",
      deleted: false,
      mobilePhone: "11987654321",
    });
    expect(out.customers[1]).toMatchObject({ deleted: true });
    expect(out.subscriptions[0]).toEqual(
      expect.objectContaining({ value: 1499, status: "INACTIVE", deleted: true, dateCreated: "2026-02-28", nextDueDate: "2027-03-01" }),
    );
  });

  it("answers charges with their net value, payment dates and done refunds; a CANCELED charge is removed, a CONFIRMED card one not yet received", () => {
    const out = mirrorRecords(
      rows({
        payments: [
          payment({ status: "REFUNDED" }),
          payment({ id: "pay_demo00000002", status: "CANCELED", paymentDate: null, netValueCents: null }),
          payment({ id: "pay_demo00000003", billingType: "CREDIT_CARD", status: "CONFIRMED", subscription: null }),
        ],
        refunds: [{ payment: "pay_demo00000001", valueCents: 14990, description: "Estorno", createdAt: "2026-03-12T13:05:09.000Z" }],
      }),
    );
    expect(out.payments[0]).toMatchObject({
      value: 149.9,
      netValue: 148.91,
      status: "REFUNDED",
      deleted: false,
      paymentDate: "2026-03-09",
      dateCreated: "2026-03-01",
      refunds: [{ value: 149.9, description: "Estorno", dateCreated: "2026-03-12 10:05:09" }],
    });
    expect(out.payments[1]).toMatchObject({ status: "PENDING", deleted: true, netValue: null, refunds: null });
    expect(out.payments[2]).toMatchObject({
      paymentDate: null,
      confirmedDate: "2026-03-09",
      clientPaymentDate: "2026-03-09",
      subscription: null,
    });
  });
});

describe("mirrorBatches", () => {
  it("sends at most MIRROR_BATCH records a request, customers first", () => {
    const customers = Array.from({ length: MIRROR_BATCH + 10 }, (_, i) => ({ id: `cus_${i}` }));
    const payments = [{ id: "pay_1" }];
    const batches = mirrorBatches({ customers, subscriptions: [], payments });
    expect(batches).toHaveLength(2);
    expect(batches[0]?.customers).toHaveLength(MIRROR_BATCH);
    expect(batches[1]).toEqual({ customers: customers.slice(MIRROR_BATCH), subscriptions: [], payments });
    expect(mirrorBatches({ customers: [], subscriptions: [], payments: [] })).toEqual([]);
  });

  it("describes what was imported", () => {
    const t = { imported: 2, existing: 0 };
    expect(describeMirror({ customers: t, subscriptions: t, payments: { imported: 5, existing: 1 } })).toBe(
      "2 customers, 2 subscriptions and 5 charges (1 already there)",
    );
  });
});
