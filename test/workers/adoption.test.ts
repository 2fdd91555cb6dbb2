// One source of truth for payments (issue 12): a payment made through a compatibility route or
// outside Ponte becomes a Ponte payment (origin gateway / upstream) with the spec's payment.* events,
// and writes through the gateway or in the upstream keep Ponte's copy current.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Customer, Passthrough, Payment, Reply, UpstreamWebhookReceipt } from "./bodies";
import {
  createCustomer,
  createPayment,
  dueDate,
  eventsOf,
  seedBillingTenant,
  sim,
  upstreamWebhook,
  type BillingTenant,
} from "./billing-support";
import { call } from "./support";
import { adoptMissedPayments } from "../../src/modules/reconciliation/adopt-missed";
import { testDeps } from "./billing-support";
import { adoptUpstreamPayment } from "../../src/modules/payments/adoption";

interface UpstreamPaymentBody {
  id: string;
  object: "payment";
  customer: string;
  status: string;
  value: number;
}

const listPayments = async (t: BillingTenant, query = "") =>
  (await call<Reply<Payment[]>>("GET", `/api/v1/payments${query}`, { key: t.key })).body.data;

async function paymentByUpstreamId(t: BillingTenant, upstreamId: string): Promise<Payment | undefined> {
  return (await listPayments(t)).find((p) => p.upstreamId === upstreamId);
}

async function leanCreate(t: BillingTenant, upstreamCustomer: string, value = 50) {
  const res = await call<Passthrough<UpstreamPaymentBody>>("POST", "/api/v1/lean/payments", {
    key: t.key,
    body: { customer: upstreamCustomer, billingType: "PIX", value, dueDate: dueDate() },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // A Bearer answer speaks Ponte's vocabulary: the adopted record's UUID as `id`, the upstream's id beside it.
  const data = res.body.data as UpstreamPaymentBody & { upstreamId: string };
  const adopted = await paymentByUpstreamId(t, data.upstreamId);
  expect(data.id).toBe(adopted?.id);
  expect(data.value).toBe(adopted?.value);
  return { ...data, id: data.upstreamId };
}

describe("adoption of payments made through a compatibility route", () => {
  it("a lean payment shows up in GET /payments (origin gateway) and raises payment.created once, then payment.received", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const upstream = await leanCreate(t, customer.upstreamId ?? "");

    const adopted = await paymentByUpstreamId(t, upstream.id);
    expect(adopted).toMatchObject({ origin: "gateway", customer: customer.id, value: "50.00", status: "PENDING", billingType: "PIX" });
    const created = (await eventsOf(t, "payment.created")).filter((e) => e.data.upstreamId === upstream.id);
    expect(created).toHaveLength(1);
    expect(created[0]?.data).toMatchObject({ id: adopted?.id, value: "50.00", object: "payment" });
    expect(await eventsOf(t, "upstream.PAYMENT_CREATED")).toEqual([]);

    expect((await sim("POST", `/v3/sandbox/payment/${upstream.id}/confirm`, {}, t.upstreamKey)).status).toBe(200);
    expect((await paymentByUpstreamId(t, upstream.id))?.status).toBe("RECEIVED");
    const received = await eventsOf(t, "payment.received");
    expect(received.map((e) => e.data.id)).toEqual([adopted?.id]);
    expect(received[0]?.data.value).toBe("50.00");
  });

  it("without the upstream's webhook, the passthrough answer alone adopts the payment", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const upstream = await leanCreate(t, customer.upstreamId ?? "", 12.34);
    expect(await paymentByUpstreamId(t, upstream.id)).toMatchObject({ origin: "gateway", value: "12.34", customer: customer.id });
    expect(await eventsOf(t, "payment.created")).toHaveLength(1);
  });
});

describe("adoption of payments made outside Ponte", () => {
  it("the upstream's webhook adopts the payment and its unknown customer (origin upstream), as payment.* events", async () => {
    const t = await seedBillingTenant();
    const outsideCustomer = await sim<{ id: string }>(
      "POST",
      "/v3/customers",
      { name: "Joana Prado", cpfCnpj: "24971563792" },
      t.upstreamKey,
    );
    const outside = await sim<UpstreamPaymentBody>(
      "POST",
      "/v3/payments",
      { customer: outsideCustomer.body.id, billingType: "BOLETO", value: 250, dueDate: dueDate(5) },
      t.upstreamKey,
    );
    expect(outside.status).toBe(200);

    const adopted = await paymentByUpstreamId(t, outside.body.id);
    expect(adopted).toMatchObject({ origin: "upstream", value: "250.00", billingType: "BOLETO", status: "PENDING" });
    const customer = (await call<Reply<Customer>>("GET", `/api/v1/customers/${adopted?.customer}`, { key: t.key })).body.data;
    expect(customer).toMatchObject({
      origin: "upstream",
      name: "Joana Prado",
      cpfCnpj: "24971563792",
      upstreamId: outsideCustomer.body.id,
    });
    expect((await eventsOf(t)).map((e) => e.type)).toEqual(["payment.created"]);

    // A second delivery of the same facts (the reconciler, a retry) adds nothing.
    await upstreamWebhook(t, { id: `evt_${crypto.randomUUID()}`, event: "PAYMENT_CREATED", payment: outside.body });
    expect((await listPayments(t)).filter((p) => p.upstreamId === outside.body.id)).toHaveLength(1);
    expect(await eventsOf(t, "payment.created")).toHaveLength(1);
  });

  it("a webhook about an unknown payment that is received adopts it and emits payment.created then payment.received", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const outsideCustomer = await sim<{ id: string }>(
      "POST",
      "/v3/customers",
      { name: "Rui Lopes", cpfCnpj: "52998224725" },
      t.upstreamKey,
    );
    const outside = await sim<UpstreamPaymentBody>(
      "POST",
      "/v3/payments",
      { customer: outsideCustomer.body.id, billingType: "PIX", value: 99.9, dueDate: dueDate(2) },
      t.upstreamKey,
    );
    await sim("POST", `/v3/sandbox/payment/${outside.body.id}/confirm`, {}, t.upstreamKey);
    const confirmed = await sim<UpstreamPaymentBody>("GET", `/v3/payments/${outside.body.id}`, undefined, t.upstreamKey);
    const res = await upstreamWebhook(t, { id: `evt_${crypto.randomUUID()}`, event: "PAYMENT_RECEIVED", payment: confirmed.body });
    expect(res.body.data).toEqual<UpstreamWebhookReceipt>({ received: true, duplicate: false });
    expect(await paymentByUpstreamId(t, outside.body.id)).toMatchObject({ origin: "upstream", status: "RECEIVED", value: "99.90" });
    expect((await eventsOf(t)).map((e) => e.type)).toEqual(["payment.created", "payment.received"]);
  });
});

describe("adoption races", () => {
  // Called directly: requests through SELF.fetch in the test runtime did not interleave between the
  // lookup and the insert, so only concurrent calls of the adoption itself make the race.
  it("a webhook and a passthrough answer adopting the same unknown charge at once make one row and one payment.created", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const outsideCustomer = await sim<{ id: string }>(
      "POST",
      "/v3/customers",
      { name: "Lia Campos", cpfCnpj: "52998224725" },
      t.upstreamKey,
    );
    const outside = await sim<UpstreamPaymentBody>(
      "POST",
      "/v3/payments",
      { customer: outsideCustomer.body.id, billingType: "PIX", value: 77.7, dueDate: dueDate(3) },
      t.upstreamKey,
    );
    const origins = ["upstream", "gateway", "upstream", "gateway"] as const;
    const adopted = await Promise.all(origins.map((origin) => adoptUpstreamPayment(testDeps(), t, outside.body, origin)));
    const rows = await env.DB.prepare("SELECT id, origin FROM payments WHERE workspace_id = ? AND upstream_id = ?")
      .bind(t.workspaceId, outside.body.id)
      .all<{ id: string; origin: string }>();
    expect(rows.results).toHaveLength(1);
    expect(new Set(adopted.map((row) => row?.id))).toEqual(new Set([rows.results[0]?.id]));
    expect((await eventsOf(t, "payment.created")).map((e) => e.data.id)).toEqual([rows.results[0]?.id]);
    expect(await paymentByUpstreamId(t, outside.body.id)).toMatchObject({ value: "77.70", customer: expect.any(String) });
  });
});

describe("read-after-write: writes elsewhere reach Ponte's record", () => {
  it("PUT /payments/{id} through the gateway changes the value in the same request (no webhook needed), with payment.updated", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id, { value: "100.00" })).body.data;
    const put = await call<Passthrough<UpstreamPaymentBody>>("PUT", `/api/v1/payments/${payment.id}`, {
      key: t.key,
      body: { value: 150, dueDate: dueDate(10), description: "novo valor" },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data.value).toBe("150.00"); // Bearer answers money as decimal strings, passthrough too
    const got = (await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key })).body.data;
    expect(got).toMatchObject({ value: "150.00", dueDate: dueDate(10), description: "novo valor", origin: "api" });
    const updated = await eventsOf(t, "payment.updated");
    expect(updated.map((e) => e.data)).toEqual([expect.objectContaining({ id: payment.id, value: "150.00" })]);
  });

  it("cancel, then restore through the gateway: Ponte's record is open again, with payment.restored", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id)).body.data;
    expect((await call<Reply<Payment>>("DELETE", `/api/v1/payments/${payment.id}`, { key: t.key })).body.data.status).toBe("CANCELED");
    const restore = await call<Passthrough<UpstreamPaymentBody>>("POST", `/api/v1/payments/${payment.id}/restore`, {
      key: t.key,
      body: {},
    });
    expect(restore.status, JSON.stringify(restore.body)).toBe(200);
    expect((await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key })).body.data.status).toBe("PENDING");
    expect((await eventsOf(t)).map((e) => e.type)).toEqual(["payment.created", "payment.canceled", "payment.restored"]);
  });

  it("a change made in the upstream itself arrives by webhook (PAYMENT_UPDATED, PAYMENT_DELETED, PAYMENT_RESTORED)", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id, { value: "80.00" })).body.data;
    const upstreamId = payment.upstreamId ?? "";
    await sim("PUT", `/v3/payments/${upstreamId}`, { value: 85.5 }, t.upstreamKey);
    expect((await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key })).body.data.value).toBe("85.50");
    await sim("DELETE", `/v3/payments/${upstreamId}`, undefined, t.upstreamKey);
    expect((await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key })).body.data.status).toBe("CANCELED");
    await sim("POST", `/v3/payments/${upstreamId}/restore`, {}, t.upstreamKey);
    expect((await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key })).body.data.status).toBe("PENDING");
    expect((await eventsOf(t)).map((e) => e.type)).toEqual(["payment.created", "payment.updated", "payment.canceled", "payment.restored"]);
  });

  it("a late creation webhook never reopens a canceled payment (only a restore does)", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id)).body.data;
    await call("DELETE", `/api/v1/payments/${payment.id}`, { key: t.key });
    const stale = {
      id: payment.upstreamId,
      object: "payment",
      customer: customer.upstreamId,
      status: "PENDING",
      value: 100,
      deleted: false,
    };
    await upstreamWebhook(t, { id: `evt_${crypto.randomUUID()}`, event: "PAYMENT_CREATED", payment: stale });
    await upstreamWebhook(t, { id: `evt_${crypto.randomUUID()}`, event: "PAYMENT_UPDATED", payment: stale });
    expect((await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key })).body.data.status).toBe("CANCELED");
    const row = await env.DB.prepare("SELECT status FROM payments WHERE id = ?").bind(payment.id).first<{ status: string }>();
    expect(row?.status).toBe("CANCELED");
  });
});

describe("the adoption sweep", () => {
  it("adopts a payment whose webhook never arrived, once, however often it runs", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const outsideCustomer = await sim<{ id: string }>("POST", "/v3/customers", { name: "Lia Mota", cpfCnpj: "24971563792" }, t.upstreamKey);
    const missed = await sim<UpstreamPaymentBody>(
      "POST",
      "/v3/payments",
      { customer: outsideCustomer.body.id, billingType: "PIX", value: 42, dueDate: dueDate(4) },
      t.upstreamKey,
    );
    expect(await paymentByUpstreamId(t, missed.body.id)).toBeUndefined();

    expect(await adoptMissedPayments(testDeps())).toBeGreaterThanOrEqual(1);
    expect(await paymentByUpstreamId(t, missed.body.id)).toMatchObject({ origin: "upstream", value: "42.00", status: "PENDING" });
    await adoptMissedPayments(testDeps());
    expect((await listPayments(t)).filter((p) => p.upstreamId === missed.body.id)).toHaveLength(1);
    expect((await eventsOf(t)).map((e) => e.type)).toEqual(["payment.created"]);
  });
});
