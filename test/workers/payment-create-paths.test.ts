// The PIX create's first batch is the idempotency claim and the pending INSERT, which answers the customer's
// upstream id: nothing else is read on a fresh create. When the INSERT writes nothing, a second batch reads why,
// and each reason still gets its own answer: a retried key resumes its record (one upstream charge), a missing
// or deleted customer is refused with no record, a customer not yet known upstream is synced first.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { expectError } from "./support";
import {
  createCustomer,
  createPayment,
  eventsOf,
  seedBillingTenant,
  sim,
  simRequests,
  loggedPixCreate,
  type BillingTenant,
} from "./billing-support";

const paymentsOf = async (t: BillingTenant) =>
  (
    await env.DB.prepare("SELECT id, sync_status, upstream_id FROM payments WHERE workspace_id = ?")
      .bind(t.workspaceId)
      .all<{ id: string; sync_status: string; upstream_id: string | null }>()
  ).results;

describe("the PIX create's first batch", () => {
  it("a fresh create sends the claim and the pending INSERT only, then the link batch", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    await loggedPixCreate(t, customer.id, crypto.randomUUID()); // warms the key and gateway-account caches
    const { res, body, statements } = await loggedPixCreate(t, customer.id, "paths-1");
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({ status: "PENDING", syncStatus: "synced", customer: customer.id, value: "129.90" });
    const beforeLink = statements.slice(
      0,
      statements.findIndex((s) => /^update "payments"/i.test(s)),
    );
    expect(beforeLink.filter((s) => !/^select .* from "gateway_accounts"/i.test(s))).toEqual([
      expect.stringMatching(/^INSERT INTO idempotency_keys .* ON CONFLICT/s),
      expect.stringMatching(/^insert into "payments" .* returning \(SELECT "upstream_id" FROM "customers"/is),
    ]);
  });

  it("a retry of a create whose upstream call failed (502, nothing kept for the key) resumes the same record: one charge upstream", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    await sim("POST", "/__sim/faults", { token: t.upstreamKey, method: "POST", pathPrefix: "/v3/payments", fault: "status", status: 503 });
    const failed = await createPayment(t, customer.id, {}, { "Idempotency-Key": "paths-2" });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    const [pending] = await paymentsOf(t);
    expect(pending).toMatchObject({ sync_status: "pending", upstream_id: null });

    const retry = await createPayment(t, customer.id, {}, { "Idempotency-Key": "paths-2" });
    expect(retry.status).toBe(200);
    expect(retry.body.data).toMatchObject({ id: pending?.id, syncStatus: "synced" });
    expect(await paymentsOf(t)).toHaveLength(1);
    const charged = (await simRequests(t, "POST", "/v3/payments")).length;
    const upstream = (await sim<{ data: unknown[] }>("GET", `/v3/payments?externalReference=${pending?.id}`, undefined, t.upstreamKey))
      .body;
    expect(upstream.data).toHaveLength(1); // the faulted POST created nothing; the retry's created one
    expect(charged).toBe(2);
    expect(await eventsOf(t, "payment.created")).toHaveLength(1);
  });

  it("a missing or deleted customer is refused and leaves no record; a customer not yet known upstream is synced, then billed", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    expectError(await createPayment(t, "cus_missing", {}, { "Idempotency-Key": "paths-3" }), 400, "VALIDATION_FAILED");
    const deleted = await createCustomer(t);
    await env.DB.prepare("UPDATE customers SET deleted_at = ?1 WHERE id = ?2").bind(new Date().toISOString(), deleted.id).run();
    expectError(await createPayment(t, deleted.id, {}, { "Idempotency-Key": "paths-4" }), 409, "INVALID_STATE");
    expect(await paymentsOf(t)).toEqual([]);
    expect(await simRequests(t, "POST", "/v3/payments")).toHaveLength(0);

    const unsynced = await createCustomer(t, { name: "João Souza" });
    await env.DB.prepare("UPDATE customers SET upstream_id = NULL, sync_status = 'pending' WHERE id = ?1").bind(unsynced.id).run();
    const created = await createPayment(t, unsynced.id, {}, { "Idempotency-Key": "paths-5" });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ customer: unsynced.id, syncStatus: "synced" });
    const customer = await env.DB.prepare("SELECT upstream_id FROM customers WHERE id = ?1")
      .bind(unsynced.id)
      .first<{ upstream_id: string }>();
    expect(customer?.upstream_id).toMatch(/^cus_/);
    expect(await paymentsOf(t)).toHaveLength(1);
  });
});
