// The Asaas dialect (issue 16): a merchant migrating from Asaas changes only the base URL and the key.
// Every call here is in Asaas's wire format — the key in `access_token`, Asaas's bodies, ids and
// aliases — and every answer is checked in Asaas's shapes, against the simulator as the upstream.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { HOLDER, card, dueDate, seedBillingTenant, simRequests, type BillingTenant } from "./billing-support";
import { API_V1_CLIENT, asaasCall, type Json } from "./asaas-support";
import { BASE, call } from "./support";

/** A call as an Asaas client makes it, at `/api/v1` with `access_token` (test/workers/asaas-support.ts). */
const asaas = (t: BillingTenant, method: string, path: string, body?: unknown) => asaasCall(API_V1_CLIENT, t.key, method, path, body);

const ok = (res: { status: number; body: Json }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).not.toHaveProperty("meta");
  return res.body;
};

async function newCustomer(t: BillingTenant, extra: Json = {}) {
  return ok(await asaas(t, "POST", "/customers", { name: "Maria Silva", cpfCnpj: "52998224725", email: "maria@example.com", ...extra }));
}

async function pixCharge(t: BillingTenant, customer: string, extra: Json = {}) {
  return ok(await asaas(t, "POST", "/payments", { customer, billingType: "PIX", value: 129.9, dueDate: dueDate(), ...extra }));
}

const ponteRow = (table: string, upstreamId: string) =>
  env.DB.prepare(`SELECT * FROM ${table} WHERE upstream_id = ?`).bind(upstreamId).first<Json>();

describe("Asaas dialect: authentication and errors", () => {
  it("access_token authenticates with the Ponte key; a wrong one is Asaas's 401 with Ponte's request id header", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const list = ok(await asaas(t, "GET", "/customers"));
    expect(list).toEqual({ object: "list", hasMore: false, totalCount: 0, limit: 10, offset: 0, data: [] });

    const bad = await asaas({ ...t, key: "ponte_test_nope" }, "GET", "/customers");
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ errors: [{ code: "invalid_access_token", description: expect.any(String) }] });
    expect(bad.headers.get("X-Request-Id")).toMatch(/^req_/);
  });

  it("errors: {errors: [{code, description}]} with Asaas's statuses — a field error, an unknown record, an unknown path", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const invalid = await asaas(t, "POST", "/customers", { name: "Maria", cpfCnpj: "123" });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual([{ code: "invalid_cpfCnpj", description: expect.stringContaining("body.cpfCnpj") }]);
    expect(invalid.headers.get("X-Request-Id")).toMatch(/^req_/);

    const missing = await asaas(t, "GET", "/payments/pay_000000000000");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ errors: [{ code: "not_found", description: expect.any(String) }] });

    const unknown = await asaas(t, "GET", "/nothing-here");
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe("not_found");

    // A refund of an open charge: Ponte's 409 INVALID_STATE is Asaas's 400.
    const customer = await newCustomer(t);
    const charge = await pixCharge(t, customer.id);
    const refused = await asaas(t, "POST", `/payments/${charge.id}/refund`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: "invalid_state" });
  });
});

describe("Asaas dialect: customers", () => {
  it("create, update by POST, get and list by the upstream id; delete answers {deleted, id}", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const created = await newCustomer(t, { mobilePhone: "11999990000", externalReference: "crm-42" });
    expect(created).toMatchObject({
      object: "customer",
      id: expect.stringMatching(/^cus_/),
      dateCreated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      name: "Maria Silva",
      cpfCnpj: "52998224725",
      personType: "FISICA",
      email: "maria@example.com",
      mobilePhone: "11999990000",
      externalReference: "crm-42",
      deleted: false,
    });
    expect(created).not.toHaveProperty("upstreamId");
    // Ponte holds the record under that upstream id.
    expect((await ponteRow("customers", created.id))?.name).toBe("Maria Silva");

    const updated = ok(await asaas(t, "POST", `/customers/${created.id}`, { name: "Maria S. Souza" }));
    expect(updated).toMatchObject({ object: "customer", id: created.id, name: "Maria S. Souza" });
    expect((await ponteRow("customers", created.id))?.name).toBe("Maria S. Souza");

    expect(ok(await asaas(t, "GET", `/customers/${created.id}`)).name).toBe("Maria S. Souza");
    const list = ok(await asaas(t, "GET", "/customers?limit=5"));
    expect(list).toMatchObject({ object: "list", hasMore: false, totalCount: 1, limit: 5, offset: 0 });
    expect(list.data.map((c: Json) => c.id)).toEqual([created.id]);

    const removed = ok(await asaas(t, "DELETE", `/customers/${created.id}`));
    expect(removed).toEqual({ deleted: true, id: created.id });
    expect((await ponteRow("customers", created.id))?.deleted_at).not.toBeNull();
    // Restore: a bodiless POST action reads as {}.
    expect(ok(await asaas(t, "POST", `/customers/${created.id}/restore`))).toMatchObject({ id: created.id, deleted: false });
  });
});

describe("Asaas dialect: lists", () => {
  it("pages with limit and offset: hasMore is true until the last page, and the pages hold every record once", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const created = (
      await Promise.all(Array.from({ length: 12 }, (_, i) => newCustomer(t, { name: `Cliente ${i}`, externalReference: `crm-${i}` })))
    ).map((c) => c.id as string);
    const pages = [];
    for (const offset of [0, 5, 10]) pages.push(ok(await asaas(t, "GET", `/customers?limit=5&offset=${offset}`)));
    expect(pages.map((p) => [p.hasMore, p.totalCount, p.limit, p.offset, p.data.length])).toEqual([
      [true, 12, 5, 0, 5],
      [true, 12, 5, 5, 5],
      [false, 12, 5, 10, 2],
    ]);
    const seen = pages.flatMap((p) => p.data.map((c: Json) => c.id));
    expect([...seen].sort()).toEqual([...created].sort());
    // Twelve creates through the upstream: seconds on a loaded machine.
  }, 30_000);
});

describe("Asaas dialect: charges", () => {
  it("PIX: money as numbers, the upstream ids, pixQrCode, status; a Ponte UUID in the path works too", async () => {
    const t = await seedBillingTenant();
    const customer = await newCustomer(t);
    const charge = await pixCharge(t, customer.id, { description: "Pedido 1001" });
    expect(charge).toMatchObject({
      object: "payment",
      id: expect.stringMatching(/^pay_/),
      customer: customer.id,
      value: 129.9,
      billingType: "PIX",
      status: "PENDING",
      dueDate: dueDate(),
      description: "Pedido 1001",
      deleted: false,
      dateCreated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    const row = await ponteRow("payments", charge.id);
    expect(row).toMatchObject({ value_cents: 12990, billing_type: "PIX" });

    const qr = ok(await asaas(t, "GET", `/payments/${charge.id}/pixQrCode`));
    expect(qr).toEqual({ encodedImage: expect.any(String), payload: expect.stringMatching(/^000201/), expirationDate: expect.any(String) });
    expect(ok(await asaas(t, "GET", `/payments/${charge.id}/status`))).toEqual({ status: "PENDING" });
    expect(ok(await asaas(t, "GET", `/payments/${row?.id}`)).id).toBe(charge.id);

    const filtered = ok(await asaas(t, "GET", `/payments?customer=${customer.id}&billingType=PIX`));
    expect(filtered).toMatchObject({ object: "list", totalCount: 1 });
    expect(filtered.data[0]).toMatchObject({ id: charge.id, customer: customer.id, value: 129.9 });

    // The sandbox pays it (passthrough, upstream id in the path); a full refund with no body.
    ok(await asaas(t, "POST", `/sandbox/payment/${charge.id}/confirm`));
    expect(ok(await asaas(t, "GET", `/payments/${charge.id}`)).status).toBe("RECEIVED");
    const refunded = ok(await asaas(t, "POST", `/payments/${charge.id}/refund`));
    expect(refunded).toMatchObject({ object: "payment", id: charge.id, status: "REFUNDED", refundedValue: 129.9 });
    const refunds = ok(await asaas(t, "GET", `/payments/${charge.id}/refunds`));
    expect(refunds).toMatchObject({ object: "list", totalCount: 1 });
    expect(refunds.data[0]).toMatchObject({ status: "DONE", value: 129.9 });
  });

  it("boleto: bankSlipUrl; update by POST /payments/{id}; delete answers {deleted, id}", async () => {
    const t = await seedBillingTenant();
    const customer = await newCustomer(t);
    const boleto = ok(
      await asaas(t, "POST", "/payments", { customer: customer.id, billingType: "BOLETO", value: 50, dueDate: dueDate(10) }),
    );
    expect(boleto).toMatchObject({ object: "payment", billingType: "BOLETO", value: 50, bankSlipUrl: expect.any(String) });
    // POST /payments/{id} is Asaas's update: forwarded (PUT) and synced into Ponte's record.
    const updated = ok(await asaas(t, "POST", `/payments/${boleto.id}`, { value: 75, dueDate: dueDate(12) }));
    expect(updated).toMatchObject({ object: "payment", id: boleto.id, value: 75 });
    expect((await ponteRow("payments", boleto.id))?.value_cents).toBe(7500);
    expect((await simRequests(t, "PUT", `/v3/payments/${boleto.id}`)).length).toBe(1);

    expect(ok(await asaas(t, "DELETE", `/payments/${boleto.id}`))).toEqual({ deleted: true, id: boleto.id });
    expect((await ponteRow("payments", boleto.id))?.status).toBe("CANCELED");
  });

  it("card: tokenizeCreditCard, a charge with the token answers creditCard.creditCardToken", async () => {
    const t = await seedBillingTenant();
    const customer = await newCustomer(t);
    const token = ok(
      await asaas(t, "POST", "/creditCard/tokenizeCreditCard", {
        customer: customer.id,
        creditCard: card(),
        creditCardHolderInfo: HOLDER,
        remoteIp: "203.0.113.7",
      }),
    );
    expect(token).toEqual({ creditCardNumber: "1111", creditCardBrand: expect.any(String), creditCardToken: expect.any(String) });
    const charge = ok(
      await asaas(t, "POST", "/payments", {
        customer: customer.id,
        billingType: "CREDIT_CARD",
        value: 200,
        dueDate: dueDate(),
        creditCardToken: token.creditCardToken,
        remoteIp: "203.0.113.7",
      }),
    );
    expect(charge).toMatchObject({
      object: "payment",
      status: "CONFIRMED",
      creditCard: { creditCardNumber: "1111", creditCardBrand: token.creditCardBrand, creditCardToken: token.creditCardToken },
    });
    // With raw card data, the answer carries the token the upstream issued.
    const raw = ok(
      await asaas(t, "POST", "/payments", {
        customer: customer.id,
        billingType: "CREDIT_CARD",
        value: 10,
        dueDate: dueDate(),
        creditCard: card(),
        creditCardHolderInfo: HOLDER,
        remoteIp: "203.0.113.7",
      }),
    );
    expect(raw.creditCard).toMatchObject({ creditCardNumber: "1111", creditCardToken: expect.any(String) });
  });

  it("installments: installmentCount with value (the total) or installmentValue is honoured", async () => {
    const t = await seedBillingTenant();
    const customer = await newCustomer(t);
    const first = ok(
      await asaas(t, "POST", "/payments", {
        customer: customer.id,
        billingType: "BOLETO",
        value: 100,
        dueDate: dueDate(),
        installmentCount: 3,
      }),
    );
    expect(first).toMatchObject({ object: "payment", value: 33.34, installmentNumber: 1, installment: expect.any(String) });
    const plan = ok(await asaas(t, "GET", `/payments?installment=${first.installment}`));
    expect(plan.totalCount).toBe(3);
    expect(plan.data.map((p: Json) => p.value).sort()).toEqual([33.33, 33.33, 33.34]);

    const each = ok(
      await asaas(t, "POST", "/payments", {
        customer: customer.id,
        billingType: "PIX",
        dueDate: dueDate(),
        installmentCount: 2,
        installmentValue: 49.9,
      }),
    );
    expect(each).toMatchObject({ value: 49.9, installmentNumber: 1 });
    // The installment plan itself is the upstream's (passthrough), named by the id the charge carries.
    const upstreamPlan = ok(await asaas(t, "GET", `/installments/${each.installment}`));
    expect(upstreamPlan).toMatchObject({ id: each.installment });
  });
});

describe("Asaas dialect: subscriptions", () => {
  it("created without a plan (value + cycle + nextDueDate), read by its sub_ id, removed by DELETE", async () => {
    const t = await seedBillingTenant();
    const customer = await newCustomer(t);
    const sub = ok(
      await asaas(t, "POST", "/subscriptions", {
        customer: customer.id,
        billingType: "BOLETO",
        value: 59.9,
        cycle: "MONTHLY",
        nextDueDate: dueDate(3),
        description: "Plano Pro",
      }),
    );
    expect(sub).toMatchObject({
      object: "subscription",
      id: expect.stringMatching(/^sub_/),
      customer: customer.id,
      value: 59.9,
      cycle: "MONTHLY",
      billingType: "BOLETO",
      nextDueDate: dueDate(3),
      status: "ACTIVE",
      deleted: false,
    });
    expect(sub).not.toHaveProperty("plan");
    const sent = await simRequests(t, "POST", "/v3/subscriptions");
    expect(JSON.parse(String(sent.at(-1)?.body))).toMatchObject({
      customer: customer.id,
      value: 59.9,
      cycle: "MONTHLY",
      billingType: "BOLETO",
    });

    expect(ok(await asaas(t, "GET", `/subscriptions/${sub.id}`))).toMatchObject({ id: sub.id, status: "ACTIVE" });
    expect(ok(await asaas(t, "GET", `/subscriptions?customer=${customer.id}`)).data.map((s: Json) => s.id)).toEqual([sub.id]);
    // Its charges (passthrough, by the sub_ id).
    expect(ok(await asaas(t, "GET", `/subscriptions/${sub.id}/payments`))).toMatchObject({ object: "list" });

    expect(ok(await asaas(t, "DELETE", `/subscriptions/${sub.id}`))).toEqual({ deleted: true, id: sub.id });
    expect((await ponteRow("subscriptions", sub.id))?.status).toBe("CANCELED");
    expect(ok(await asaas(t, "GET", `/subscriptions/${sub.id}`))).toMatchObject({ status: "INACTIVE", deleted: true });

    // A second one with the same terms shares the plan the dialect made.
    ok(
      await asaas(t, "POST", "/subscriptions", {
        customer: customer.id,
        billingType: "BOLETO",
        value: 59.9,
        cycle: "MONTHLY",
        nextDueDate: dueDate(4),
      }),
    );
    const plans = await env.DB.prepare("SELECT COUNT(*) AS n FROM plans WHERE workspace_id = ?").bind(t.workspaceId).first<{ n: number }>();
    expect(plans?.n).toBe(1);
  });
});

describe("Asaas dialect: passthrough", () => {
  it("transfers, balance, webhook config and account info answer unwrapped, as the upstream sent them", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const balance = ok(await asaas(t, "GET", "/finance/balance"));
    expect(balance).toEqual({ balance: 0 });
    const transfer = ok(
      await asaas(t, "POST", "/transfers", { value: 10, pixAddressKey: "maria@example.com", pixAddressKeyType: "EMAIL" }),
    );
    expect(transfer).toMatchObject({
      object: "transfer",
      id: expect.stringMatching(/^tra_/),
      value: 10,
      bankAccount: expect.objectContaining({ pixAddressKey: "maria@example.com" }),
    });
    expect(ok(await asaas(t, "GET", "/transfers"))).toMatchObject({ object: "list" });
    const hook = ok(
      await asaas(t, "POST", "/webhooks", {
        name: "erp",
        url: "https://erp.example.com/hook",
        sendType: "SEQUENTIALLY",
        events: ["PAYMENT_RECEIVED"],
      }),
    );
    expect(hook).toMatchObject({ name: "erp", url: "https://erp.example.com/hook" });
    expect(ok(await asaas(t, "GET", "/webhooks"))).toMatchObject({ object: "list" });
    expect(ok(await asaas(t, "GET", "/myAccount/commercialInfo"))).toBeTypeOf("object");
    const removed = ok(await asaas(t, "DELETE", `/webhooks/${hook.id}`));
    expect(removed).toMatchObject({ deleted: true, id: hook.id });
  });

  it("a Ponte UUID inside a forwarded body is sent upstream as the upstream id", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await newCustomer(t);
    const ponteId = (await ponteRow("customers", customer.id))?.id as string;
    const lean = ok(await asaas(t, "POST", "/lean/payments", { customer: ponteId, billingType: "PIX", value: 20, dueDate: dueDate() }));
    expect(lean.customer).toBe(customer.id);
    const sent = await simRequests(t, "POST", "/v3/lean/payments");
    expect(JSON.parse(String(sent.at(-1)?.body))).toMatchObject({ customer: customer.id });
  });
});

describe("Asaas dialect: Bearer requests are unchanged", () => {
  it("the same key as Bearer keeps Ponte's envelope, UUIDs and decimal strings", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await newCustomer(t);
    const res = await call<Json>("GET", "/api/v1/customers", { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body.meta.pagination).toMatchObject({ totalCount: 1 });
    expect(res.body.data[0]).toMatchObject({ upstreamId: customer.id, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    // Both headers: Authorization wins, so the answer is Ponte's.
    const both = await SELF.fetch(`${BASE}/api/v1/customers`, { headers: { Authorization: `Bearer ${t.key}`, access_token: "whatever" } });
    expect(((await both.json()) as Json).meta.pagination.totalCount).toBe(1);
    // Asaas's aliases are not Ponte's: POST /customers/{id} by Bearer is still 405.
    const alias = await call("POST", `/api/v1/customers/${res.body.data[0].id}`, { key: t.key, body: { name: "X" } });
    expect(alias.status).toBe(405);
  });
});

describe("Asaas dialect: OpenAPI", () => {
  it("declares asaasAccessToken (apiKey in header access_token) on the compatibility operations only", async () => {
    const doc = (await (await SELF.fetch(`${BASE}/api/v1/openapi.json`)).json()) as Json;
    expect(doc.components.securitySchemes.asaasAccessToken).toMatchObject({ type: "apiKey", in: "header", name: "access_token" });
    expect(doc.paths["/api/v1/customers"].post.security).toEqual([{ bearerAuth: [] }, { asaasAccessToken: [] }]);
    expect(doc.paths["/api/v1/finance/balance"].get.security).toEqual([{ bearerAuth: [] }, { asaasAccessToken: [] }]);
    expect(doc.paths["/api/v1/api-keys"].get.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
  });
});
