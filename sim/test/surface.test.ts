// Auth, list shape and paging, catalogue resources with real state, 404 outside the catalogue.
import { describe, expect, it } from "vitest";
import { account, createCustomer, createPayment, dateIn, fetchSim } from "./helpers";
import type { Answer, AsaasErrors, SimList } from "./helpers";
import type { Customer, Payment } from "../src/state";

describe("auth", () => {
  it("rejects a missing access_token with the upstream 401 body", async () => {
    const res = await fetchSim("/v3/customers");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      errors: [{ code: "invalid_access_token", description: "A chave de API fornecida é inválida" }],
    });
  });

  it("rejects a token without the $aact_ prefix", async () => {
    const res = await fetchSim("/v3/customers", { headers: { access_token: "Bearer abc" } });
    expect(res.status).toBe(401);
  });

  it("accepts any $aact_ token and keeps accounts apart", async () => {
    const a = account();
    const b = account();
    await createCustomer(a);
    expect((await a.json<Answer<SimList<Customer>>>("GET", "/v3/customers")).body.totalCount).toBe(1);
    expect((await b.json<Answer<SimList<Customer>>>("GET", "/v3/customers")).body.totalCount).toBe(0);
  });
});

describe("lists", () => {
  it("uses the upstream envelope with offset/limit paging, newest first", async () => {
    const sim = account();
    for (let i = 0; i < 12; i++) await createCustomer(sim, { name: `Cliente ${i}` });
    const first = await sim.json<Answer<SimList<Customer>>>("GET", "/v3/customers");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: "list", hasMore: true, totalCount: 12, limit: 10, offset: 0 });
    expect(first.body.data).toHaveLength(10);
    expect(first.body.data[0]!.name).toBe("Cliente 11");
    const second = await sim.json<Answer<SimList<Customer>>>("GET", "/v3/customers?offset=10&limit=5");
    expect(second.body).toMatchObject({ hasMore: false, totalCount: 12, limit: 5, offset: 10 });
    expect(second.body.data.map((c: { name: unknown }) => c.name)).toEqual(["Cliente 1", "Cliente 0"]);
  });

  it("refuses limit above 100 and below 1", async () => {
    const sim = account();
    for (const limit of ["101", "0", "abc"]) {
      const res = await sim.json<Answer<SimList<Payment>>>("GET", `/v3/payments?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0]!.code).toBe("invalid_limit");
    }
    expect((await sim.json<Answer<SimList<Payment>>>("GET", "/v3/payments?limit=100")).status).toBe(200);
  });
});

describe("catalogue resources keep real state", () => {
  it("lists installment plans: none, then the plan a POST /payments with installmentCount made", async () => {
    const sim = account();
    const empty = await sim.json("GET", "/v3/installments?limit=20");
    expect(empty.body).toEqual({ object: "list", hasMore: false, totalCount: 0, limit: 20, offset: 0, data: [] });
    const first = await createPayment(sim, { installmentCount: 3, totalValue: 100, value: undefined });
    const plans = await sim.json<SimList<Record<string, unknown>>>("GET", "/v3/installments");
    expect(plans.body.totalCount).toBe(1);
    expect(plans.body.data[0]).toMatchObject({
      object: "installment",
      id: first.installment,
      installmentCount: 3,
      value: 100,
      paymentValue: 33.34,
    });
  });

  it("answers 404 for a record that was never created", async () => {
    const sim = account();
    for (const path of ["/v3/paymentLinks/lnk_123/images/img_9", "/v3/transfers/tra_1", "/v3/installments/ins_1", "/v3/bill/bil_1"]) {
      const res = await sim.json<AsaasErrors>("GET", path);
      expect(res.status, path).toBe(404);
      expect(res.body.errors[0]!.code).toBe("not_found");
    }
  });

  it("prefers literal segments over parameters (/v3/payments/limits is not a payment id)", async () => {
    const sim = account();
    await createPayment(sim);
    const res = await sim.json("GET", "/v3/payments/limits");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ creation: { daily: { limit: 1000, used: 1, wasReached: false } } });
  });

  it("receiveInCash answers the updated payment (RECEIVED_IN_CASH); undoReceivedInCash reverts it", async () => {
    const sim = account();
    const payment = await createPayment(sim, { value: 80 });
    const cash = await sim.json<Payment>("POST", `/v3/payments/${payment.id}/receiveInCash`, { paymentDate: dateIn(0), value: 75 });
    expect(cash.body).toMatchObject({ id: payment.id, object: "payment", status: "RECEIVED_IN_CASH", value: 75, paymentDate: dateIn(0) });
    expect((await sim.json<Payment>("GET", `/v3/payments/${payment.id}`)).body.status).toBe("RECEIVED_IN_CASH");
    const again = await sim.json<AsaasErrors>("POST", `/v3/payments/${payment.id}/receiveInCash`, {});
    expect(again.status).toBe(400);
    const undo = await sim.json<Payment>("POST", `/v3/payments/${payment.id}/undoReceivedInCash`, {});
    expect(undo.body).toMatchObject({ id: payment.id, status: "PENDING", paymentDate: null });
  });

  it("transfers are stored, listed, cancelled; balance and statement come from received payments and transfers", async () => {
    const sim = account();
    const payment = await createPayment(sim, { value: 100 });
    await sim.json("POST", `/v3/sandbox/payment/${payment.id}/confirm`, {});
    expect((await sim.json("GET", "/v3/finance/balance")).body).toEqual({ balance: 99.01 });
    const transfer = await sim.json<Record<string, unknown>>("POST", "/v3/transfers", {
      value: 30,
      pixAddressKey: "a@b.c",
      pixAddressKeyType: "EMAIL",
    });
    expect(transfer.body).toMatchObject({
      object: "transfer",
      type: "PIX",
      status: "PENDING",
      value: 30,
      bankAccount: { pixAddressKey: "a@b.c" },
    });
    const listed = await sim.json<SimList<Record<string, unknown>>>("GET", "/v3/transfers");
    expect(listed.body.data.map((t) => t.id)).toEqual([transfer.body.id]);
    expect((await sim.json("GET", "/v3/finance/balance")).body).toEqual({ balance: 69.01 });
    const statement = await sim.json<SimList<Record<string, unknown>>>("GET", "/v3/financialTransactions");
    expect(statement.body.data.map((e) => [e.type, e.value, e.balance])).toEqual([
      ["PAYMENT_RECEIVED", 100, 100],
      ["PAYMENT_FEE", -0.99, 99.01],
      ["TRANSFER", -30, 69.01],
    ]);
    const cancelled = await sim.json("DELETE", `/v3/transfers/${transfer.body.id}/cancel`);
    expect(cancelled.body).toMatchObject({ id: transfer.body.id, status: "CANCELLED" });
    expect((await sim.json("GET", "/v3/finance/balance")).body).toEqual({ balance: 99.01 });
    expect((await sim.json("GET", "/v3/finance/payment/statistics?status=RECEIVED")).body).toEqual({
      quantity: 1,
      value: 100,
      netValue: 99.01,
    });
  });

  it("wallets are a list holding the account's wallet", async () => {
    const sim = account();
    const wallets = await sim.json<SimList<{ object: string; id: string }>>("GET", "/v3/wallets/");
    expect(wallets.body).toMatchObject({ object: "list", totalCount: 1 });
    expect(wallets.body.data[0]!.object).toBe("wallet");
    expect((await sim.json<SimList<{ id: string }>>("GET", "/v3/wallets")).body.data[0]!.id).toBe(wallets.body.data[0]!.id);
  });

  it("stores multipart uploads (a payment's documents) and lists them", async () => {
    const sim = account();
    const payment = await createPayment(sim);
    const form = new FormData();
    form.append("availableAfterPayment", "true");
    form.append("type", "DOCUMENT");
    form.append("file", new File(["hello pdf"], "contrato.pdf", { type: "application/pdf" }));
    const res = await fetchSim(`/v3/payments/${payment.id}/documents`, {
      method: "POST",
      headers: { access_token: sim.token },
      body: form,
    });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { id: string };
    expect(doc).toMatchObject({
      name: "contrato.pdf",
      type: "DOCUMENT",
      availableAfterPayment: true,
      file: { originalName: "contrato.pdf", size: 9, extension: "pdf" },
    });
    const listed = await sim.json<SimList<{ id: string }>>("GET", `/v3/payments/${payment.id}/documents`);
    expect(listed.body.data.map((d) => d.id)).toEqual([doc.id]);
    const missing = await fetchSim("/v3/payments/pay_nope/documents", { method: "POST", headers: { access_token: sim.token }, body: form });
    expect(missing.status).toBe(404);
  });

  it("refuses bad input with the upstream error envelope and stores nothing", async () => {
    const sim = account();
    const bad = await sim.json<AsaasErrors>("POST", "/v3/transfers", { value: -5, pixAddressKey: "a@b.c" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]!.code).toBe("invalid_value");
    const split = await sim.json<AsaasErrors>("POST", "/v3/payments", {
      customer: (await createCustomer(sim)).id,
      billingType: "PIX",
      value: 10,
      dueDate: dateIn(2),
      split: [{ walletId: "w", fixedValue: 50 }],
    });
    expect(split.body.errors[0]!.code).toBe("invalid_split");
    expect((await sim.json<SimList<unknown>>("GET", "/v3/transfers")).body.totalCount).toBe(0);
    expect((await sim.json<SimList<unknown>>("GET", "/v3/payments")).body.totalCount).toBe(0);
  });

  it("answers 404 not_found outside the catalogue", async () => {
    const sim = account();
    for (const [method, path] of [
      ["GET", "/v3/nothing"],
      ["PATCH", "/v3/customers/cus_1"],
      ["GET", "/v2/customers"],
    ] as const) {
      const res = await sim.json<AsaasErrors>(method, path);
      expect(res.status).toBe(404);
      expect(res.body.errors[0]!.code).toBe("not_found");
    }
  });
});
