// Payments end to end through the simulator: lifecycles per billing type, illegal moves, refunds.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, expectError, seedTenant } from "./support";
import { HOLDER, card, createPayment, createCustomer, dueDate, eventsOf, seedBillingTenant, sim, simRequests } from "./billing-support";
import type { Customer, Payment, PaymentMethod, PaymentStatusView, PixQrCode, Refund, Reply } from "./bodies";

/** CRC16-CCITT (0x1021, init 0xFFFF) as the BR Code spec requires. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

describe("PIX payment lifecycle", () => {
  it("create → valid BR Code + PNG → sim confirm → RECEIVED with one payment.received", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const res = await createPayment(t, customer.id, { value: "129.90", externalReference: "order-1" });
    expect(res.status).toBe(200);
    const payment = res.body.data;
    expect(payment).toMatchObject({
      object: "payment",
      status: "PENDING",
      value: "129.90",
      refundedValue: "0.00",
      syncStatus: "synced",
      externalReference: "order-1",
      customer: customer.id,
    });
    expect(payment.upstreamId).toMatch(/^pay_/);
    // The upstream got Ponte's id as externalReference, and the amount as a number.
    const [post] = await simRequests(t, "POST", "/v3/payments");
    expect(JSON.parse(post!.body as string)).toMatchObject({ externalReference: payment.id, value: 129.9 });

    for (const path of [`/api/v1/payments/${payment.id}/pix`, `/api/v1/payments/${payment.id}/pixQrCode`]) {
      const pix = await call<Reply<PixQrCode>>("GET", path, { key: t.key });
      expect(pix.status).toBe(200);
      const { payload, encodedImage, expirationDate } = pix.body.data;
      expect(payload.startsWith("000201")).toBe(true);
      expect(payload.slice(-4)).toBe(crc16(payload.slice(0, -4)));
      expect(atob(encodedImage).slice(1, 4)).toBe("PNG");
      expect(expirationDate).toMatch(/^\d{4}-\d{2}-\d{2}/);
    }

    expect((await sim("POST", `/v3/sandbox/payment/${payment.upstreamId}/confirm`, {}, t.upstreamKey)).status).toBe(200);
    const got = await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key });
    expect(got.body.data.status).toBe("RECEIVED");
    const events = await eventsOf(t);
    expect(events.map((e) => e.type)).toEqual(["payment.created", "payment.received"]);
    expect(events[1]!.data).toMatchObject({ id: payment.id, status: "RECEIVED", value: "129.90" });
    // The upstream's webhooks were received and recorded once each.
    const inbound = await env.DB.prepare("SELECT event FROM upstream_webhook_events WHERE gateway_account_id = ? ORDER BY received_at")
      .bind(t.gatewayAccountId)
      .all<{ event: string }>();
    expect(inbound.results.map((r) => r.event)).toEqual(["PAYMENT_CREATED", "PAYMENT_RECEIVED"]);
  });

  it("overdue then received through sim webhooks; cancel of a RECEIVED payment is 409 naming the status", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id)).body.data;
    await sim("POST", `/v3/sandbox/payment/${payment.upstreamId}/overdue`, {}, t.upstreamKey);
    expect((await call<Reply<PaymentStatusView>>("GET", `/api/v1/payments/${payment.id}/status`, { key: t.key })).body.data.status).toBe(
      "OVERDUE",
    );
    await sim("POST", `/v3/sandbox/payment/${payment.upstreamId}/confirm`, {}, t.upstreamKey);
    // Overdue moved the due date into the past upstream; Ponte mirrors it (payment.updated).
    expect((await eventsOf(t)).map((e) => e.type)).toEqual(["payment.created", "payment.updated", "payment.overdue", "payment.received"]);
    const err = expectError(
      await call<Reply<Payment>>("POST", `/api/v1/payments/${payment.id}/cancel`, { key: t.key }),
      409,
      "INVALID_STATE",
    );
    expect(err.message).toContain("RECEIVED");
    expect(err.details.status).toBe("RECEIVED");
    expectError(await call<Reply<Payment>>("DELETE", `/api/v1/payments/${payment.id}`, { key: t.key }), 409, "INVALID_STATE");
  });

  it("cancel a PENDING payment: CANCELED, upstream deleted, exactly one payment.canceled", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id)).body.data;
    const res = await call<Reply<Payment>>("POST", `/api/v1/payments/${payment.id}/cancel`, { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("CANCELED");
    expect(await simRequests(t, "DELETE", `/v3/payments/${payment.upstreamId}`)).toHaveLength(1);
    expect((await eventsOf(t, "payment.canceled")).length).toBe(1);
    expectError(await call<Reply<Payment>>("POST", `/api/v1/payments/${payment.id}/cancel`, { key: t.key }), 409, "INVALID_STATE");
    expectError(
      await call<Reply<Payment>>("POST", `/api/v1/payments/${payment.id}/refund`, { key: t.key, body: {} }),
      409,
      "INVALID_STATE",
    );
  });
});

describe("BOLETO and card payments", () => {
  it("BOLETO: the payment carries bankSlipUrl and the 47-digit identification line (fetched at create)", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const res = await createPayment(t, customer.id, {
      billingType: "BOLETO",
      value: "250.00",
      fine: { value: "2.00" },
      interest: { value: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.bankSlipUrl).toMatch(/^https:\/\//);
    expect(res.body.data.identificationField?.replace(/\D/g, "")).toHaveLength(47);
    expect(res.body.data.fine).toEqual({ value: "2.00" });
    expect(res.body.data.interest).toEqual({ value: "1.00" });
    expectError(
      await call<Reply<Payment>>("POST", `/api/v1/payments/${res.body.data.id}/refund`, { key: t.key, body: {} }),
      409,
      "INVALID_STATE",
    );
  });

  it("CARD: tokenize → payment with the payment-method id → CONFIRMED; no D1 row holds the card number", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const number = "4111111111111111";
    const tok = await call<Reply<PaymentMethod>>("POST", "/api/v1/payment-methods/tokenize", {
      key: t.key,
      body: { customer: customer.id, creditCard: card(number), creditCardHolderInfo: HOLDER, remoteIp: "203.0.113.7" },
    });
    expect(tok.status).toBe(200);
    expect(tok.body.data).toMatchObject({ object: "payment_method", customer: customer.id, brand: "VISA", last4: "1111" });
    const res = await createPayment(t, customer.id, {
      billingType: "CREDIT_CARD",
      creditCardToken: tok.body.data.id,
      remoteIp: "203.0.113.7",
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "CONFIRMED", creditCard: { brand: "VISA", last4: "1111" } });
    expect((await eventsOf(t)).map((e) => e.type)).toEqual(["payment.created", "payment.confirmed"]);
    // Raw card data on the card variant (documented at /api/v1/payments/) goes straight through.
    const direct = await call<Reply<Payment>>("POST", "/api/v1/payments/", {
      key: t.key,
      body: {
        customer: customer.id,
        billingType: "CREDIT_CARD",
        value: "10.00",
        dueDate: dueDate(),
        creditCard: card("5555555555554444"),
        creditCardHolderInfo: HOLDER,
        remoteIp: "203.0.113.7",
      },
    });
    expect(direct.status).toBe(200);
    expect(direct.body.data).toMatchObject({ status: "CONFIRMED", creditCard: { last4: "4444" } });
    await assertNoTableContains(["4111111111111111", "5555555555554444"]);
  });

  it.each(["5184019740373151", "4916561358240741"])(
    "refused card %s: 400 with the upstream's reason, FAILED record kept, payment.failed",
    async (number) => {
      const t = await seedBillingTenant();
      const customer = await createCustomer(t);
      const res = await createPayment(t, customer.id, {
        billingType: "CREDIT_CARD",
        creditCard: card(number),
        creditCardHolderInfo: HOLDER,
        remoteIp: "203.0.113.7",
      });
      const err = expectError(res, 400, "BAD_REQUEST");
      expect(err.message).toMatch(/não autorizada/);
      const stored = await call<Reply<Payment>>("GET", `/api/v1/payments/${err.details.paymentId}`, { key: t.key });
      expect(stored.body.data).toMatchObject({ status: "FAILED", syncStatus: "failed" });
      expect(stored.body.data.failureReason).toMatch(/não autorizada/);
      expect((await eventsOf(t)).map((e) => e.type)).toEqual(["payment.failed"]);
      await assertNoTableContains([number]);
    },
  );
});

async function assertNoTableContains(needles: string[]) {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'",
  ).all<{ name: string }>();
  for (const { name } of tables.results) {
    const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
    const dump = JSON.stringify(rows.results);
    for (const n of needles) expect(dump.includes(n), `table ${name} contains a card number`).toBe(false);
  }
}

describe("refunds", () => {
  async function receivedPayment(value = "100.00") {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id, { value })).body.data;
    await sim("POST", `/v3/sandbox/payment/${payment.upstreamId}/confirm`, {}, t.upstreamKey);
    return { t, payment };
  }

  it("5 concurrent partial refunds of 30.00 on 100.00: exactly 3 succeed, the sum stays within the value", async () => {
    const { t, payment } = await receivedPayment();
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        call<Reply<Payment>>("POST", `/api/v1/payments/${payment.id}/refund`, { key: t.key, body: { value: "30.00" } }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    for (const r of results.filter((r) => r.status !== 200))
      expect(expectError(r, 409, "INVALID_STATE").details.refundableValue).toBe("10.00");
    const got = (await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key })).body.data;
    expect(got).toMatchObject({ status: "RECEIVED", refundedValue: "90.00" });
    const refunds = await call<Reply<Refund[]>>("GET", `/api/v1/payments/${payment.id}/refunds`, { key: t.key });
    expect(refunds.body.data.map((r: { status: string; value: string }) => `${r.status}:${r.value}`)).toEqual([
      "done:30.00",
      "done:30.00",
      "done:30.00",
    ]);
    expect(await simRequests(t, "POST", `/v3/payments/${payment.upstreamId}/refund`)).toHaveLength(3);
    expect((await eventsOf(t, "payment.refunded")).length).toBe(3);
    // The rest: refunding more than is left is 409; the remainder refunds fully.
    const tooMuch = expectError(
      await call<Reply<Payment>>("POST", `/api/v1/payments/${payment.id}/refund`, { key: t.key, body: { value: "10.01" } }),
      409,
      "INVALID_STATE",
    );
    expect(tooMuch.message).toContain("RECEIVED");
    const rest = await call<Reply<Payment>>("POST", `/api/v1/payments/${payment.id}/refund`, { key: t.key, body: {} });
    expect(rest.body.data).toMatchObject({ status: "REFUNDED", refundedValue: "100.00" });
    expect((await eventsOf(t, "payment.refunded")).length).toBe(4);
    expectError(
      await call<Reply<Payment>>("POST", `/api/v1/payments/${payment.id}/refund`, { key: t.key, body: { value: "1.00" } }),
      409,
      "INVALID_STATE",
    );
  });

  it("a refund the upstream refuses releases the reservation and is recorded failed", async () => {
    const { t, payment } = await receivedPayment();
    await sim("POST", "/__sim/faults", {
      token: t.upstreamKey,
      method: "POST",
      pathPrefix: `/v3/payments/${payment.upstreamId}/refund`,
      fault: "status",
      status: 400,
    });
    expectError(
      await call<Reply<Payment>>("POST", `/api/v1/payments/${payment.id}/refund`, { key: t.key, body: { value: "40.00" } }),
      400,
      "BAD_REQUEST",
    );
    const got = (await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key })).body.data;
    expect(got).toMatchObject({ status: "RECEIVED", refundedValue: "0.00" });
    const refunds = (await call<Reply<Refund[]>>("GET", `/api/v1/payments/${payment.id}/refunds`, { key: t.key })).body.data;
    expect(refunds).toMatchObject([{ status: "failed", value: "40.00" }]);
  });
});

describe("validation and isolation", () => {
  it.each([["10.999"], ["-1"], ["abc"], [0], ["0.00"]])("value %j → 400 naming body.value", async (value) => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const err = expectError(await createPayment(t, customer.id, { value }), 400, "VALIDATION_FAILED");
    expect(err.details.fields.map((f: { path: string }) => f.path)).toContain("body.value");
  });

  it("bad CPF check digits → 400 naming body.cpfCnpj; nothing stored", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const err = expectError(
      await call<Reply<Customer>>("POST", "/api/v1/customers", { key: t.key, body: { name: "X", cpfCnpj: "529.982.247-24" } }),
      400,
      "VALIDATION_FAILED",
    );
    expect(err.details.fields.map((f: { path: string }) => f.path)).toContain("body.cpfCnpj");
    expect((await call<Reply<Customer[]>>("GET", "/api/v1/customers", { key: t.key })).body.meta.pagination.totalCount).toBe(0);
  });

  it("another workspace's customer, payment and refunds are 404 on every route", async () => {
    const a = await seedBillingTenant();
    const b = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(a);
    const payment = (await createPayment(a, customer.id)).body.data;
    for (const [method, path] of [
      ["GET", `/api/v1/customers/${customer.id}`],
      ["PUT", `/api/v1/customers/${customer.id}`],
      ["DELETE", `/api/v1/customers/${customer.id}`],
      ["POST", `/api/v1/customers/${customer.id}/restore`],
      ["GET", `/api/v1/payments/${payment.id}`],
      ["DELETE", `/api/v1/payments/${payment.id}`],
      ["GET", `/api/v1/payments/${payment.id}/status`],
      ["GET", `/api/v1/payments/${payment.id}/pix`],
      ["GET", `/api/v1/payments/${payment.id}/pixQrCode`],
      ["POST", `/api/v1/payments/${payment.id}/refund`],
      ["GET", `/api/v1/payments/${payment.id}/refunds`],
      ["POST", `/api/v1/payments/${payment.id}/cancel`],
    ] as const) {
      expectError(
        await call(method, path, { key: b.key, ...(method === "PUT" || method === "POST" ? { body: {} } : {}) }),
        404,
        "NOT_FOUND",
      );
    }
    expect((await call<Reply<Payment[]>>("GET", "/api/v1/payments", { key: b.key })).body.data).toEqual([]);
    // b cannot payment a's customer either.
    expectError(await createPayment(b, customer.id), 400, "VALIDATION_FAILED");
  });

  it("permissions: a read-only key cannot create (403 naming it); no key is 401; no gateway account is 409", async () => {
    const t = await seedBillingTenant({ permissions: ["payments.read", "customers.read"], webhooks: false });
    const err = expectError(await call<Reply<Payment>>("POST", "/api/v1/payments", { key: t.key, body: {} }), 403, "FORBIDDEN");
    expect(err.details.requiredPermission).toBe("payments.manage");
    expectError(await call<Reply<Payment[]>>("GET", "/api/v1/payments"), 401, "UNAUTHORIZED");
    const bare = await seedTenant();
    expectError(
      await call<Reply<Customer>>("POST", "/api/v1/customers", { key: bare.key, body: { name: "X", cpfCnpj: "529.982.247-25" } }),
      409,
      "GATEWAY_ACCOUNT_MISSING",
    );
  });
});
