// Analytics test support: records written straight into D1 (as the demo history does), then the rollups
// rebuilt through the API, so a report is checked against figures worked out by hand.
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { createDb } from "../../src/db/client";
import { costCategories, customers, expenses, payments, plans, refunds, subscriptions } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import { call, type Envelope, type TestTenant } from "./support";

const db = () => createDb(env.DB);
const stamp = "2026-01-02T12:00:00.000Z";

export function records(t: TestTenant) {
  const tenant = { organizationId: t.organizationId, workspaceId: t.workspaceId };
  return {
    async customer(name: string, createdAt = stamp) {
      const id = newId();
      await db()
        .insert(customers)
        .values({
          id,
          ...tenant,
          upstreamId: `cus_${id.slice(-12)}`,
          syncStatus: "synced",
          name,
          cpfCnpj: "52998224725",
          personType: "FISICA",
          createdAt,
          updatedAt: createdAt,
        });
      return id;
    },
    async plan(name: string, valueCents: number, cycle: "MONTHLY" | "YEARLY" = "MONTHLY") {
      const id = newId();
      await db()
        .insert(plans)
        .values({ id, ...tenant, name, valueCents, cycle, billingType: "PIX", status: "active", createdAt: stamp, updatedAt: stamp });
      return id;
    },
    async subscription(
      customerId: string,
      planId: string,
      valueCents: number,
      o: { status?: "ACTIVE" | "CANCELED"; cycle?: string; createdAt?: string; canceledAt?: string } = {},
    ) {
      const id = newId();
      await db()
        .insert(subscriptions)
        .values({
          id,
          ...tenant,
          upstreamId: `sub_${id.slice(-12)}`,
          syncStatus: "synced",
          planId,
          customerId,
          billingType: "PIX",
          valueCents,
          cycle: o.cycle ?? "MONTHLY",
          nextDueDate: "2026-12-01",
          status: o.status ?? "ACTIVE",
          canceledAt: o.canceledAt ?? null,
          createdAt: o.createdAt ?? stamp,
          updatedAt: o.canceledAt ?? o.createdAt ?? stamp,
        });
      return id;
    },
    async payment(
      customerId: string,
      valueCents: number,
      o: {
        subscriptionId?: string;
        status?: string;
        paymentDate?: string;
        netValueCents?: number;
        dueDate?: string;
        createdAt?: string;
      } = {},
    ) {
      const id = newId();
      const paymentDate = o.paymentDate ?? null;
      await db()
        .insert(payments)
        .values({
          id,
          ...tenant,
          upstreamId: `pay_${id.slice(-12)}`,
          syncStatus: "synced",
          customerId,
          subscriptionId: o.subscriptionId ?? null,
          billingType: "PIX",
          status: o.status ?? (paymentDate ? "RECEIVED" : "PENDING"),
          valueCents,
          dueDate: o.dueDate ?? paymentDate ?? "2026-12-01",
          paymentDate,
          netValueCents: o.netValueCents ?? null,
          createdAt: o.createdAt ?? stamp,
          updatedAt: paymentDate ? `${paymentDate}T15:00:00.000Z` : (o.createdAt ?? stamp),
        });
      return id;
    },
    async refund(paymentId: string, valueCents: number, at: string) {
      await db()
        .insert(refunds)
        .values({ id: newId(), ...tenant, paymentId, valueCents, status: "done", createdAt: at, updatedAt: at });
    },
    async category(key: string, name: string) {
      const id = newId();
      await db()
        .insert(costCategories)
        .values({ id, ...tenant, key, name, kind: "VARIABLE", createdAt: stamp, updatedAt: stamp });
      return id;
    },
    async expense(
      costCategoryId: string,
      amountCents: number,
      incurredOn: string,
      o: { planId?: string; customerId?: string; status?: "PENDING" | "PAID" | "CANCELED" } = {},
    ) {
      await db()
        .insert(expenses)
        .values({
          id: newId(),
          ...tenant,
          description: "test expense",
          amountCents,
          currency: "BRL",
          amountBrlCents: amountCents,
          incurredOn,
          status: o.status ?? "PAID",
          costCategoryId,
          planId: o.planId ?? null,
          customerId: o.customerId ?? null,
          source: "MANUAL",
          createdAt: stamp,
          updatedAt: stamp,
        });
    },
  };
}

/** POST /metrics/rebuild: the rollups recomputed from the records written above. */
export async function rebuild(t: TestTenant) {
  const res = await call("POST", "/api/v1/metrics/rebuild", { key: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A metric's total over a range, as GET /metrics answers it. */
export async function metricTotal(t: TestTenant, key: string, from: string, to: string) {
  const res = await call<Envelope<{ total: string | null }>>("GET", `/api/v1/metrics/${key}?from=${from}&to=${to}`, { key: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.total;
}
