// A PIX create's Idempotency-Key answer is stored in the link's batch (no write after the response), and
// only when that link is the one that committed; otherwise (a webhook linked the charge first) the answer
// sent is stored after the response. Either way a retry replays exactly what the first request answered.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { expectError } from "./support";
import { createCustomer, createPayment, dueDate, eventsOf, loggedPixCreate, seedBillingTenant, simRequests } from "./billing-support";

async function keyRecord(organizationId: string, key: string) {
  return env.DB.prepare("SELECT state, response_status FROM idempotency_keys WHERE organization_id = ? AND key = ?")
    .bind(organizationId, key)
    .first<{ state: string; response_status: number | null }>();
}

describe("a PIX create's Idempotency-Key answer", () => {
  it("is stored in the link's batch: completed when the response arrives, two round trips, the replay is the same answer", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    await loggedPixCreate(t, customer.id, crypto.randomUUID()); // warms the key and gateway-account caches
    const { res, body, statements } = await loggedPixCreate(t, customer.id, "pix-1");
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({ status: "PENDING", syncStatus: "synced", value: "129.90" });
    // Read before anything the request left for after its response could have run.
    expect(await keyRecord(t.organizationId, "pix-1")).toEqual({ state: "completed", response_status: 200 });
    expect(statements.some((s) => /^update "idempotency_keys" set "state"/i.test(s))).toBe(true);
    expect(Number(res.headers.get("X-D1-Queries"))).toBeLessThanOrEqual(3); // 2, plus a gateway-account cache miss at worst

    const again = await createPayment(t, customer.id, { value: "129.90", dueDate: dueDate() }, { "Idempotency-Key": "pix-1" });
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body).toEqual(body);
    expect(await simRequests(t, "POST", "/v3/payments")).toHaveLength(2); // the warm-up and pix-1: no second charge
    expect(await eventsOf(t, "payment.created")).toHaveLength(2);
  });

  it("the same key with another body is 422 IDEMPOTENCY_KEY_REUSED: no second record, no second upstream charge", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const first = await createPayment(t, customer.id, { value: "10.00" }, { "Idempotency-Key": "pix-2" });
    expect(first.status).toBe(200);
    const other = await createPayment(t, customer.id, { value: "11.00" }, { "Idempotency-Key": "pix-2" });
    expectError(other, 422, "IDEMPOTENCY_KEY_REUSED");
    const count = await env.DB.prepare("SELECT count(*) AS n FROM payments WHERE workspace_id = ?")
      .bind(t.workspaceId)
      .first<{ n: number }>();
    expect(count?.n).toBe(1);
    expect(await simRequests(t, "POST", "/v3/payments")).toHaveLength(1);
  });

  it("when the upstream's webhook links the charge first, the answer is the record as it stands, stored after the response and replayed", async () => {
    const t = await seedBillingTenant(); // the simulator delivers PAYMENT_CREATED before it answers the create
    const customer = await createCustomer(t);
    const { res, body } = await loggedPixCreate(t, customer.id, "pix-3");
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({ syncStatus: "synced" });
    expect(body.data.upstreamId).toMatch(/^pay_/);
    // The webhook was applied before the simulator answered, so the create's own link found nothing pending.
    const applied = await env.DB.prepare(
      "SELECT count(*) AS n FROM upstream_webhook_events WHERE gateway_account_id = ? AND event = 'PAYMENT_CREATED' AND processed_at IS NOT NULL",
    )
      .bind(t.gatewayAccountId)
      .first<{ n: number }>();
    expect(applied?.n).toBe(1);
    expect(await eventsOf(t, "payment.created")).toHaveLength(1);
    let again = await createPayment(t, customer.id, { value: "129.90", dueDate: dueDate() }, { "Idempotency-Key": "pix-3" });
    for (let i = 0; i < 20 && again.status === 409; i++) {
      await new Promise((r) => setTimeout(r, 25)); // the answer lands just after the response
      again = await createPayment(t, customer.id, { value: "129.90", dueDate: dueDate() }, { "Idempotency-Key": "pix-3" });
    }
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body).toEqual(body);
    expect(await simRequests(t, "POST", "/v3/payments")).toHaveLength(1);
  });
});
