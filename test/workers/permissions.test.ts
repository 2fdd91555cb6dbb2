// Missing permissions: every operation answers 403 FORBIDDEN naming its permission (from the
// independent list in openapi-operations.ts, which must also be what the document says) to a key
// that holds everything else; every permission guards something; and
// the money-moving writes (refund, cancel) refuse without touching the payment, the subscription or
// the upstream.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../src/compat/catalogue";
import { PERMISSIONS, type Permission } from "../../src/lib/permissions";
import { type ApiOperation, apiOperations } from "./openapi-operations";
import { createPayment, createCustomer, dueDate, seedBillingTenant, sim, simRequests } from "./billing-support";
import { PLATFORM_PERMISSIONS } from "./platform-permissions";
import { call, type ErrorBody, expectError, seedApiKey } from "./support";
import type { Reply, Payment, Plan, Subscription } from "./bodies";

/** The operations that must check a permission, with the one from the independent list (not the document's). */
async function guardedOperations() {
  return (await apiOperations()).filter((op) => op.permission !== null) as (ApiOperation & { permission: Permission })[];
}

/** Every permission but `permission`; for `x.read`, `x.manage` goes too, since it implies read. */
const allBut = (permission: string) => PERMISSIONS.filter((p) => p !== permission && p !== permission.replace(/\.read$/, ".manage"));

describe("missing permissions", () => {
  it("every documented operation's x-permission is the independent one: the catalogue's column, or platform-permissions.ts", async () => {
    const operations = await apiOperations();
    expect(operations.filter((op) => !op.listed).map((op) => `${op.label} (add it to test/workers/platform-permissions.ts)`)).toEqual([]);
    const differing = operations
      .filter((op) => op.documentedPermission !== op.permission)
      .map((op) => `${op.label}: documented ${op.documentedPermission}, expected ${op.permission}`);
    expect(differing).toEqual([]);
    // Both lists are complete and name only documented operations.
    const ids = new Set(operations.map((op) => op.operationId));
    expect(CATALOGUE.filter((o) => !ids.has(o.operationId)).map((o) => o.operationId)).toEqual([]);
    const labels = new Set(operations.map((op) => op.label));
    expect(Object.keys(PLATFORM_PERMISSIONS).filter((label) => !labels.has(label))).toEqual([]);
    expect(operations.length).toBe(CATALOGUE.length + Object.keys(PLATFORM_PERMISSIONS).length);
  });

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
