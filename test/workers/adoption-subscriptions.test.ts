// One source of truth for subscriptions (issue 12): a subscription made outside Ponte (the upstream's
// panel, a payment link or checkout) or answered by a compatibility route becomes a Ponte subscription
// (no plan; origin gateway / upstream) with subscription.* events, whichever path brings it first; writes
// through the gateway or in the upstream keep Ponte's copy current, and the metrics move with it.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Passthrough, Payment, Plan, Reply, Subscription } from "./bodies";
import { createCustomer, dueDate, eventsOf, seedBillingTenant, sim, testDeps, type BillingTenant } from "./billing-support";
import { call } from "./support";
import { adoptMissedPayments } from "../../src/modules/reconciliation/adopt-missed";

interface UpstreamSubscriptionBody {
  id: string;
  object: "subscription";
  customer: string;
  value: number;
  status: string;
}

const listSubscriptions = async (t: BillingTenant) =>
  (await call<Reply<Subscription[]>>("GET", "/api/v1/subscriptions", { key: t.key })).body.data;

const byUpstreamId = async (t: BillingTenant, upstreamId: string) =>
  (await listSubscriptions(t)).filter((s) => s.upstreamId === upstreamId);

/** Level metrics are stored as daily changes: their sum is today's level. */
async function level(t: BillingTenant, metric: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COALESCE(SUM(value), 0) AS v FROM metric_daily WHERE workspace_id = ? AND metric = ?")
    .bind(t.workspaceId, metric)
    .first<{ v: number }>();
  return row?.v ?? 0;
}

/** A customer and a subscription made directly in the upstream, as its panel would. */
async function outsideSubscription(t: BillingTenant, value = 30, extra: Record<string, unknown> = {}) {
  const customer = await sim<{ id: string }>("POST", "/v3/customers", { name: "Bia Nunes", cpfCnpj: "24971563792" }, t.upstreamKey);
  const sub = await sim<UpstreamSubscriptionBody>(
    "POST",
    "/v3/subscriptions",
    { customer: customer.body.id, billingType: "PIX", value, nextDueDate: dueDate(3), cycle: "MONTHLY", ...extra },
    t.upstreamKey,
  );
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  return { customer: customer.body.id, sub: sub.body };
}

describe("adoption through the upstream's webhooks", () => {
  it("SUBSCRIPTION_CREATED adopts the subscription (no plan, origin upstream) and its customer; its first payment links to it", async () => {
    const t = await seedBillingTenant();
    const { customer, sub } = await outsideSubscription(t, 49.9, { externalReference: "crm-7" });
    const [adopted, ...more] = await byUpstreamId(t, sub.id);
    expect(more).toEqual([]);
    expect(adopted).toMatchObject({
      origin: "upstream",
      plan: null,
      value: "49.90",
      cycle: "MONTHLY",
      billingType: "PIX",
      status: "ACTIVE",
      syncStatus: "synced",
      externalReference: "crm-7",
    });
    const payments = (await call<Reply<Payment[]>>("GET", `/api/v1/payments?subscription=${adopted?.id}`, { key: t.key })).body.data;
    expect(payments).toMatchObject([{ origin: "upstream", value: "49.90", customer: adopted?.customer }]);
    const customerRow = await env.DB.prepare("SELECT origin, upstream_id FROM customers WHERE id = ?").bind(adopted?.customer).first();
    expect(customerRow).toEqual({ origin: "upstream", upstream_id: customer });
    const events = await eventsOf(t);
    expect(events.map((e) => e.type)).toEqual(["subscription.created", "payment.created"]);
    expect(events[0]?.data).toMatchObject({ id: adopted?.id, object: "subscription", value: "49.90", plan: null, upstreamId: sub.id });
    expect(await level(t, "mrr")).toBe(4990);
    expect(await level(t, "active_subscriptions")).toBe(1);
    expect(await level(t, "new_subscriptions")).toBe(1);
  });

  it("a change made in the upstream (SUBSCRIPTION_UPDATED, then SUBSCRIPTION_DELETED) reaches Ponte's record and the MRR", async () => {
    const t = await seedBillingTenant();
    const { sub } = await outsideSubscription(t, 30);
    expect((await sim("PUT", `/v3/subscriptions/${sub.id}`, { value: 45, cycle: "YEARLY" }, t.upstreamKey)).status).toBe(200);
    const [updated] = await byUpstreamId(t, sub.id);
    expect(updated).toMatchObject({ value: "45.00", cycle: "YEARLY", status: "ACTIVE" });
    const changes = await eventsOf(t, "subscription.updated");
    expect(changes.map((e) => e.data)).toEqual([expect.objectContaining({ id: updated?.id, value: "45.00", cycle: "YEARLY" })]);
    expect(await level(t, "mrr")).toBe(375); // 45.00 a year

    expect((await sim("DELETE", `/v3/subscriptions/${sub.id}`, undefined, t.upstreamKey)).status).toBe(200);
    const [canceled] = await byUpstreamId(t, sub.id);
    expect(canceled?.status).toBe("CANCELED");
    expect(await level(t, "mrr")).toBe(0);
    expect(await level(t, "active_subscriptions")).toBe(0);
    expect((await eventsOf(t)).map((e) => e.type)).toEqual([
      "subscription.created",
      "payment.created",
      "subscription.updated",
      "payment.canceled",
      "subscription.canceled",
    ]);
    // A late update never reopens it.
    await call("POST", `/api/v1/webhooks/upstream/${t.gatewayAccountId}`, {
      body: { id: `evt_${crypto.randomUUID()}`, event: "SUBSCRIPTION_UPDATED", subscription: { ...sub, value: 99, status: "ACTIVE" } },
      headers: { "asaas-access-token": t.webhookToken },
    });
    expect((await byUpstreamId(t, sub.id))[0]).toMatchObject({ status: "CANCELED", value: "45.00" });
  });
});

describe("adoption and read-after-write through the gateway", () => {
  it("PUT /subscriptions/{upstream id} on an unknown subscription adopts it from the answer (origin gateway), no webhook needed", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const { sub } = await outsideSubscription(t, 20);
    expect(await byUpstreamId(t, sub.id)).toEqual([]);
    const put = await call<Passthrough<UpstreamSubscriptionBody>>("PUT", `/api/v1/subscriptions/${sub.id}`, {
      key: t.key,
      body: { value: 25, description: "plano novo" },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const [adopted, ...more] = await byUpstreamId(t, sub.id);
    expect(more).toEqual([]);
    expect(adopted).toMatchObject({ origin: "gateway", plan: null, value: "25.00", description: "plano novo" });
    expect((await eventsOf(t)).map((e) => e.type)).toEqual(["subscription.created"]);
    expect(await level(t, "mrr")).toBe(2500);
  });

  it("PUT /subscriptions/{Ponte id} changes a native subscription in the same request, with subscription.updated and the MRR moved", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const plan = (
      await call<Reply<Plan>>("POST", "/api/v1/plans", {
        key: t.key,
        body: { name: "Pro", value: "49.90", cycle: "MONTHLY", billingType: "PIX" },
      })
    ).body.data;
    const sub = (
      await call<Reply<Subscription>>("POST", "/api/v1/subscriptions", {
        key: t.key,
        body: { plan: plan.id, customer: customer.id, nextDueDate: dueDate(3) },
      })
    ).body.data;
    expect(await level(t, "mrr")).toBe(4990);
    const put = await call<Passthrough<UpstreamSubscriptionBody>>("PUT", `/api/v1/subscriptions/${sub.id}`, {
      key: t.key,
      body: { value: 59.9 },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    // Bearer: Ponte's vocabulary — the record's UUID, the upstream's id beside it, money as a decimal string.
    expect(put.body.data).toMatchObject({ id: sub.id, upstreamId: sub.upstreamId, value: "59.90" });
    const got = (await call<Reply<Subscription>>("GET", `/api/v1/subscriptions/${sub.id}`, { key: t.key })).body.data;
    expect(got).toMatchObject({ value: "59.90", plan: plan.id, origin: "api", externalReference: null });
    expect((await eventsOf(t, "subscription.updated")).map((e) => e.data)).toEqual([
      expect.objectContaining({ id: sub.id, value: "59.90" }),
    ]);
    expect(await level(t, "mrr")).toBe(5990);
    expect(await level(t, "active_subscriptions")).toBe(1);
  });

  it("PUT /subscriptions/{id}/creditCard answers the subscription: known, it stays one record brought up to date; the same facts again emit nothing", async () => {
    const t = await seedBillingTenant();
    const { customer, sub } = await outsideSubscription(t, 15);
    const token = await sim<{ creditCardToken: string }>(
      "POST",
      "/v3/creditCard/tokenizeCreditCard",
      {
        customer,
        creditCard: {
          holderName: "BIA",
          number: "4111111111111111",
          expiryMonth: "12",
          expiryYear: String(new Date().getUTCFullYear() + 2),
          ccv: "123",
        },
        creditCardHolderInfo: {
          name: "Bia",
          email: "b@example.com",
          cpfCnpj: "24971563792",
          postalCode: "01001000",
          addressNumber: "1",
          phone: "1133334444",
        },
        remoteIp: "10.0.0.1",
      },
      t.upstreamKey,
    );
    const [adopted] = await byUpstreamId(t, sub.id);
    const put = await call<Passthrough<UpstreamSubscriptionBody>>("PUT", `/api/v1/subscriptions/${adopted?.id}/creditCard`, {
      key: t.key,
      body: { creditCardToken: token.body.creditCardToken, remoteIp: "10.0.0.1" },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data).toMatchObject({ object: "subscription", id: adopted?.id, upstreamId: sub.id });
    // The answer states the upstream's current terms: the due date moved on when the first payment was generated.
    const upstreamNow = await sim<{ nextDueDate: string }>("GET", `/v3/subscriptions/${sub.id}`, undefined, t.upstreamKey);
    const [after, ...more] = await byUpstreamId(t, sub.id);
    expect(more).toEqual([]);
    expect(after).toMatchObject({ id: adopted?.id, nextDueDate: upstreamNow.body.nextDueDate, value: "15.00" });
    const kinds = async () => (await eventsOf(t)).map((e) => e.type).filter((k) => k.startsWith("subscription."));
    expect(await kinds()).toEqual(["subscription.created", "subscription.updated"]);
    await call("PUT", `/api/v1/subscriptions/${adopted?.id}/creditCard`, {
      key: t.key,
      body: { creditCardToken: token.body.creditCardToken, remoteIp: "10.0.0.1" },
    });
    expect(await kinds()).toEqual(["subscription.created", "subscription.updated"]);
  });
});

describe("the adoption sweep", () => {
  it("adopts a subscription whose webhook never arrived, and links its payment to it, once however often it runs", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const { sub } = await outsideSubscription(t, 12);
    await adoptMissedPayments(testDeps());
    const [adopted, ...more] = await byUpstreamId(t, sub.id);
    expect(more).toEqual([]);
    expect(adopted).toMatchObject({ origin: "upstream", plan: null, value: "12.00" });
    const payments = (await call<Reply<Payment[]>>("GET", `/api/v1/payments?subscription=${adopted?.id}`, { key: t.key })).body.data;
    expect(payments).toHaveLength(1);
    await adoptMissedPayments(testDeps());
    expect(await byUpstreamId(t, sub.id)).toHaveLength(1);
    expect((await eventsOf(t)).map((e) => e.type)).toEqual(["subscription.created", "payment.created"]);
    expect(await level(t, "mrr")).toBe(1200);
  });
});
