// Idempotent creates, the sync sweeper after upstream timeouts, inbound webhooks, subscriptions.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { reconcilePendingSync } from "../../src/modules/reconciliation/sweeper";
import { expandPermissions, PERMISSIONS } from "../../src/lib/permissions";
import { createPayment as createPaymentService } from "../../src/modules/payments/service";
import { ApiError } from "../../src/http/errors";
import type { OpenApiDocument } from "../openapi-types";
import { call, expectError } from "./support";
import {
  createPayment,
  createCustomer,
  dueDate,
  eventsOf,
  seedBillingTenant,
  sim,
  simRequests,
  testDeps,
  upstreamWebhook,
  type BillingTenant,
} from "./billing-support";
import type { Payment, PaymentMethod, Plan, Reply, Subscription } from "./bodies";

const principalOf = (t: BillingTenant) => ({
  kind: "api_key" as const,
  actorId: t.apiKeyId,
  organizationId: t.organizationId,
  workspaceId: t.workspaceId,
  environment: "test" as const,
  workspaceRestricted: false,
  permissions: expandPermissions(PERMISSIONS),
});
const later = () => new Date(Date.now() + 5 * 60_000);

describe("idempotent creates", () => {
  it("the same Idempotency-Key ×5 in parallel: one Ponte payment, one upstream POST", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => createPayment(t, customer.id, {}, { "Idempotency-Key": "order-42" })),
    );
    const okOnes = results.filter((r) => r.status === 200);
    expect(okOnes.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((r) => r.status !== 200)) expectError(r, 409, "IDEMPOTENCY_KEY_IN_USE");
    expect(new Set(okOnes.map((r) => r.body.data.id)).size).toBe(1);
    const again = await createPayment(t, customer.id, {}, { "Idempotency-Key": "order-42" });
    expect(again.body.data.id).toBe(okOnes[0]!.body.data.id);
    expect((await call<Reply<Payment[]>>("GET", "/api/v1/payments", { key: t.key })).body.meta.pagination.totalCount).toBe(1);
    expect(await simRequests(t, "POST", "/v3/payments")).toHaveLength(1);
  });
});

describe("sync sweeper", () => {
  it("upstream answers late (delay): the record stays pending; the sweeper links it by externalReference without a second payment", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    await sim("POST", "/__sim/faults", { token: t.upstreamKey, method: "POST", pathPrefix: "/v3/payments", fault: "delay", delayMs: 120 });
    const deps = testDeps({ upstreamTimeoutMs: 30 });
    const err = await createPaymentService(
      deps,
      principalOf(t),
      { customer: customer.id, billingType: "PIX", value: "50.00", dueDate: dueDate() },
      "late-1",
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("UPSTREAM_TIMEOUT");
    const pending = (await call<Reply<Payment[]>>("GET", "/api/v1/payments", { key: t.key })).body.data;
    expect(pending).toMatchObject([{ syncStatus: "pending", upstreamId: null, status: "PENDING" }]);
    await new Promise((r) => setTimeout(r, 150)); // let the delayed upstream create finish
    const report = await reconcilePendingSync(testDeps({ now: later }));
    expect(report.payments).toEqual({ synced: 1, failed: 0 });
    const synced = (await call<Reply<Payment>>("GET", `/api/v1/payments/${pending[0]!.id}`, { key: t.key })).body.data;
    expect(synced.syncStatus).toBe("synced");
    const upstreamPayments = (
      await sim<{ data: { id: string; externalReference: string }[] }>(
        "GET",
        `/v3/payments?externalReference=${pending[0]!.id}`,
        undefined,
        t.upstreamKey,
      )
    ).body.data;
    expect(upstreamPayments).toHaveLength(1);
    expect(synced.upstreamId).toBe(upstreamPayments[0]!.id);
    expect(await simRequests(t, "POST", "/v3/payments")).toHaveLength(1);
    expect((await eventsOf(t, "payment.created")).length).toBe(1);
    // A retry under the same key resumes the same record.
    const retry = await createPaymentService(
      testDeps(),
      principalOf(t),
      { customer: customer.id, billingType: "PIX", value: "50.00", dueDate: dueDate() },
      "late-1",
    );
    expect(retry.id).toBe(pending[0]!.id);
  });

  it("upstream never answers (timeout): pending; the sweeper re-creates it exactly once", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    await sim("POST", "/__sim/faults", {
      token: t.upstreamKey,
      method: "POST",
      pathPrefix: "/v3/payments",
      fault: "timeout",
      delayMs: 60_000,
    });
    const err = await createPaymentService(testDeps({ upstreamTimeoutMs: 30 }), principalOf(t), {
      customer: customer.id,
      billingType: "PIX",
      value: "50.00",
      dueDate: dueDate(),
    }).catch((e: unknown) => e);
    expect((err as ApiError).code).toBe("UPSTREAM_TIMEOUT");
    await sim("DELETE", `/__sim/faults?token=${encodeURIComponent(t.upstreamKey)}`);
    expect(await reconcilePendingSync(testDeps({ now: () => new Date() }))).toMatchObject({ payments: { synced: 0 } }); // within the grace period: untouched
    const report = await reconcilePendingSync(testDeps({ now: later }));
    expect(report.payments.synced).toBeGreaterThanOrEqual(1);
    const [row] = (await call<Reply<Payment[]>>("GET", "/api/v1/payments", { key: t.key })).body.data;
    expect(row).toMatchObject({ syncStatus: "synced" });
    const upstreamPayments = (await sim<{ data: unknown[] }>("GET", `/v3/payments?externalReference=${row!.id}`, undefined, t.upstreamKey))
      .body.data;
    expect(upstreamPayments).toHaveLength(1);
    await reconcilePendingSync(testDeps({ now: later }));
    expect(
      (await sim<{ data: unknown[] }>("GET", `/v3/payments?externalReference=${row!.id}`, undefined, t.upstreamKey)).body.data,
    ).toHaveLength(1);
  });
});

describe("inbound upstream webhooks", () => {
  it("missing or wrong token → 401; unknown account → 401", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const envelope = { id: "evt_1", event: "PAYMENT_RECEIVED", payment: { id: "pay_x" } };
    expectError(await upstreamWebhook(t, envelope, null), 401, "UNAUTHORIZED");
    expectError(await upstreamWebhook(t, envelope, "wrong"), 401, "UNAUTHORIZED");
    expectError(
      await call("POST", "/api/v1/webhooks/upstream/01a1ffd3-0000-7000-8000-000000000000", {
        body: envelope,
        headers: { "asaas-access-token": t.webhookToken },
      }),
      401,
      "UNAUTHORIZED",
    );
    expect(await eventsOf(t)).toEqual([]);
  });

  it("same event id twice → one effect; unknown records are recorded and re-emitted as upstream.<EVENT>", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const envelope = { id: "evt_dup", event: "PAYMENT_RECEIVED", payment: { id: "pay_unknown", status: "RECEIVED" } };
    const first = await upstreamWebhook(t, envelope);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ received: true, duplicate: false });
    expect((await upstreamWebhook(t, envelope)).body.data).toEqual({ received: true, duplicate: true });
    await upstreamWebhook(t, { id: "evt_other", event: "TRANSFER_DONE", transfer: { id: "tra_1" } });
    const events = await eventsOf(t);
    expect(events.map((e) => e.type)).toEqual(["upstream.PAYMENT_RECEIVED", "upstream.TRANSFER_DONE"]);
    expect(events[0]!.data).toMatchObject({ id: "evt_dup", payment: { id: "pay_unknown" } });
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM upstream_webhook_events WHERE gateway_account_id = ?")
      .bind(t.gatewayAccountId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(2);
  });

  it("a replayed PAYMENT_RECEIVED with a new id for an already-received payment emits nothing new", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id)).body.data;
    await sim("POST", `/v3/sandbox/payment/${payment.upstreamId}/confirm`, {}, t.upstreamKey);
    await upstreamWebhook(t, {
      id: "evt_replay",
      event: "PAYMENT_RECEIVED",
      payment: { id: payment.upstreamId, status: "RECEIVED", externalReference: payment.id },
    });
    await upstreamWebhook(t, {
      id: "evt_created_again",
      event: "PAYMENT_CREATED",
      payment: { id: payment.upstreamId, status: "PENDING", externalReference: payment.id },
    });
    expect((await eventsOf(t)).map((e) => e.type)).toEqual(["payment.created", "payment.received"]);
  });
});

const HOLDER = {
  name: "Maria Silva",
  email: "maria@example.com",
  cpfCnpj: "52998224725",
  postalCode: "01310-100",
  addressNumber: "100",
  phone: "11999990000",
};
const CARD = {
  holderName: "MARIA SILVA",
  number: "4111111111111111",
  expiryMonth: "12",
  expiryYear: String(new Date().getUTCFullYear() + 2),
  ccv: "123",
};

describe("saved-card ownership", () => {
  it("another customer's saved card (by id or by its upstream token) is refused for subscriptions and payments; nothing is created", async () => {
    const t = await seedBillingTenant();
    const owner = await createCustomer(t);
    const other = await createCustomer(t, { name: "João Lima", email: "joao@example.com" });
    const tok = await call<Reply<PaymentMethod>>("POST", "/api/v1/payment-methods/tokenize", {
      key: t.key,
      body: { customer: owner.id, creditCard: CARD, creditCardHolderInfo: HOLDER, remoteIp: "203.0.113.7" },
    });
    expect(tok.status).toBe(200);
    const plan = (
      await call<Reply<Plan>>("POST", "/api/v1/plans", {
        key: t.key,
        body: { name: "Pro", value: "49.90", cycle: "MONTHLY", billingType: "CREDIT_CARD" },
      })
    ).body.data;
    for (const token of [tok.body.data.id, tok.body.data.creditCardToken]) {
      const sub = await call<Reply<Subscription>>("POST", "/api/v1/subscriptions", {
        key: t.key,
        body: { plan: plan.id, customer: other.id, nextDueDate: dueDate(3), creditCardToken: token, remoteIp: "203.0.113.7" },
      });
      expect(expectError(sub, 400, "VALIDATION_FAILED").details.fields[0]?.path).toBe("body.creditCardToken");
      const payment = await createPayment(t, other.id, { billingType: "CREDIT_CARD", creditCardToken: token, remoteIp: "203.0.113.7" });
      expect(expectError(payment, 400, "VALIDATION_FAILED").details.fields[0]?.path).toBe("body.creditCardToken");
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM subscriptions WHERE workspace_id = ?").bind(t.workspaceId).first()).toEqual({
      n: 0,
    });
    expect(await simRequests(t, "POST", "/v3/subscriptions")).toHaveLength(0);
    // The owner's own card still works for a subscription.
    const mine = await call<Reply<Subscription>>("POST", "/api/v1/subscriptions", {
      key: t.key,
      body: { plan: plan.id, customer: owner.id, nextDueDate: dueDate(3), creditCardToken: tok.body.data.id, remoteIp: "203.0.113.7" },
    });
    expect(mine.status).toBe(201);
  });
});

describe("plans and subscriptions", () => {
  it("subscription from a plan: its first payment arrives by webhook, advance adds the next; cancel stops it", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const plan = await call<Reply<Plan>>("POST", "/api/v1/plans", {
      key: t.key,
      body: { name: "Pro", value: "49.90", cycle: "MONTHLY", billingType: "PIX" },
    });
    expect(plan.status).toBe(201);
    const sub = await call<Reply<Subscription>>("POST", "/api/v1/subscriptions", {
      key: t.key,
      body: { plan: plan.body.data.id, customer: customer.id, nextDueDate: dueDate(3) },
    });
    expect(sub.status).toBe(201);
    expect(sub.body.data).toMatchObject({
      object: "subscription",
      status: "ACTIVE",
      value: "49.90",
      cycle: "MONTHLY",
      billingType: "PIX",
      syncStatus: "synced",
    });
    let payments = (await call<Reply<Payment[]>>("GET", `/api/v1/payments?subscription=${sub.body.data.id}`, { key: t.key })).body.data;
    expect(payments).toMatchObject([{ subscription: sub.body.data.id, value: "49.90", status: "PENDING", customer: customer.id }]);
    await sim("POST", `/__sim/subscriptions/${sub.body.data.upstreamId}/advance?token=${encodeURIComponent(t.upstreamKey)}`);
    payments = (await call<Reply<Payment[]>>("GET", `/api/v1/payments?subscription=${sub.body.data.id}`, { key: t.key })).body.data;
    expect(payments).toHaveLength(2);
    const cancel = await call<Reply<Subscription>>("POST", `/api/v1/subscriptions/${sub.body.data.id}/cancel`, { key: t.key });
    expect(cancel.status).toBe(201);
    expect(cancel.body.data.status).toBe("CANCELED");
    expect(await simRequests(t, "DELETE", `/v3/subscriptions/${sub.body.data.upstreamId}`)).toHaveLength(1);
    const kinds = (await eventsOf(t)).map((e) => e.type);
    expect(kinds.filter((k) => k === "subscription.created")).toHaveLength(1);
    expect(kinds.filter((k) => k === "subscription.canceled")).toHaveLength(1);
    expect(kinds.filter((k) => k === "payment.created")).toHaveLength(2);
    expectError(
      await call<Reply<Subscription>>("POST", `/api/v1/subscriptions/${sub.body.data.id}/cancel`, { key: t.key }),
      409,
      "INVALID_STATE",
    );
  });

  it("archived plan → 409 INVALID_STATE; PATCH updates; other workspace → 404", async () => {
    const t = await seedBillingTenant();
    const other = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const plan = (
      await call<Reply<Plan>>("POST", "/api/v1/plans", {
        key: t.key,
        body: { name: "Basic", value: 19, cycle: "YEARLY", billingType: "BOLETO" },
      })
    ).body.data;
    expect(plan.value).toBe("19.00");
    const sub = (
      await call<Reply<Subscription>>("POST", "/api/v1/subscriptions", {
        key: t.key,
        body: { plan: plan.id, customer: customer.id, nextDueDate: dueDate(5), value: "15.00" },
      })
    ).body.data;
    expect(sub.value).toBe("15.00");
    const patched = await call<Reply<Subscription>>("PATCH", `/api/v1/subscriptions/${sub.id}`, { key: t.key, body: { value: "17.50" } });
    expect(patched.body.data.value).toBe("17.50");
    for (const [m, p] of [
      ["GET", `/api/v1/subscriptions/${sub.id}`],
      ["POST", `/api/v1/subscriptions/${sub.id}/cancel`],
      ["PATCH", `/api/v1/subscriptions/${sub.id}`],
      ["GET", `/api/v1/plans/${plan.id}`],
      ["POST", `/api/v1/plans/${plan.id}/archive`],
    ] as const) {
      expectError(await call(m, p, { key: other.key, ...(m === "PATCH" ? { body: {} } : {}) }), 404, "NOT_FOUND");
    }
    expect((await call<Reply<Plan>>("POST", `/api/v1/plans/${plan.id}/archive`, { key: t.key })).body.data.status).toBe("archived");
    const err = expectError(
      await call<Reply<Subscription>>("POST", "/api/v1/subscriptions", {
        key: t.key,
        body: { plan: plan.id, customer: customer.id, nextDueDate: dueDate(5) },
      }),
      409,
      "INVALID_STATE",
    );
    expect(err.details.status).toBe("archived");
  });
});

describe("OpenAPI", () => {
  it("documents the 21 native rows with catalogue metadata, and the internal billing routes", async () => {
    const doc = (await call<OpenApiDocument>("GET", "/api/v1/openapi.json")).body;
    const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, ...op })));
    const native = ops.filter((o) => o["x-implementation"] === "native" && o["x-surface"] === "public");
    expect(native).toHaveLength(21);
    const card = native.find((o) => o.operationId === "criar-cobranca-com-cartao-de-credito");
    expect(card).toMatchObject({
      path: "/api/v1/payments/",
      method: "post",
      tags: ["Cobranças", "payments"],
      "x-permission": "payments.manage",
    });
    const cancel = native.find((o) => o.operationId === "remover-assinatura");
    expect(Object.keys(cancel!.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "403", "404"]));
    expect(cancel!.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(["X-Organization-Id", "X-Workspace-Id"]));
    for (const id of ["plans-create", "payments-pix", "payments-cancel", "service-subscriptions-update", "webhooks-upstream-receive"]) {
      expect(ops.find((o) => o.operationId === id)?.["x-surface"]).toBe("internal");
    }
  });
});
