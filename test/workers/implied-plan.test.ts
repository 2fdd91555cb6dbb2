// A subscription without a plan (the Asaas dialect's value + cycle) finds or makes its plan inside the
// subscription create, after authentication, permission, rate limit and idempotency (issue 26 item 3):
// a refused request writes no plan, a failed subscription leaves none behind, a replay makes one.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PERMISSIONS } from "../../src/lib/permissions";
import { dueDate, seedBillingTenant, type BillingTenant } from "./billing-support";
import { addFault, clearFaults } from "./gateway-support";
import { BASE, seedApiKey } from "./support";

const planCount = async (t: BillingTenant) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM plans WHERE workspace_id = ?").bind(t.workspaceId).first<{ n: number }>())?.n;
const subscriptionCount = async (t: BillingTenant) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM subscriptions WHERE workspace_id = ?").bind(t.workspaceId).first<{ n: number }>())?.n;

async function asaas(key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await SELF.fetch(`${BASE}/api/v1${path}`, {
    method,
    headers: { access_token: key, "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function customerOf(t: BillingTenant) {
  const res = await asaas(t.key, "POST", "/customers", { name: "Maria Silva", cpfCnpj: "52998224725" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}

const terms = (customer: string) => ({ customer, billingType: "PIX", value: 49.9, cycle: "MONTHLY", nextDueDate: dueDate(3) });

describe("the implied plan of a subscription without one", () => {
  it("a key without subscriptions.manage: 403 and no plan written", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await customerOf(t);
    const { key } = await seedApiKey(t.organizationId, t.workspaceId, {
      permissions: PERMISSIONS.filter((p) => p !== "subscriptions.manage"),
    });
    const res = await asaas(key, "POST", "/subscriptions", terms(customer));
    expect(res.status).toBe(403);
    expect(await planCount(t)).toBe(0);
    expect(await subscriptionCount(t)).toBe(0);
  });

  it("a subscription that fails (bad body, refused upstream): 400 and no plan left behind", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await customerOf(t);
    const missingCycle = await asaas(t.key, "POST", "/subscriptions", { ...terms(customer), cycle: undefined });
    expect(missingCycle.status).toBe(400);
    const badDate = await asaas(t.key, "POST", "/subscriptions", { ...terms(customer), nextDueDate: "tomorrow" });
    expect(badDate.status).toBe(400);
    const unknownCustomer = await asaas(t.key, "POST", "/subscriptions", terms("cus_000000000000"));
    expect(unknownCustomer.status).toBeGreaterThanOrEqual(400);
    expect(unknownCustomer.status).toBeLessThan(500);
    expect(await planCount(t)).toBe(0);

    // The upstream refuses the subscription after the plan and the subscription were written: both go.
    await addFault(t.upstreamKey, { method: "POST", pathPrefix: "/v3/subscriptions", fault: "status", status: 400 });
    const refused = await asaas(t.key, "POST", "/subscriptions", terms(customer));
    await clearFaults(t.upstreamKey);
    expect(refused.status).toBe(400);
    expect(await planCount(t)).toBe(0);
    expect(await subscriptionCount(t)).toBe(0);
  });

  it("an idempotent replay answers the same subscription and makes one plan; a second subscription shares it", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await customerOf(t);
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const first = await asaas(t.key, "POST", "/subscriptions", terms(customer), headers);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const replay = await asaas(t.key, "POST", "/subscriptions", terms(customer), headers);
    expect(replay.status, JSON.stringify(replay.body)).toBe(200);
    expect(replay.body.id).toBe(first.body.id);
    expect(await planCount(t)).toBe(1);
    expect(await subscriptionCount(t)).toBe(1);
    const second = await asaas(t.key, "POST", "/subscriptions", { ...terms(customer), nextDueDate: dueDate(5) });
    expect(second.status).toBe(200);
    expect(await planCount(t)).toBe(1);
    const plan = await env.DB.prepare("SELECT name, value_cents, cycle FROM plans WHERE workspace_id = ?").bind(t.workspaceId).first();
    expect(plan).toEqual({ name: "Asaas MONTHLY 49.90 PIX", value_cents: 4990, cycle: "MONTHLY" });
  });
});
