// The typed client (clients/typescript) against the worker: its fetch is SELF.fetch, so every call
// goes through the real routes, D1 and the simulator. A customer → PIX charge → payment → refund
// flow, a typed error, and the webhook verifier on a delivery the worker really signed.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPonteClient, verifyWebhook } from "../../clients/typescript/src/index";
import { CPF, dueDate, eventsOf, seedBillingTenant } from "./billing-support";
import { BASE } from "./support";
import { mockReceiver } from "./webhooks-support";

const clientFor = (apiKey: string) => createPonteClient({ baseUrl: BASE, apiKey, fetch: (request) => SELF.fetch(request) });

describe("the typed TypeScript client", () => {
  it("drives customer → PIX charge → confirmation → refund", async () => {
    const t = await seedBillingTenant();
    const ponte = clientFor(t.key);

    const customer = await ponte.POST("/api/v1/customers", {
      body: { name: "Maria Silva", cpfCnpj: CPF, email: "maria@example.com" },
    });
    expect(customer.response.status).toBe(200);
    const customerId = customer.data?.data.id ?? "";
    expect(customer.data?.data).toMatchObject({ name: "Maria Silva", email: "maria@example.com" });

    const charge = await ponte.POST("/api/v1/payments", {
      headers: { "Idempotency-Key": `order-${customerId}` },
      body: { customer: customerId, billingType: "PIX", value: "129.90", dueDate: dueDate() },
    });
    expect(charge.response.status).toBe(200);
    const payment = charge.data?.data;
    expect(payment).toMatchObject({ customer: customerId, billingType: "PIX", value: "129.90", status: "PENDING" });
    const paymentId = payment?.id ?? "";

    const pix = await ponte.GET("/api/v1/payments/{id}/pix", { params: { path: { id: paymentId } } });
    expect(pix.response.status).toBe(200);
    expect(pix.data?.data.payload).toBeTruthy();

    // The simulator pays it; its webhook moves the charge to RECEIVED.
    const confirm = await ponte.POST("/api/v1/sandbox/payment/{id}/confirm", { params: { path: { id: paymentId } }, body: {} });
    expect(confirm.response.status).toBe(200);
    const received = await ponte.GET("/api/v1/payments/{id}", { params: { path: { id: paymentId } } });
    expect(received.data?.data.status).toBe("RECEIVED");

    const refund = await ponte.POST("/api/v1/payments/{id}/refund", { params: { path: { id: paymentId } }, body: {} });
    expect(refund.response.status).toBe(200);
    expect(refund.data?.data).toMatchObject({ id: paymentId, status: "REFUNDED", refundedValue: "129.90" });
    expect((await eventsOf(t, "payment.refunded")).map((e) => e.data.id)).toEqual([paymentId]);

    // An error comes back typed as the error envelope.
    const again = await ponte.POST("/api/v1/payments/{id}/refund", { params: { path: { id: paymentId } }, body: {} });
    expect(again.response.status).toBe(409);
    expect(again.error?.error.code).toBe("INVALID_STATE");
  }, 30_000);

  it("sends the tenant headers it is given and the key as a bearer token", async () => {
    const t = await seedBillingTenant();
    const ponte = createPonteClient({
      baseUrl: `${BASE}/`,
      apiKey: t.key,
      workspaceId: crypto.randomUUID(),
      fetch: (request) => SELF.fetch(request),
    });
    const res = await ponte.GET("/api/v1/customers", { params: { query: { limit: 1 } } });
    expect(res.response.status).toBe(403);
    expect(res.error?.error.code).toBe("FORBIDDEN");
    const anonymous = await createPonteClient({ baseUrl: BASE, apiKey: "ponte_test_nope", fetch: (r) => SELF.fetch(r) }).GET(
      "/api/v1/customers",
    );
    expect(anonymous.response.status).toBe(401);
  }, 30_000);

  it("verifyWebhook accepts a delivery the worker signed and refuses a tampered or stale one", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const ponte = clientFor(t.key);
    const created = await ponte.POST("/api/v1/webhook-endpoints", {
      body: { url: "https://hooks.merchant.com.br/ponte", eventKinds: ["*"] },
    });
    expect(created.response.status).toBe(201);
    const endpoint = created.data?.data;
    const secret = endpoint?.secret ?? "";
    expect(secret).toMatch(/^whsec_/);

    const receiver = mockReceiver();
    try {
      const ping = await ponte.POST("/api/v1/webhook-endpoints/{id}/test", { params: { path: { id: endpoint?.id ?? "" } } });
      expect(ping.response.status).toBe(200);
    } finally {
      receiver.spy.mockRestore();
    }
    const delivery = receiver.received.find((r) => r.url === "https://hooks.merchant.com.br/ponte");
    expect(delivery?.headers["x-service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const body = delivery?.body ?? "";
    const headers = delivery?.headers ?? {};

    const verified = await verifyWebhook(body, headers, secret);
    expect(verified).toMatchObject({ ok: true, event: { type: "ping", apiVersion: "1.0" } });
    expect(headers["x-service-event"]).toBe("ping");
    // The same with a Fetch Headers object, raw bytes, and the secret among others (a rotation).
    expect((await verifyWebhook(new TextEncoder().encode(body), new Headers(headers), ["whsec_old", secret])).ok).toBe(true);

    expect(await verifyWebhook(body.replace("ping", "pong"), headers, secret)).toEqual({ ok: false, reason: "signature_mismatch" });
    expect(await verifyWebhook(body, headers, "whsec_someone_else")).toEqual({ ok: false, reason: "signature_mismatch" });
    const t0 = Number(/t=(\d+)/.exec(headers["x-service-signature"] ?? "")?.[1]);
    expect(await verifyWebhook(body, headers, secret, { now: t0 + 301 })).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
    expect(await verifyWebhook(body, {}, secret)).toEqual({ ok: false, reason: "missing_header" });
  }, 30_000);
});
