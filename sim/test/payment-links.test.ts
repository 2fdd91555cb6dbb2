// Payment links and checkouts: paying through them (the control API stands in for the payer) makes
// real upstream records — a payment, an installment plan or a subscription — with their webhooks.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { account, createCustomer, dateIn, type Sim, type SimRecord } from "./helpers";

const received = async (): Promise<Array<{ path: string; body: string }>> =>
  (await (env as unknown as { PONTE: Fetcher }).PONTE.fetch("https://ponte.internal/__received")).json();

async function hooked(sim: Sim): Promise<() => Promise<Array<Record<string, unknown> & { event: string }>>> {
  const hookPath = `/webhooks/upstream/${crypto.randomUUID()}`;
  await sim.json("POST", "/v3/webhooks", { name: "ponte", url: `https://ponte.example${hookPath}`, enabled: true, events: [] });
  return async () => (await received()).filter((r) => r.path.startsWith(hookPath)).map((r) => JSON.parse(r.body));
}

type Paid = { customer: string; payment: SimRecord; subscription: SimRecord | null; installment: string | null };

describe("payment links", () => {
  it("a DETACHED link paid by PIX makes a received payment with paymentLink, listed, with PAYMENT_CREATED then PAYMENT_RECEIVED", async () => {
    const sim = account();
    const events = await hooked(sim);
    const link = await sim.json<SimRecord>("POST", "/v3/paymentLinks", {
      name: "Curso",
      billingType: "PIX",
      chargeType: "DETACHED",
      value: 49.9,
    });
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ name: "Curso", active: true, chargeType: "DETACHED", value: 49.9, deleted: false });
    const paid = await sim.control<Paid>("POST", `/__sim/paymentLinks/${link.body.id}/pay`, {
      payer: { name: "Ana Reis", cpfCnpj: "24971563792" },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.payment).toMatchObject({
      paymentLink: link.body.id,
      value: 49.9,
      billingType: "PIX",
      status: "RECEIVED",
      customer: paid.body.customer,
    });
    const listed = await sim.json<{ data: SimRecord[] }>("GET", `/v3/payments?customer=${paid.body.customer}`);
    expect(listed.body.data.map((p) => p.id)).toEqual([paid.body.payment.id]);
    expect((await sim.json<SimRecord>("GET", `/v3/customers/${paid.body.customer}`)).body).toMatchObject({ name: "Ana Reis" });
    const sent = await events();
    expect(sent.map((e) => e.event)).toEqual(["PAYMENT_CREATED", "PAYMENT_RECEIVED"]);
    expect(sent[0]?.payment).toMatchObject({ id: paid.body.payment.id, paymentLink: link.body.id, status: "PENDING" });
  });

  it("a RECURRENT link makes a subscription and its first payment; a deleted link cannot be paid until restored", async () => {
    const sim = account();
    const events = await hooked(sim);
    const customer = await createCustomer(sim);
    const link = await sim.json<SimRecord>("POST", "/v3/paymentLinks", {
      name: "Clube",
      billingType: "CREDIT_CARD",
      chargeType: "RECURRENT",
      subscriptionCycle: "MONTHLY",
      value: 30,
    });
    expect((await sim.json("DELETE", `/v3/paymentLinks/${link.body.id}`)).body).toEqual({ deleted: true, id: link.body.id });
    expect((await sim.control("POST", `/__sim/paymentLinks/${link.body.id}/pay`, { customer: customer.id })).status).toBe(400);
    expect((await sim.json("POST", `/v3/paymentLinks/${link.body.id}/restore`)).status).toBe(200);
    const paid = await sim.control<Paid>("POST", `/__sim/paymentLinks/${link.body.id}/pay`, { customer: customer.id });
    expect(paid.body.subscription).toMatchObject({
      paymentLink: link.body.id,
      cycle: "MONTHLY",
      value: 30,
      status: "ACTIVE",
      customer: customer.id,
    });
    expect(paid.body.payment).toMatchObject({ subscription: paid.body.subscription?.id, paymentLink: link.body.id, status: "CONFIRMED" });
    expect((await events()).map((e) => e.event)).toEqual(["SUBSCRIPTION_CREATED", "PAYMENT_CREATED", "PAYMENT_CONFIRMED"]);
  });

  it("refuses a link without name, billingType or chargeType, and a RECURRENT one without a cycle", async () => {
    const sim = account();
    for (const body of [
      { billingType: "PIX", chargeType: "DETACHED" },
      { name: "x", chargeType: "DETACHED" },
      { name: "x", billingType: "PIX" },
      { name: "x", billingType: "PIX", chargeType: "RECURRENT" },
    ]) {
      expect((await sim.json("POST", "/v3/paymentLinks", body)).status).toBe(400);
    }
  });
});

describe("checkouts", () => {
  it("paying an INSTALLMENT checkout makes the plan's payments (checkoutSession set), then CHECKOUT_PAID", async () => {
    const sim = account();
    const events = await hooked(sim);
    const checkout = await sim.json<SimRecord>("POST", "/v3/checkouts", {
      billingTypes: ["CREDIT_CARD"],
      chargeTypes: ["INSTALLMENT"],
      items: [{ name: "Cadeira", quantity: 2, value: 150 }],
      installment: { maxInstallmentCount: 3 },
      customerData: { name: "Caio Lima", cpfCnpj: "52998224725" },
    });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    expect(checkout.body).toMatchObject({ status: "ACTIVE", value: 300 });
    const paid = await sim.control<Paid>("POST", `/__sim/checkouts/${checkout.body.id}/pay`, { installmentCount: 3 });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.installment).toMatch(/^ins_/);
    const plan = await sim.json<{ data: SimRecord[] }>("GET", `/v3/payments?installment=${paid.body.installment}`);
    expect(plan.body.data.map((p) => [p.value, p.checkoutSession])).toEqual([
      [100, checkout.body.id],
      [100, checkout.body.id],
      [100, checkout.body.id],
    ]);
    expect((await events()).map((e) => e.event)).toEqual([
      "CHECKOUT_CREATED",
      "PAYMENT_CREATED",
      "PAYMENT_CREATED",
      "PAYMENT_CREATED",
      "PAYMENT_CONFIRMED",
      "CHECKOUT_PAID",
    ]);
    expect((await sim.control("POST", `/__sim/checkouts/${checkout.body.id}/pay`, {})).status).toBe(400);
  });

  it("a canceled checkout cannot be paid", async () => {
    const sim = account();
    const checkout = await sim.json<SimRecord>("POST", "/v3/checkouts", {
      billingTypes: ["PIX"],
      chargeTypes: ["DETACHED"],
      items: [{ name: "x", quantity: 1, value: 10 }],
    });
    expect((await sim.json<SimRecord>("POST", `/v3/checkouts/${checkout.body.id}/cancel`)).body.status).toBe("CANCELED");
    expect(
      (await sim.control("POST", `/__sim/checkouts/${checkout.body.id}/pay`, { payer: { name: "A", cpfCnpj: "24971563792" } })).status,
    ).toBe(400);
  });
});

describe("subscription card update", () => {
  it("PUT /v3/subscriptions/{id}/creditCard stores the card and answers the subscription, with SUBSCRIPTION_UPDATED", async () => {
    const sim = account();
    const events = await hooked(sim);
    const customer = await createCustomer(sim);
    const sub = await sim.json<SimRecord>("POST", "/v3/subscriptions", {
      customer: customer.id,
      billingType: "BOLETO",
      value: 20,
      nextDueDate: dateIn(5),
      cycle: "MONTHLY",
    });
    const token = await sim.json<{ creditCardToken: string }>("POST", "/v3/creditCard/tokenizeCreditCard", {
      customer: customer.id,
      creditCard: {
        holderName: "MARIA",
        number: "4111111111111111",
        expiryMonth: "12",
        expiryYear: String(new Date().getUTCFullYear() + 2),
        ccv: "123",
      },
      creditCardHolderInfo: {
        name: "Maria",
        email: "m@example.com",
        cpfCnpj: "24971563792",
        postalCode: "01001000",
        addressNumber: "1",
        phone: "1133334444",
      },
      remoteIp: "10.0.0.1",
    });
    const put = await sim.json<SimRecord>("PUT", `/v3/subscriptions/${sub.body.id}/creditCard`, {
      creditCardToken: token.body.creditCardToken,
      remoteIp: "10.0.0.1",
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ object: "subscription", id: sub.body.id, creditCard: { creditCardNumber: "1111" } });
    expect((await events()).map((e) => e.event)).toContain("SUBSCRIPTION_UPDATED");
  });
});
