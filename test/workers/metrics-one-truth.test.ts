// Issue 25 #3 and issue 27: what the live rollups say is what the rebuild says. A cash receipt undone
// (through the gateway in both dialects, or by the upstream's webhook) reopens Ponte's record and takes
// its revenue back; a refused card never was pending, so it does not lower the pending amount.
import { env } from "cloudflare:test";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { addDays, localDay } from "../../src/lib/time-zones";
import { type AsaasClient, asaasCall, type Json } from "./asaas-support";
import { type BillingTenant, card, createCustomer, createPayment, eventsOf, HOLDER, seedBillingTenant, sim } from "./billing-support";
import { call, type Envelope } from "./support";

const V3: AsaasClient = { prefix: "/v3", header: "access_token" };
const today = () => localDay(new Date(), "America/Sao_Paulo");

interface SeriesBody {
  points: { periodStart: string; value: string | null }[];
  total: string | null;
}
async function series(t: BillingTenant, key: string) {
  const res = await call<Envelope<SeriesBody>>("GET", `/api/v1/metrics/${key}?from=${addDays(today(), -3)}&to=${addDays(today(), 3)}`, {
    key: t.key,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
const level = async (t: BillingTenant, key: string) => (await series(t, key)).points.at(-1)?.value;

/** The workspace's non-zero daily rows. */
async function rollupRows(t: BillingTenant) {
  const rows = await env.DB.prepare(
    "SELECT metric, day, value FROM metric_daily WHERE workspace_id = ? AND value <> 0 ORDER BY metric, day",
  )
    .bind(t.workspaceId)
    .all<{ metric: string; day: string; value: number }>();
  return rows.results;
}

/** The rows the live rollups hold are the rows a rebuild writes. */
async function expectRebuildToAgree(t: BillingTenant) {
  const incremental = await rollupRows(t);
  const rebuilt = await call("POST", "/api/v1/metrics/rebuild", { key: t.key });
  expect(rebuilt.status, JSON.stringify(rebuilt.body)).toBe(200);
  expect(await rollupRows(t)).toEqual(incremental);
}

async function paymentStatus(t: BillingTenant, id: string) {
  const res = await call<Envelope<{ status: string; paymentDate: string | null }>>("GET", `/api/v1/payments/${id}`, { key: t.key });
  expect(res.status).toBe(200);
  return res.body.data;
}

describe("a cash receipt undone reopens the charge and takes its revenue back (issue 25)", () => {
  it("Bearer POST /api/v1/payments/{id}/undoReceivedInCash: PENDING again, revenue 0, pending back, payment.updated; the rebuild agrees", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id, { value: "100.00", billingType: "BOLETO" })).body.data;
    const receive = await call("POST", `/api/v1/payments/${payment.id}/receiveInCash`, {
      key: t.key,
      body: { paymentDate: today(), value: 100 },
    });
    expect(receive.status, JSON.stringify(receive.body)).toBe(200);
    expect((await paymentStatus(t, payment.id)).status).toBe("RECEIVED_IN_CASH");
    expect((await series(t, "revenue")).total).toBe("100.00");
    expect(await level(t, "pending_amount")).toBe("0.00");

    const undo = await call("POST", `/api/v1/payments/${payment.id}/undoReceivedInCash`, { key: t.key, body: {} });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect(await paymentStatus(t, payment.id)).toMatchObject({ status: "PENDING", paymentDate: null });
    expect((await series(t, "revenue")).total).toBe("0.00");
    expect(await level(t, "pending_amount")).toBe("100.00");
    const updated = (await eventsOf(t, "payment.updated")).filter((e) => e.data.id === payment.id);
    expect(updated.map((e) => e.data.status)).toEqual(["PENDING"]);
    await expectRebuildToAgree(t);
  });

  it("Asaas dialect POST /v3/payments/{id}/undoReceivedInCash: the same, its webhook following it counting nothing twice", async () => {
    const t = await seedBillingTenant();
    const customers = await asaasCall(V3, t.key, "POST", "/customers", { name: "Maria Silva", cpfCnpj: "52998224725" });
    expect(customers.status, JSON.stringify(customers.body)).toBe(200);
    const created = await asaasCall(V3, t.key, "POST", "/payments", {
      customer: (customers.body as Json).id,
      billingType: "BOLETO",
      value: 40,
      dueDate: addDays(today(), 3),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = (created.body as Json).id as string;
    const received = await asaasCall(V3, t.key, "POST", `/payments/${id}/receiveInCash`, { paymentDate: today(), value: 40 });
    expect(received.body).toMatchObject({ status: "RECEIVED_IN_CASH" });
    expect((await series(t, "revenue")).total).toBe("40.00");

    const undone = await asaasCall(V3, t.key, "POST", `/payments/${id}/undoReceivedInCash`, {});
    expect(undone.body).toMatchObject({ id, status: "PENDING" });
    const [native] = (await call<Envelope<{ id: string; status: string }[]>>("GET", "/api/v1/payments", { key: t.key })).body.data;
    expect(native?.status).toBe("PENDING");
    expect((await series(t, "revenue")).total).toBe("0.00");
    expect(await level(t, "pending_amount")).toBe("40.00");
    await expectRebuildToAgree(t);
  });

  it("the upstream's PAYMENT_RECEIVED_IN_CASH_UNDONE webhook alone (undone in its panel) reopens Ponte's record", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id, { value: "75.50", billingType: "BOLETO" })).body.data;
    const upstreamId = payment.upstreamId as string;
    expect(
      (await sim("POST", `/v3/payments/${upstreamId}/receiveInCash`, { paymentDate: today(), value: 75.5 }, t.upstreamKey)).status,
    ).toBe(200);
    expect((await paymentStatus(t, payment.id)).status).toBe("RECEIVED_IN_CASH");
    expect((await sim("POST", `/v3/payments/${upstreamId}/undoReceivedInCash`, {}, t.upstreamKey)).status).toBe(200);
    expect((await paymentStatus(t, payment.id)).status).toBe("PENDING");
    expect((await series(t, "revenue")).total).toBe("0.00");
    expect(await level(t, "pending_amount")).toBe("75.50");
    await expectRebuildToAgree(t);
  });
});

describe("a refused card charge (issue 27)", () => {
  it("leaves the pending amount where it was (158.33 stays 158.33, not 158.33 − 0.33), as the rebuild says", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    await createPayment(t, customer.id, { value: "158.33" });
    expect(await level(t, "pending_amount")).toBe("158.33");
    const refused = await createPayment(t, customer.id, {
      value: "0.33",
      billingType: "CREDIT_CARD",
      creditCard: card("5184019740373151"),
      creditCardHolderInfo: HOLDER,
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(await level(t, "pending_amount")).toBe("158.33");
    expect((await series(t, "billed")).total).toBe("158.33");
    await expectRebuildToAgree(t);
  });
});

type Action =
  | { op: "charge"; cents: number }
  | { op: "card-refused"; cents: number }
  | { op: "cash" | "undo" | "cancel" | "restore" | "confirm"; pick: number }
  | { op: "value"; pick: number; cents: number }
  | { op: "expense"; cents: number; daysAgo: number }
  | { op: "expense-delete"; pick: number };

const pick = fc.nat({ max: 5 });
const cents = fc.integer({ min: 100, max: 500_000 });
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ op: fc.constant("charge" as const), cents }),
  fc.record({ op: fc.constant("card-refused" as const), cents }),
  fc.record({ op: fc.constantFrom("cash" as const, "undo" as const, "cancel" as const, "restore" as const, "confirm" as const), pick }),
  fc.record({ op: fc.constant("value" as const), pick, cents }),
  fc.record({ op: fc.constant("expense" as const), cents, daysAgo: fc.nat({ max: 2 }) }),
  fc.record({ op: fc.constant("expense-delete" as const), pick }),
);
const money = (c: number) => (c / 100).toFixed(2);

describe("one truth through the routes and D1", () => {
  // Small on purpose (each run is a tenant and a handful of real calls); the unit property covers breadth.
  test.prop([fc.array(actionArb, { minLength: 3, maxLength: 6 })], { numRuns: 3 })(
    "after a random sequence of charges, cash receipts and undos, cancels, restores, value changes, refused cards and expenses, the live rows are the rebuild's",
    async (actions) => {
      const t = await seedBillingTenant();
      const customer = await createCustomer(t);
      const category = await call<Envelope<{ id: string }>>("POST", "/api/v1/cost-categories", {
        key: t.key,
        body: { name: "Cloud", kind: "VARIABLE" },
      });
      expect(category.status, JSON.stringify(category.body)).toBe(201);
      const charges: { id: string; upstreamId: string; cents: number }[] = [];
      const expenses: string[] = [];
      const charge = (n: number) => charges[n % Math.max(1, charges.length)];
      for (const a of actions) {
        let status = 200;
        if (a.op === "charge" || a.op === "card-refused") {
          const refusedCard =
            a.op === "card-refused"
              ? { billingType: "CREDIT_CARD", creditCard: card("5184019740373151"), creditCardHolderInfo: HOLDER }
              : {};
          const res = await createPayment(t, customer.id, { value: money(a.cents), billingType: "BOLETO", ...refusedCard });
          status = res.status;
          if (res.status === 200) charges.push({ id: res.body.data.id, upstreamId: res.body.data.upstreamId as string, cents: a.cents });
        } else if (a.op === "expense") {
          const res = await call<Envelope<{ id: string }>>("POST", "/api/v1/expenses", {
            key: t.key,
            body: {
              description: "Servers",
              amount: money(a.cents),
              incurredOn: addDays(today(), -a.daysAgo),
              costCategoryId: category.body.data.id,
            },
          });
          status = res.status;
          if (res.status < 300) expenses.push(res.body.data.id);
        } else if (a.op === "expense-delete") {
          const id = expenses.splice(a.pick % Math.max(1, expenses.length), 1)[0];
          if (id) status = (await call("DELETE", `/api/v1/expenses/${id}`, { key: t.key })).status;
        } else {
          const c = charge(a.pick);
          if (!c) continue;
          const path = `/api/v1/payments/${c.id}`;
          const res =
            a.op === "cash"
              ? await call("POST", `${path}/receiveInCash`, { key: t.key, body: { paymentDate: today(), value: c.cents / 100 } })
              : a.op === "undo"
                ? await call("POST", `${path}/undoReceivedInCash`, { key: t.key, body: {} })
                : a.op === "cancel"
                  ? await call("DELETE", path, { key: t.key })
                  : a.op === "restore"
                    ? await call("POST", `${path}/restore`, { key: t.key, body: {} })
                    : a.op === "value"
                      ? await call("PUT", path, { key: t.key, body: { value: a.cents / 100 } })
                      : await sim("POST", `/v3/sandbox/payment/${c.upstreamId}/confirm`, {}, t.upstreamKey);
          status = res.status;
        }
        // A step the charge's status does not allow is refused; none may fail the server.
        expect(status).toBeLessThan(500);
      }
      await expectRebuildToAgree(t);
    },
  );
});
