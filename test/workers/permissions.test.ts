// Missing permissions: every operation the OpenAPI document says is guarded by a permission answers
// 403 FORBIDDEN naming it to a key that holds everything else; every permission guards something; and
// the money-moving writes (refund, cancel) refuse without touching the payment, the subscription or
// the upstream.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PERMISSIONS } from "../../src/lib/permissions";
import { createPayment, createCustomer, dueDate, seedBillingTenant, sim, simRequests } from "./billing-support";
import { call, type ErrorBody, expectError, seedApiKey } from "./support";
import type { Reply, Payment, Plan, Subscription } from "./bodies";

interface Operation {
  method: string;
  path: string;
  operationId: string;
  permission: string;
}

async function guardedOperations(): Promise<Operation[]> {
  const doc = (await call("GET", "/api/v1/openapi.json")).body as {
    paths: Record<string, Record<string, { operationId: string; "x-permission"?: string }>>;
  };
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op["x-permission"]) out.push({ method: method.toUpperCase(), path, operationId: op.operationId, permission: op["x-permission"] });
    }
  }
  return out;
}

/** Every permission but `permission`; for `x.read`, `x.manage` goes too, since it implies read. */
const allBut = (permission: string) => PERMISSIONS.filter((p) => p !== permission && p !== permission.replace(/\.read$/, ".manage"));

describe("missing permissions", () => {
  it("every permission guards at least one documented operation, but for the few nothing uses yet", async () => {
    // No documented operation checks these today; a permission added without one fails here.
    const unused = ["audit_logs.manage"];
    const guarded = new Set((await guardedOperations()).map((o) => o.permission));
    expect(PERMISSIONS.filter((p) => !guarded.has(p))).toEqual(unused);
    expect([...guarded].filter((p) => !(PERMISSIONS as readonly string[]).includes(p))).toEqual([]);
  });

  it("every guarded operation answers 403 FORBIDDEN naming its permission to a key with all the others", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const operations = await guardedOperations();
    expect(operations.length).toBeGreaterThan(PERMISSIONS.length);
    const keys = new Map<string, string>();
    for (const permission of PERMISSIONS)
      keys.set(permission, (await seedApiKey(t.organizationId, null, { permissions: allBut(permission) })).key);
    const wrong: string[] = [];
    for (const op of operations) {
      const path = op.path.replace(/\{[^}]+\}/g, () => crypto.randomUUID());
      const res = await call<Partial<ErrorBody> | null>(op.method, path, {
        key: keys.get(op.permission)!,
        ...(["POST", "PUT", "PATCH"].includes(op.method) ? { body: {} } : {}),
      });
      if (res.status !== 403 || res.body?.error?.code !== "FORBIDDEN" || res.body.error.details?.requiredPermission !== op.permission) {
        wrong.push(
          `${op.method} ${op.path} (${op.permission}): ${res.status} ${JSON.stringify(res.body?.error?.details ?? res.body).slice(0, 120)}`,
        );
      }
    }
    expect(wrong).toEqual([]);
    // None of those calls reached the upstream.
    expect(await simRequests(t)).toEqual([]);
  }, 60_000);
});

describe("refund and cancel without payments.manage / subscriptions.manage", () => {
  it("refund: 403 naming payments.manage; the payment and the upstream are untouched", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id)).body.data;
    await sim("POST", `/v3/sandbox/payment/${payment.upstreamId}/confirm`, {}, t.upstreamKey);
    const before = (await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key })).body.data;
    expect(before.status).toBe("RECEIVED");
    const upstreamCalls = (await simRequests(t)).length;

    const { key } = await seedApiKey(t.organizationId, null, { permissions: allBut("payments.manage") });
    const error = expectError(
      await call<Reply<Payment>>("POST", `/api/v1/payments/${payment.id}/refund`, { key, body: {} }),
      403,
      "FORBIDDEN",
    );
    expect(error.details.requiredPermission).toBe("payments.manage");
    expect((await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key })).body.data).toEqual(before);
    expect((await simRequests(t)).length).toBe(upstreamCalls);
    const events = await env.DB.prepare("SELECT count(*) AS n FROM events WHERE workspace_id = ? AND type LIKE 'payment.refund%'")
      .bind(t.workspaceId)
      .first<{ n: number }>();
    expect(events?.n).toBe(0);
  });

  it("payment cancel: 403 naming payments.manage; the payment stays PENDING upstream and here", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id)).body.data;
    const { key } = await seedApiKey(t.organizationId, null, { permissions: allBut("payments.manage") });
    const error = expectError(await call<Reply<Payment>>("POST", `/api/v1/payments/${payment.id}/cancel`, { key }), 403, "FORBIDDEN");
    expect(error.details.requiredPermission).toBe("payments.manage");
    expect((await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key })).body.data.status).toBe("PENDING");
    expect(await simRequests(t, "DELETE", `/v3/payments/${payment.upstreamId}`)).toEqual([]);
  });

  it("subscription cancel: 403 naming subscriptions.manage; the subscription stays ACTIVE", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const plan = await call<Reply<Plan>>("POST", "/api/v1/plans", {
      key: t.key,
      body: { name: "Pro", value: "49.90", cycle: "MONTHLY", billingType: "PIX" },
    });
    const sub = await call<Reply<Subscription>>("POST", "/api/v1/subscriptions", {
      key: t.key,
      body: { plan: plan.body.data.id, customer: customer.id, nextDueDate: dueDate(3) },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const { key } = await seedApiKey(t.organizationId, null, { permissions: allBut("subscriptions.manage") });
    const error = expectError(
      await call<Reply<Subscription>>("POST", `/api/v1/subscriptions/${sub.body.data.id}/cancel`, { key }),
      403,
      "FORBIDDEN",
    );
    expect(error.details.requiredPermission).toBe("subscriptions.manage");
    expect((await call<Reply<Subscription>>("GET", `/api/v1/subscriptions/${sub.body.data.id}`, { key: t.key })).body.data.status).toBe(
      "ACTIVE",
    );
    expect(await simRequests(t, "DELETE", `/v3/subscriptions/${sub.body.data.upstreamId}`)).toEqual([]);
  });
});
