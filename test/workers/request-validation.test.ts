// Rules that depend only on the request live in the zod schemas: the 400 names the failing field,
// comes before any lookup (no gateway account, no customer, no plan needed to learn it) and leaves
// nothing behind.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CPF, dueDate, seedBillingTenant, upstreamWebhook } from "./billing-support";
import { type ApiResponse, call, expectError, seedTenant } from "./support";
import type { Reply, Customer, Payment, Subscription } from "./bodies";

const CARD = { holderName: "Maria Silva", number: "4444444444444444", expiryMonth: "12", expiryYear: "2030", ccv: "123" };
const fieldsOf = (res: ApiResponse) => expectError(res, 400, "VALIDATION_FAILED").details.fields.map((f) => f.path);

async function paymentCount(workspaceId: string) {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE workspace_id = ?").bind(workspaceId).first<{ n: number }>())!.n;
}

describe("request rules in the schemas", () => {
  it("a card token on a PIX payment names body.billingType, before the gateway account or the customer is looked up", async () => {
    // No gateway account and an unknown customer: the old service answered 409/404 before reaching its own check.
    const t = await seedTenant();
    const body = { customer: "cus_unknown", billingType: "PIX", value: "10.00", dueDate: dueDate(), creditCardToken: "tok_1" };
    const res = await call<Reply<Payment>>("POST", "/api/v1/payments", { key: t.key, body });
    expect(fieldsOf(res)).toEqual(["body.billingType"]);
    expect(res.body.error.details.fields[0]?.message).toBe("card fields need billingType CREDIT_CARD");
    expect(await paymentCount(t.workspaceId)).toBe(0);
  });

  it("raw card data without the holder's data names body.creditCardHolderInfo", async () => {
    const t = await seedTenant();
    const body = { customer: "cus_unknown", billingType: "CREDIT_CARD", value: "10.00", dueDate: dueDate(), creditCard: CARD };
    const res = await call<Reply<Payment>>("POST", "/api/v1/payments", { key: t.key, body });
    expect(fieldsOf(res)).toEqual(["body.creditCardHolderInfo"]);
    expect(await paymentCount(t.workspaceId)).toBe(0);
  });

  it("a subscription naming a non-card billing type with card fields names body.billingType without needing the plan", async () => {
    const t = await seedTenant();
    const body = { plan: "plan_unknown", customer: "cus_unknown", billingType: "BOLETO", nextDueDate: dueDate(), creditCardToken: "tok_1" };
    const res = await call<Reply<Subscription>>("POST", "/api/v1/subscriptions", { key: t.key, body });
    expect(fieldsOf(res)).toEqual(["body.billingType"]);
  });

  it("an invalid CPF names body.cpfCnpj and creates no customer", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const res = await call<Reply<Customer>>("POST", "/api/v1/customers", {
      key: t.key,
      body: { name: "Maria", cpfCnpj: "529.982.247-26" },
    });
    expect(fieldsOf(res)).toEqual(["body.cpfCnpj"]);
    const n = (await env.DB.prepare("SELECT COUNT(*) AS n FROM customers WHERE workspace_id = ?")
      .bind(t.workspaceId)
      .first<{ n: number }>())!.n;
    expect(n).toBe(0);
    // The valid one still goes through.
    expect((await call<Reply<Customer>>("POST", "/api/v1/customers", { key: t.key, body: { name: "Maria", cpfCnpj: CPF } })).status).toBe(
      200,
    );
  });

  it("an upstream webhook with an empty event names body.event (not body.id) and records nothing", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const res = await upstreamWebhook(t, { id: "evt_empty_event", event: "" });
    expect(fieldsOf(res)).toEqual(["body.event"]);
    const n = (await env.DB.prepare("SELECT COUNT(*) AS n FROM upstream_webhook_events WHERE gateway_account_id = ?")
      .bind(t.gatewayAccountId)
      .first<{ n: number }>())!.n;
    expect(n).toBe(0);
    expect(fieldsOf(await upstreamWebhook(t, { id: "", event: "PAYMENT_CREATED" }))).toEqual(["body.id"]);
  });
});
