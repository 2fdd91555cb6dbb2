// Sandbox actions, refunds and subscriptions.
import { describe, expect, it } from "vitest";
import { account, CARD, createCustomer, createPayment, dateIn, HOLDER } from "./helpers";
import type { Answer, AsaasErrors, SimList, Deleted } from "./helpers";
import type { Payment, Refund, Subscription } from "../src/state";

describe("sandbox actions", () => {
  it("confirm: PIX/BOLETO become RECEIVED with paymentDate, card becomes CONFIRMED", async () => {
    const sim = account();
    const today = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10); // São Paulo, the upstream's clock
    for (const billingType of ["PIX", "BOLETO", "UNDEFINED"]) {
      const p = await createPayment(sim, { billingType });
      const res = await sim.json<Answer<Payment>>("POST", `/v3/sandbox/payment/${p.id}/confirm`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: p.id, status: "RECEIVED", paymentDate: today });
    }
    const card = await createPayment(sim, { billingType: "CREDIT_CARD" });
    expect((await sim.json<Answer<Payment>>("POST", `/v3/sandbox/payment/${card.id}/confirm`)).body.status).toBe("CONFIRMED");
  });

  it("confirm only from PENDING/OVERDUE; overdue only from PENDING", async () => {
    const sim = account();
    const p = await createPayment(sim);
    const overdue = await sim.json<Answer<Payment>>("POST", `/v3/sandbox/payment/${p.id}/overdue`);
    expect(overdue.body.status).toBe("OVERDUE");
    expect((await sim.json<Answer<Payment>>("POST", `/v3/sandbox/payment/${p.id}/overdue`)).status).toBe(400);
    expect((await sim.json<Answer<Payment>>("POST", `/v3/sandbox/payment/${p.id}/confirm`)).body.status).toBe("RECEIVED");
    const again = await sim.json<Answer<Payment>>("POST", `/v3/sandbox/payment/${p.id}/confirm`);
    expect(again.status).toBe(400);
    expect(again.body.errors[0]!.code).toBe("invalid_action");
  });

  it("approves the account", async () => {
    const res = await account().json("POST", "/v3/sandbox/myAccount/approve");
    expect(res.body).toMatchObject({ general: "APPROVED", commercialInfo: "APPROVED" });
  });
});

describe("refunds", () => {
  it("refuses refunding a pending charge", async () => {
    const sim = account();
    const p = await createPayment(sim);
    const res = await sim.json<Answer<Payment>>("POST", `/v3/payments/${p.id}/refund`, {});
    expect(res.status).toBe(400);
    expect(res.body.errors[0]!.code).toBe("invalid_action");
  });

  it("refunds partially, then the rest, and never more than the value", async () => {
    const sim = account();
    const p = await createPayment(sim, { value: 100 });
    await sim.json<Answer<Payment>>("POST", `/v3/sandbox/payment/${p.id}/confirm`);
    const partial = await sim.json<Answer<Payment>>("POST", `/v3/payments/${p.id}/refund`, { value: 30, description: "parcial" });
    expect(partial.status).toBe(200);
    expect(partial.body.status).toBe("RECEIVED");
    expect(partial.body.refunds).toHaveLength(1);
    expect(partial.body.refunds?.[0]).toMatchObject({ value: 30, status: "DONE", description: "parcial" });

    const over = await sim.json<Answer<Payment>>("POST", `/v3/payments/${p.id}/refund`, { value: 70.01 });
    expect(over.status).toBe(400);
    expect(over.body.errors[0]!.code).toBe("invalid_value");

    const rest = await sim.json<Answer<Payment>>("POST", `/v3/payments/${p.id}/refund`, {});
    expect(rest.body.status).toBe("REFUNDED");
    expect(rest.body.refunds?.map((r) => r.value)).toEqual([30, 70]);

    const list = await sim.json<Answer<SimList<Refund>>>("GET", `/v3/payments/${p.id}/refunds`);
    expect(list.body).toMatchObject({ object: "list", totalCount: 2, hasMore: false });
    expect((await sim.json<Answer<Payment>>("POST", `/v3/payments/${p.id}/refund`, { value: 1 })).status).toBe(400);
  });

  it("refunds a confirmed card charge in full", async () => {
    const sim = account();
    const p = await createPayment(sim, {
      billingType: "CREDIT_CARD",
      value: 59.9,
      creditCard: CARD,
      creditCardHolderInfo: HOLDER,
      remoteIp: "1.1.1.1",
    });
    const res = await sim.json<Answer<Payment>>("POST", `/v3/payments/${p.id}/refund`);
    expect(res.body).toMatchObject({ status: "REFUNDED", refunds: [{ value: 59.9 }] });
  });
});

describe("subscriptions", () => {
  it("creates ACTIVE and generates the first payment, advancing nextDueDate", async () => {
    const sim = account();
    const customer = (await createCustomer(sim)).id;
    const res = await sim.json<Answer<Subscription>>("POST", "/v3/subscriptions", {
      customer,
      billingType: "BOLETO",
      value: 49.9,
      nextDueDate: "2027-01-31",
      cycle: "MONTHLY",
      description: "Plano",
    });
    expect(res.status).toBe(200);
    const sub = res.body;
    expect(sub).toMatchObject({
      object: "subscription",
      status: "ACTIVE",
      cycle: "MONTHLY",
      value: 49.9,
      nextDueDate: "2027-02-28",
      deleted: false,
    });
    expect(sub.id).toMatch(/^sub_[a-z0-9]{12,}$/);

    const payments = await sim.json<Answer<SimList<Payment>>>("GET", `/v3/subscriptions/${sub.id}/payments`);
    expect(payments.body.totalCount).toBe(1);
    expect(payments.body.data[0]).toMatchObject({
      subscription: sub.id,
      dueDate: "2027-01-31",
      billingType: "BOLETO",
      value: 49.9,
      status: "PENDING",
    });
    expect((await sim.json<Answer<SimList<Payment>>>("GET", `/v3/payments?subscription=${sub.id}`)).body.totalCount).toBe(1);

    const advanced = await sim.control<Answer<Payment>>("POST", `/__sim/subscriptions/${sub.id}/advance`);
    expect(advanced.body).toMatchObject({ subscription: sub.id, dueDate: "2027-02-28" });
    expect((await sim.json<Answer<Subscription>>("GET", `/v3/subscriptions/${sub.id}`)).body.nextDueDate).toBe("2027-03-28");
  });

  it("validates cycle and customer; lists with filters; updates", async () => {
    const sim = account();
    const customer = (await createCustomer(sim)).id;
    const base = { customer, billingType: "PIX", value: 10, nextDueDate: dateIn(5), cycle: "WEEKLY" };
    expect((await sim.json<Answer<Subscription>>("POST", "/v3/subscriptions", { ...base, cycle: "DAILY" })).body.errors[0]!.code).toBe(
      "invalid_cycle",
    );
    expect((await sim.json<Answer<Subscription>>("POST", "/v3/subscriptions", { ...base, customer: "cus_nope00000000" })).status).toBe(400);
    const sub = (await sim.json<Answer<Subscription>>("POST", "/v3/subscriptions", { ...base, externalReference: "plan-1" })).body;
    expect((await sim.json<Answer<SimList<Subscription>>>("GET", `/v3/subscriptions?customer=${customer}`)).body.totalCount).toBe(1);
    expect((await sim.json<Answer<SimList<Subscription>>>("GET", "/v3/subscriptions?externalReference=plan-1")).body.data[0]!.id).toBe(
      sub.id,
    );
    expect((await sim.json<Answer<SimList<Subscription>>>("GET", "/v3/subscriptions?status=INACTIVE")).body.totalCount).toBe(0);
    const updated = await sim.json<Answer<Subscription>>("PUT", `/v3/subscriptions/${sub.id}`, { value: 20, updatePendingPayments: true });
    expect(updated.body.value).toBe(20);
    expect((await sim.json<Answer<SimList<Payment>>>("GET", `/v3/subscriptions/${sub.id}/payments`)).body.data[0]!.value).toBe(20);
  });

  it("delete inactivates it and deletes its pending payments", async () => {
    const sim = account();
    const customer = (await createCustomer(sim)).id;
    const sub = (
      await sim.json<Answer<Subscription>>("POST", "/v3/subscriptions", {
        customer,
        billingType: "PIX",
        value: 10,
        nextDueDate: dateIn(5),
        cycle: "YEARLY",
      })
    ).body;
    const res = await sim.json<Answer<Deleted>>("DELETE", `/v3/subscriptions/${sub.id}`);
    expect(res.body).toEqual({ deleted: true, id: sub.id });
    expect((await sim.json<Answer<Subscription>>("GET", `/v3/subscriptions/${sub.id}`)).body).toMatchObject({
      status: "INACTIVE",
      deleted: true,
    });
    expect((await sim.json<Answer<SimList<Payment>>>("GET", `/v3/payments?subscription=${sub.id}`)).body.totalCount).toBe(0);
  });

  it("charges a card subscription at once", async () => {
    const sim = account();
    const customer = (await createCustomer(sim)).id;
    const sub = await sim.json<Answer<Subscription>>("POST", "/v3/subscriptions", {
      customer,
      billingType: "CREDIT_CARD",
      value: 30,
      nextDueDate: dateIn(0),
      cycle: "MONTHLY",
      creditCard: CARD,
      creditCardHolderInfo: HOLDER,
      remoteIp: "1.1.1.1",
    });
    expect(sub.status).toBe(200);
    const payments = await sim.json<Answer<SimList<Payment>>>("GET", `/v3/subscriptions/${sub.body.id}/payments`);
    expect(payments.body.data[0]!.status).toBe("CONFIRMED");
    const refused = await sim.json<Answer<Subscription>>("POST", "/v3/subscriptions", {
      customer,
      billingType: "CREDIT_CARD",
      value: 30,
      nextDueDate: dateIn(0),
      cycle: "MONTHLY",
      creditCard: { ...CARD, number: "5184019740373151" },
      creditCardHolderInfo: HOLDER,
      remoteIp: "1.1.1.1",
    });
    expect(refused.status).toBe(400);
  });
});

/** Checks a PDF's skeleton: header, trailer, and that every xref offset points at its object. */
function expectValidPdf(bytes: ArrayBuffer): string {
  const text = new TextDecoder().decode(bytes);
  expect(text.startsWith("%PDF-1.4\n")).toBe(true);
  expect(text.endsWith("%%EOF\n")).toBe(true);
  const xrefAt = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
  expect(text.slice(xrefAt, xrefAt + 5)).toBe("xref\n");
  const entries = [...text.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
  expect(entries.length).toBeGreaterThan(0);
  for (const [i, offset] of entries.entries()) expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
  const length = Number(/\/Length (\d+) >>\nstream\n/.exec(text)![1]);
  const streamStart = text.indexOf("stream\n") + "stream\n".length;
  expect(text.slice(streamStart + length, streamStart + length + "\nendstream".length)).toBe("\nendstream");
  return text;
}

describe("payment book (carnê)", () => {
  it("a subscription's carnê is a PDF listing its charges", async () => {
    const sim = account();
    const customer = (await createCustomer(sim)).id;
    const sub = (
      await sim.json<Answer<Subscription>>("POST", "/v3/subscriptions", {
        customer,
        billingType: "BOLETO",
        value: 49.9,
        nextDueDate: "2027-01-31",
        cycle: "MONTHLY",
      })
    ).body;
    await sim.control<Answer<Payment>>("POST", `/__sim/subscriptions/${sub.id}/advance`);
    const res = await sim.call("GET", `/v3/subscriptions/${sub.id}/paymentBook`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="carne-${sub.id}.pdf"`);
    const text = expectValidPdf(await res.arrayBuffer());
    expect(text).toContain(`(Carne da assinatura ${sub.id}) Tj`);
    expect(text).toContain("(Parcela 1 de 2  vencimento 2027-01-31  R$ 49.90  BOLETO  PENDING");
    expect(text).toContain("(Parcela 2 de 2  vencimento 2027-02-28");
  });

  it("an unknown subscription is the upstream's JSON 404; an installment's carnê is a PDF", async () => {
    const sim = account();
    const missing = await sim.json<AsaasErrors>("GET", "/v3/subscriptions/sub_nope00000000/paymentBook");
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0]!.code).toBeDefined();
    expect((await sim.call("GET", "/v3/installments/ins_000000000001/paymentBook")).status).toBe(404);
    const first = await createPayment(sim, { installmentCount: 2, totalValue: 50, value: undefined });
    const res = await sim.call("GET", `/v3/installments/${first.installment}/paymentBook`);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const text = expectValidPdf(await res.arrayBuffer());
    expect(text).toContain(`(Carne do parcelamento ${first.installment}) Tj`);
    expect(text).toContain("Parcela 2 de 2");
  });
});
