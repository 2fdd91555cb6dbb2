// Payment links and checkouts made through Ponte's compatibility routes: what a payer pays through them
// is a Ponte payment (or subscription) with the spec's events, by webhook or by the adoption sweep.
import { describe, expect, it } from "vitest";
import type { Passthrough, Payment, Reply, Subscription } from "./bodies";
import { eventsOf, seedBillingTenant, sim, testDeps, type BillingTenant } from "./billing-support";
import { call } from "./support";
import { adoptMissedPayments } from "../../src/modules/reconciliation/adopt-missed";

interface Paid {
  customer: string;
  payment: { id: string; status: string };
  subscription: { id: string } | null;
}

const pay = async (t: BillingTenant, path: string, body: Record<string, unknown>) => {
  const res = await sim<Paid>("POST", `${path}?token=${encodeURIComponent(t.upstreamKey)}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

const payments = async (t: BillingTenant) => (await call<Reply<Payment[]>>("GET", "/api/v1/payments", { key: t.key })).body.data;

async function createLink(t: BillingTenant, body: Record<string, unknown>) {
  const res = await call<Passthrough<{ id: string; url: string }>>("POST", "/api/v1/paymentLinks", { key: t.key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe("payment links", () => {
  it("a payment made through a link shows in GET /api/v1/payments and raises payment.created then payment.received", async () => {
    const t = await seedBillingTenant();
    const link = await createLink(t, { name: "Ebook", billingType: "PIX", chargeType: "DETACHED", value: 39.9 });
    const paid = await pay(t, `/__sim/paymentLinks/${link.id}/pay`, { payer: { name: "Davi Rocha", cpfCnpj: "52998224725" } });

    const adopted = (await payments(t)).filter((p) => p.upstreamId === paid.payment.id);
    expect(adopted).toMatchObject([{ origin: "upstream", status: "RECEIVED", value: "39.90", billingType: "PIX" }]);
    const customer = (
      await call<Reply<{ name: string; origin: string; upstreamId: string }>>("GET", `/api/v1/customers/${adopted[0]?.customer}`, {
        key: t.key,
      })
    ).body.data;
    expect(customer).toMatchObject({ name: "Davi Rocha", origin: "upstream", upstreamId: paid.customer });
    const events = await eventsOf(t);
    expect(events.map((e) => e.type)).toEqual(["payment.created", "payment.received"]);
    expect(events[1]?.data).toMatchObject({ id: adopted[0]?.id, status: "RECEIVED", value: "39.90" });
  });

  it("a RECURRENT link paid by card makes an adopted subscription (no plan) and its confirmed first payment", async () => {
    const t = await seedBillingTenant();
    const link = await createLink(t, {
      name: "Clube",
      billingType: "CREDIT_CARD",
      chargeType: "RECURRENT",
      subscriptionCycle: "MONTHLY",
      value: 25,
    });
    const paid = await pay(t, `/__sim/paymentLinks/${link.id}/pay`, { payer: { name: "Eva Luz", cpfCnpj: "24971563792" } });
    const subs = (await call<Reply<Subscription[]>>("GET", "/api/v1/subscriptions", { key: t.key })).body.data;
    expect(subs).toMatchObject([{ upstreamId: paid.subscription?.id, origin: "upstream", plan: null, value: "25.00", status: "ACTIVE" }]);
    expect((await payments(t)).filter((p) => p.upstreamId === paid.payment.id)).toMatchObject([
      { subscription: subs[0]?.id, status: "CONFIRMED", value: "25.00", origin: "upstream" },
    ]);
    expect((await eventsOf(t)).map((e) => e.type)).toEqual(["subscription.created", "payment.created", "payment.confirmed"]);
  });

  it("without the webhook, the adoption sweep brings the link's payment in", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const link = await createLink(t, { name: "Aula", billingType: "BOLETO", chargeType: "DETACHED", value: 80 });
    const paid = await pay(t, `/__sim/paymentLinks/${link.id}/pay`, { payer: { name: "Gil Souza", cpfCnpj: "52998224725" } });
    expect((await payments(t)).filter((p) => p.upstreamId === paid.payment.id)).toEqual([]);
    await adoptMissedPayments(testDeps());
    expect((await payments(t)).filter((p) => p.upstreamId === paid.payment.id)).toMatchObject([
      { origin: "upstream", status: "RECEIVED", value: "80.00" },
    ]);
    expect((await eventsOf(t)).map((e) => e.type)).toEqual(["payment.created", "payment.received"]);
  });
});

describe("checkouts", () => {
  it("a checkout paid by PIX becomes a Ponte payment; the checkout's own events stay upstream.CHECKOUT_*", async () => {
    const t = await seedBillingTenant();
    const checkout = await call<Passthrough<{ id: string; status: string }>>("POST", "/api/v1/checkouts", {
      key: t.key,
      body: {
        billingTypes: ["PIX"],
        chargeTypes: ["DETACHED"],
        minutesToExpire: 30,
        callback: {
          successUrl: "https://shop.example/ok",
          cancelUrl: "https://shop.example/cancel",
          expiredUrl: "https://shop.example/exp",
        },
        items: [{ name: "Camisa", description: "P", quantity: 2, value: 60 }],
        customerData: { name: "Iara Melo", cpfCnpj: "24971563792", email: "iara@example.com" },
      },
    });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    const paid = await pay(t, `/__sim/checkouts/${checkout.body.data.id}/pay`, {});
    expect((await payments(t)).filter((p) => p.upstreamId === paid.payment.id)).toMatchObject([
      { origin: "upstream", status: "RECEIVED", value: "120.00", billingType: "PIX" },
    ]);
    expect((await eventsOf(t)).map((e) => e.type)).toEqual([
      "upstream.CHECKOUT_CREATED",
      "payment.created",
      "payment.received",
      "upstream.CHECKOUT_PAID",
    ]);
  });
});
