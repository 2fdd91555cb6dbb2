// Saved cards (payment methods): list, get and delete beside tokenization; only brand and last 4
// digits are kept, each workspace sees its own, and a deleted card no longer charges through Ponte.
import { describe, expect, it } from "vitest";
import type { Payment, PaymentMethod, Reply } from "./bodies";
import { HOLDER, card, createCustomer, dueDate, seedBillingTenant, type BillingTenant } from "./billing-support";
import { call, expectError } from "./support";

async function tokenize(t: BillingTenant, customer: string, number = "4111111111111111") {
  const res = await call<Reply<PaymentMethod>>("POST", "/api/v1/payment-methods/tokenize", {
    key: t.key,
    body: { customer, creditCard: card(number), creditCardHolderInfo: HOLDER, remoteIp: "203.0.113.7" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe("payment methods", () => {
  it("lists (newest first, by customer), gets and deletes saved cards; a deleted card cannot be charged", async () => {
    const t = await seedBillingTenant();
    const ana = await createCustomer(t);
    const bia = await createCustomer(t, { name: "Bia Reis" });
    const first = await tokenize(t, ana.id);
    const second = await tokenize(t, bia.id, "5162306219378829");

    const all = await call<Reply<PaymentMethod[]>>("GET", "/api/v1/payment-methods", { key: t.key });
    expect(all.body.data.map((m) => m.id)).toEqual([second.id, first.id]);
    expect(all.body.meta.pagination.totalCount).toBe(2);
    expect(all.body.data[1]).toEqual(first);
    expect(JSON.stringify(all.body)).not.toContain("4111111111111111");
    const anas = await call<Reply<PaymentMethod[]>>("GET", `/api/v1/payment-methods?customer=${ana.id}`, { key: t.key });
    expect(anas.body.data.map((m) => m.id)).toEqual([first.id]);
    expect((await call<Reply<PaymentMethod>>("GET", `/api/v1/payment-methods/${first.id}`, { key: t.key })).body.data).toEqual(first);

    const deleted = await call<Reply<{ id: string; deleted: boolean }>>("DELETE", `/api/v1/payment-methods/${first.id}`, { key: t.key });
    expect(deleted.body.data).toEqual({ id: first.id, object: "payment_method", deleted: true });
    expectError(await call("GET", `/api/v1/payment-methods/${first.id}`, { key: t.key }), 404, "NOT_FOUND");
    expectError(await call("DELETE", `/api/v1/payment-methods/${first.id}`, { key: t.key }), 404, "NOT_FOUND");
    const charge = await call<Reply<Payment>>("POST", "/api/v1/payments", {
      key: t.key,
      body: {
        customer: ana.id,
        billingType: "CREDIT_CARD",
        value: "10.00",
        dueDate: dueDate(),
        creditCardToken: first.id,
        remoteIp: "203.0.113.7",
      },
    });
    expect(charge.status).toBeGreaterThanOrEqual(400);
    expect(charge.status).toBeLessThan(500);
  });

  it("another workspace's card is 404; reading needs payment_methods.read; unknown filters are 400", async () => {
    const t = await seedBillingTenant();
    const other = await seedBillingTenant();
    const mine = await tokenize(t, (await createCustomer(t)).id);
    expectError(await call("GET", `/api/v1/payment-methods/${mine.id}`, { key: other.key }), 404, "NOT_FOUND");
    expectError(await call("DELETE", `/api/v1/payment-methods/${mine.id}`, { key: other.key }), 404, "NOT_FOUND");
    expect((await call<Reply<PaymentMethod[]>>("GET", "/api/v1/payment-methods", { key: other.key })).body.data).toEqual([]);
    expectError(await call("GET", "/api/v1/payment-methods?brand=VISA", { key: t.key }), 400, "VALIDATION_FAILED");
  });
});
