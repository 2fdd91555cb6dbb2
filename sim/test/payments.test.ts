import { describe, expect, it } from "vitest";
import { brCodeCrcValid, parseEmv } from "../src/brcode";
import { account, CARD, createCustomer, createPayment, dateIn, HOLDER } from "./helpers";
import type { Answer, AsaasErrors, SimList, Deleted } from "./helpers";
import type { Payment } from "../src/state";

describe("payments", () => {
  it.each(["PIX", "BOLETO", "CREDIT_CARD", "UNDEFINED"])("creates a %s charge as PENDING", async (billingType) => {
    const sim = account();
    const p = await createPayment(sim, {
      billingType,
      value: 129.9,
      description: "Pedido 1",
      externalReference: "ord_1",
      fine: { value: 2 },
    });
    expect(p).toMatchObject({
      object: "payment",
      billingType,
      value: 129.9,
      status: "PENDING",
      description: "Pedido 1",
      externalReference: "ord_1",
      deleted: false,
    });
    expect(p.fine).toEqual({ value: 2 });
    expect(p.id).toMatch(/^pay_[a-z0-9]{12,}$/);
    expect(p.invoiceUrl).toMatch(/^https?:\/\//);
    expect(p.nossoNumero).toMatch(/^\d+$/);
    expect(typeof p.netValue).toBe("number");
    const boleto = billingType === "BOLETO" || billingType === "UNDEFINED";
    expect(p.bankSlipUrl === null).toBe(!boleto);
  });

  it("validates customer, billingType, value and dueDate", async () => {
    const sim = account();
    const customer = (await createCustomer(sim)).id;
    const base = { customer, billingType: "PIX", value: 10, dueDate: dateIn(1) };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ customer: "cus_missing000000" }, "invalid_customer"],
      [{ billingType: "CASH" }, "invalid_billingType"],
      [{ value: 0 }, "invalid_value"],
      [{ value: -5 }, "invalid_value"],
      [{ dueDate: "2026-02-30" }, "invalid_dueDate"],
    ];
    for (const [override, code] of cases) {
      const res = await sim.json<Answer<Payment>>("POST", "/v3/payments", { ...base, ...override });
      expect(res.status, code).toBe(400);
      expect(res.body.errors[0]!.code).toBe(code);
    }
  });

  it("lists with filters, gets, reads status, updates", async () => {
    const sim = account();
    const a = await createPayment(sim, { billingType: "PIX", externalReference: "x1" });
    const b = await createPayment(sim, { billingType: "BOLETO", customer: a.customer });
    expect((await sim.json<Answer<SimList<Payment>>>("GET", `/v3/payments?customer=${a.customer}`)).body.totalCount).toBe(2);
    expect((await sim.json<Answer<SimList<Payment>>>("GET", "/v3/payments?billingType=BOLETO")).body.data[0]!.id).toBe(b.id);
    expect((await sim.json<Answer<SimList<Payment>>>("GET", "/v3/payments?externalReference=x1")).body.data[0]!.id).toBe(a.id);
    expect((await sim.json<Answer<SimList<Payment>>>("GET", "/v3/payments?status=RECEIVED")).body.totalCount).toBe(0);
    expect((await sim.json<Answer<Payment>>("GET", `/v3/payments/${a.id}`)).body.id).toBe(a.id);
    expect((await sim.json("GET", `/v3/payments/${a.id}/status`)).body).toEqual({ status: "PENDING" });
    const updated = await sim.json<Answer<Payment>>("PUT", `/v3/payments/${a.id}`, { value: 50, description: "novo" });
    expect(updated.body).toMatchObject({ value: 50, description: "novo" });
  });

  it("deletes only open charges and restores them", async () => {
    const sim = account();
    const p = await createPayment(sim);
    expect((await sim.json<Answer<Deleted>>("DELETE", `/v3/payments/${p.id}`)).body).toEqual({ deleted: true, id: p.id });
    expect((await sim.json<Answer<SimList<Payment>>>("GET", "/v3/payments")).body.totalCount).toBe(0);
    const restored = await sim.json<Answer<Payment>>("POST", `/v3/payments/${p.id}/restore`);
    expect(restored.body).toMatchObject({ id: p.id, deleted: false });
    await sim.json<Answer<Payment>>("POST", `/v3/sandbox/payment/${p.id}/confirm`);
    const res = await sim.json<Answer<Deleted>>("DELETE", `/v3/payments/${p.id}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]!.code).toBe("invalid_action");
  });

  it("returns a boleto typeable line and barcode", async () => {
    const sim = account();
    const p = await createPayment(sim, { billingType: "BOLETO", value: 250.5 });
    const res = await sim.json<{ identificationField: string; barCode: string; nossoNumero: string }>(
      "GET",
      `/v3/payments/${p.id}/identificationField`,
    );
    expect(res.status).toBe(200);
    expect(res.body.identificationField).toMatch(/^\d{47}$/);
    expect(res.body.barCode).toMatch(/^\d{44}$/);
    expect(res.body.nossoNumero).toBe(p.nossoNumero);
    expect(res.body.barCode.slice(9, 19)).toBe("0000025050");
    const pix = await createPayment(sim, { billingType: "PIX" });
    expect((await sim.json("GET", `/v3/payments/${pix.id}/identificationField`)).status).toBe(400);
  });

  it("returns a valid PIX BR Code and a PNG QR image", async () => {
    const sim = account();
    const p = await createPayment(sim, { billingType: "PIX", value: 1234.56 });
    const res = await sim.json<{ payload: string; encodedImage: string; expirationDate: string }>("GET", `/v3/payments/${p.id}/pixQrCode`);
    expect(res.status).toBe(200);
    const { payload, encodedImage, expirationDate } = res.body;
    expect(brCodeCrcValid(payload)).toBe(true);
    const fields = parseEmv(payload);
    expect(fields.get("00")).toBe("01");
    expect(fields.get("01")).toBe("12");
    expect(fields.get("26")).toContain("br.gov.bcb.pix");
    expect(fields.get("53")).toBe("986");
    expect(fields.get("54")).toBe("1234.56");
    expect(fields.get("58")).toBe("BR");
    expect(expirationDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const png = Uint8Array.from(atob(encodedImage), (ch) => ch.charCodeAt(0));
    expect([...png.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(new TextDecoder().decode(png.slice(12, 16))).toBe("IHDR");
  });
});

describe("credit card", () => {
  it("charges an approved card at once: CONFIRMED with last4, brand and token", async () => {
    const sim = account();
    const p = await createPayment(sim, {
      billingType: "CREDIT_CARD",
      creditCard: CARD,
      creditCardHolderInfo: HOLDER,
      remoteIp: "10.0.0.1",
    });
    expect(p.status).toBe("CONFIRMED");
    expect(p.creditCard).toMatchObject({ creditCardNumber: "1111", creditCardBrand: "VISA" });
    expect(p.creditCard?.creditCardToken).toBeTruthy();
    expect(JSON.stringify(p)).not.toContain(CARD.number);
    const again = await createPayment(sim, {
      billingType: "CREDIT_CARD",
      customer: p.customer,
      creditCardToken: p.creditCard?.creditCardToken,
    });
    expect(again.status).toBe("CONFIRMED");
  });

  it.each(["5184019740373151", "4916561358240741"])("refuses test card %s as not authorized", async (number) => {
    const sim = account();
    const customer = (await createCustomer(sim)).id;
    const res = await sim.json<Answer<Payment>>("POST", "/v3/payments", {
      customer,
      billingType: "CREDIT_CARD",
      value: 10,
      dueDate: dateIn(1),
      creditCard: { ...CARD, number },
      creditCardHolderInfo: HOLDER,
      remoteIp: "10.0.0.1",
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]!.description).toMatch(/não autorizada/);
    expect((await sim.json<Answer<SimList<Payment>>>("GET", "/v3/payments")).body.totalCount).toBe(0);
  });

  it("rejects a card failing Luhn or expired, and an unknown token", async () => {
    const sim = account();
    const customer = (await createCustomer(sim)).id;
    const base = { customer, billingType: "CREDIT_CARD", value: 10, dueDate: dateIn(1), creditCardHolderInfo: HOLDER, remoteIp: "1.1.1.1" };
    const luhn = await sim.json<Answer<Payment>>("POST", "/v3/payments", { ...base, creditCard: { ...CARD, number: "4111111111111112" } });
    expect(luhn.status).toBe(400);
    const expired = await sim.json<Answer<Payment>>("POST", "/v3/payments", { ...base, creditCard: { ...CARD, expiryYear: "2020" } });
    expect(expired.status).toBe(400);
    const token = await sim.json<Answer<Payment>>("POST", "/v3/payments", { ...base, creditCardToken: "nope" });
    expect(token.body.errors[0]!.code).toBe("invalid_creditCardToken");
  });

  it("tokenizes a card", async () => {
    const sim = account();
    const customer = (await createCustomer(sim)).id;
    const res = await sim.json<Answer<{ creditCardToken: string; creditCardNumber: string; creditCardBrand: string }>>(
      "POST",
      "/v3/creditCard/tokenizeCreditCard",
      {
        customer,
        creditCard: { ...CARD, number: "5555555555554444" },
        creditCardHolderInfo: HOLDER,
        remoteIp: "1.2.3.4",
      },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ creditCardNumber: "4444", creditCardBrand: "MASTERCARD", creditCardToken: expect.any(String) });
    const bad = await sim.json<AsaasErrors>("POST", "/v3/creditCard/tokenizeCreditCard", {
      customer,
      creditCard: { ...CARD, number: "1234" },
      creditCardHolderInfo: HOLDER,
      remoteIp: "1.2.3.4",
    });
    expect(bad.status).toBe(400);
    const charged = await createPayment(sim, { customer, billingType: "CREDIT_CARD", creditCardToken: res.body.creditCardToken });
    expect(charged.creditCard?.creditCardNumber).toBe("4444");
  });
});

describe("installment plans", () => {
  it("installmentCount + totalValue creates one payment per instalment, a month apart, the leftover cents on the first", async () => {
    const sim = account();
    const customer = (await createCustomer(sim)).id;
    const res = await sim.json<Answer<Payment>>("POST", "/v3/payments", {
      customer,
      billingType: "BOLETO",
      dueDate: "2027-01-31",
      installmentCount: 3,
      totalValue: 100,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ installmentNumber: 1, value: 33.34, dueDate: "2027-01-31" });
    const plan = await sim.json<Answer<SimList<Payment>>>("GET", `/v3/payments?installment=${res.body.installment}`);
    const rows = plan.body.data.sort((a, b) => Number(a.installmentNumber) - Number(b.installmentNumber));
    expect(rows.map((p) => [p.installmentNumber, p.value, p.dueDate])).toEqual([
      [1, 33.34, "2027-01-31"],
      [2, 33.33, "2027-02-28"],
      [3, 33.33, "2027-03-31"],
    ]);
    const refused = await sim.json<AsaasErrors>("POST", "/v3/payments", {
      customer,
      billingType: "PIX",
      dueDate: "2027-01-31",
      installmentCount: 3,
    });
    expect(refused.body.errors[0]!.code).toBe("invalid_value");
  });
});
