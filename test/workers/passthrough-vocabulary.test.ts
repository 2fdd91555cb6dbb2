// One vocabulary per dialect: a Bearer passthrough answer and an `upstream.*` event speak Ponte's
// conventions (money as decimal strings, ISO UTC times, Ponte's list envelope, Ponte UUIDs for held
// records), while the same call in the Asaas dialect answers exactly what the upstream sent.
import { BASE, call } from "./support";
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addFault } from "./gateway-support";
import { createCustomer, createPayment, eventsOf, seedBillingTenant, upstreamWebhook, type BillingTenant } from "./billing-support";

type Json = Record<string, unknown>;
interface Answer {
  data: Json & Json[];
  meta: { requestId: string; upstream: { status: number }; pagination?: Json };
}

const bearer = (t: BillingTenant, method: string, path: string, body?: unknown) =>
  call<Answer>(method, `/api/v1${path}`, { key: t.key, ...(body === undefined ? {} : { body }) });

async function asaas(t: BillingTenant, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = { access_token: t.key, ...(body === undefined ? {} : { "Content-Type": "application/json" }) };
  const res = await SELF.fetch(`${BASE}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Json };
}

/** The upstream's next answer on `pathPrefix`, exactly this body (the simulator's canned 200). */
const upstreamAnswers = (t: BillingTenant, pathPrefix: string, body: unknown, times = 1) =>
  addFault(t.upstreamKey, { fault: "status", status: 200, pathPrefix, body, times });

describe("Bearer passthrough answers in Ponte's vocabulary", { timeout: 30_000 }, () => {
  it("GET /finance/balance: money as a decimal string; with access_token the upstream's number", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    await upstreamAnswers(t, "/v3/finance/balance", { balance: 1234.5 }, 2);
    const res = await bearer(t, "GET", "/finance/balance");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ balance: "1234.50" });
    expect(res.body.meta.upstream.status).toBe(200);
    const raw = await asaas(t, "GET", "/finance/balance");
    expect(raw).toEqual({ status: 200, body: { balance: 1234.5 } });
  });

  it("a transfer the simulator makes: value and fees as decimal strings; the Asaas dialect keeps numbers", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const transfer = { value: 50, pixAddressKey: "maria@example.com", pixAddressKeyType: "EMAIL" };
    const res = await bearer(t, "POST", "/transfers", transfer);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ object: "transfer", id: expect.stringMatching(/^tra_/), value: "50.00" });
    expect(res.body.data).not.toHaveProperty("upstreamId"); // Ponte keeps no transfers: the upstream's id is the id
    const raw = await asaas(t, "POST", "/transfers", transfer);
    expect(raw.status).toBe(200);
    expect(raw.body).toMatchObject({ object: "transfer", id: expect.stringMatching(/^tra_/), value: 50 });
  });

  it("a transfer's money and local date-times as the real upstream writes them, in a Ponte list envelope", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const upstreamList = {
      object: "list",
      hasMore: true,
      totalCount: 7,
      limit: 1,
      offset: 2,
      data: [
        {
          object: "transfer",
          id: "tra_000000000001",
          dateCreated: "2026-11-26",
          value: 50,
          netValue: 49.01,
          transferFee: 0.99,
          status: "DONE",
          effectiveDate: "2026-11-26",
          scheduleDate: "2026-11-26",
        },
      ],
    };
    await upstreamAnswers(t, "/v3/transfers", upstreamList, 2);
    const res = await bearer(t, "GET", "/transfers?limit=1&offset=2");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ ...upstreamList.data[0], value: "50.00", netValue: "49.01", transferFee: "0.99" }]);
    expect(res.body.meta.pagination).toEqual({ limit: 1, offset: 2, totalCount: 7, hasMore: true });
    const raw = await asaas(t, "GET", "/transfers?limit=1&offset=2");
    expect(raw.body).toEqual(upstreamList);
  });

  it("a payment the upstream answers: Ponte's UUIDs for the payment and its customer, upstreamId beside, ISO refund times", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const created = await createPayment(t, customer.id, { value: "129.90" });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const payment = created.body.data;
    const res = await bearer(t, "POST", `/sandbox/payment/${payment.id}/confirm`, {});
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      object: "payment",
      id: payment.id,
      upstreamId: payment.upstreamId,
      customer: customer.id,
      value: "129.90",
      dueDate: payment.dueDate,
    });
    // An installment plan Ponte does not hold, naming a customer it does: only the customer is Ponte's.
    const installment = {
      object: "installment",
      id: "ins_000000000009",
      value: 300,
      netValue: 290.5,
      paymentValue: 100,
      installmentCount: 3,
      customer: customer.upstreamId,
      dateCreated: "2026-11-26",
      deleted: false,
      refunds: [{ dateCreated: "2026-11-26 21:30:00", status: "DONE", value: 100, description: null }],
    };
    await upstreamAnswers(t, "/v3/installments/ins_000000000009", installment, 2);
    const plan = await bearer(t, "GET", "/installments/ins_000000000009");
    expect(plan.body.data).toEqual({
      ...installment,
      upstreamId: "ins_000000000009",
      customer: customer.id,
      value: "300.00",
      netValue: "290.50",
      paymentValue: "100.00",
      refunds: [{ dateCreated: "2026-11-27T00:30:00.000Z", status: "DONE", value: "100.00", description: null }],
    });
    expect((await asaas(t, "GET", "/installments/ins_000000000009")).body).toEqual(installment);
  });
});

describe("upstream.* events in Ponte's vocabulary", { timeout: 30_000 }, () => {
  it("a TRANSFER_DONE webhook is re-emitted with decimal strings and a UTC dateCreated", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const envelope = {
      id: "evt_vocab_1",
      event: "TRANSFER_DONE",
      dateCreated: "2026-11-26 17:00:00",
      transfer: {
        object: "transfer",
        id: "tra_1",
        value: 50,
        netValue: 49.01,
        transferFee: 0.99,
        dateCreated: "2026-11-26",
        status: "DONE",
      },
    };
    expect((await upstreamWebhook(t, envelope)).status).toBe(200);
    const [event] = await eventsOf(t, "upstream.TRANSFER_DONE");
    expect(event?.data).toEqual({
      ...envelope,
      dateCreated: "2026-11-26T20:00:00.000Z",
      transfer: { ...envelope.transfer, value: "50.00", netValue: "49.01", transferFee: "0.99" },
    });
  });

  it("an upstream.PAYMENT_* about a payment Ponte cannot adopt names the customer Ponte holds by its UUID", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const envelope = {
      id: "evt_vocab_2",
      event: "PAYMENT_CHECKOUT_VIEWED",
      payment: { object: "payment", id: "pay_x", customer: customer.upstreamId, value: 10 },
    };
    expect((await upstreamWebhook(t, envelope)).status).toBe(200);
    const [event] = await eventsOf(t, "upstream.PAYMENT_CHECKOUT_VIEWED");
    expect(event?.data.payment).toEqual({ object: "payment", id: "pay_x", upstreamId: "pay_x", customer: customer.id, value: "10.00" });
  });
});
