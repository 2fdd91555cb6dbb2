import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { customers, expenses, plans } from "../../src/db/schema";
import { backgroundDeps } from "../../src/deps";
import { newId } from "../../src/lib/ids";
import { materialiseRecurringExpenses } from "../../src/modules/expenses/recurrence";
import { type Envelope, type ErrorBody, call, expectError, seedTenant, type TestTenant } from "./support";

interface Expense {
  id: string;
  amount: string;
  currency: string;
  exchangeRate: string | null;
  amountBrl: string;
  incurredOn: string;
  dueDate: string | null;
  paidAt: string | null;
  status: string;
  costCategoryId: string;
  supplierId: string | null;
  source: string;
  sourceRef: string | null;
  recurrenceParentId: string | null;
}

const db = () => createDb(env.DB);
const post = (t: TestTenant, path: string, body: unknown) => call<Envelope<Expense> | ErrorBody>("POST", path, { key: t.key, body });
const created = async <T = Expense>(t: TestTenant, path: string, body: unknown) => {
  const res = await post(t, path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as unknown as Envelope<T>).data;
};
const category = (t: TestTenant, name = "Cloud", parentId?: string) =>
  created<{ id: string }>(t, "/api/v1/cost-categories", { name, kind: "VARIABLE", ...(parentId ? { parentId } : {}) });
const rowsOf = async (workspaceId: string) => (await db().select().from(expenses).all()).filter((r) => r.workspaceId === workspaceId);
/** metric_daily value of one metric on one day (cents), 0 when absent. */
const metric = async (t: TestTenant, name: string, day: string) =>
  (
    await env.DB.prepare("SELECT value FROM metric_daily WHERE workspace_id = ? AND metric = ? AND day = ?")
      .bind(t.workspaceId, name, day)
      .first<{ value: number }>()
  )?.value ?? 0;
const ids = async (t: TestTenant, query: string) => {
  const res = await call<Envelope<Expense[]>>("GET", `/api/v1/expenses${query}`, { key: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((e) => e.id).sort();
};
const expense = (costCategoryId: string, extra: Record<string, unknown> = {}) => ({
  description: "Servers",
  amount: "100.00",
  incurredOn: "2026-03-10",
  costCategoryId,
  ...extra,
});

describe("expenses: amounts and currencies", () => {
  it("converts USD at the given rate to the cent (half-even) and takes numbers as amounts", async () => {
    const t = await seedTenant();
    const cat = await category(t);
    const usd = await created(t, "/api/v1/expenses", expense(cat.id, { currency: "USD", exchangeRate: "5.4321" }));
    expect(usd).toMatchObject({ amount: "100.00", currency: "USD", exchangeRate: "5.432100", amountBrl: "543.21", status: "PENDING" });
    // 0.05 × 0.5 = 2.5 cents → 2 (half to even); 0.03 × 0.5 = 1.5 → 2.
    const half = await created(t, "/api/v1/expenses", expense(cat.id, { amount: "0.05", currency: "USD", exchangeRate: 0.5 }));
    expect(half.amountBrl).toBe("0.02");
    const half2 = await created(t, "/api/v1/expenses", expense(cat.id, { amount: "0.03", currency: "USD", exchangeRate: "0.5" }));
    expect(half2.amountBrl).toBe("0.02");
    const brl = await created(t, "/api/v1/expenses", expense(cat.id, { amount: 129.9 }));
    expect(brl).toMatchObject({ amount: "129.90", currency: "BRL", exchangeRate: null, amountBrl: "129.90" });
    const row = (await rowsOf(t.workspaceId)).find((r) => r.id === usd.id);
    expect(row).toMatchObject({ amountCents: 10_000, exchangeRateMicros: 5_432_100, amountBrlCents: 54_321, source: "MANUAL" });
  });

  it("refuses bad amounts, a missing or stray rate and unknown currencies with 400 and no row", async () => {
    const t = await seedTenant();
    const cat = await category(t);
    const bad: Record<string, unknown>[] = [
      { amount: "0" },
      { amount: 0 },
      { amount: "-5.00" },
      { amount: "1.001" },
      { amount: "abc" },
      { currency: "USD" },
      { currency: "USD", exchangeRate: "0" },
      { currency: "USD", exchangeRate: "5.1234567" },
      { currency: "EUR", exchangeRate: "6" },
      { exchangeRate: "1.5" },
      { incurredOn: "2026-02-30" },
      { recurrence: "WEEKLY" },
      { recurrence: "MONTHLY", recurrenceEndsOn: "2026-01-01" },
      { recurrenceEndsOn: "2026-12-31" },
      { paidAt: "2026-03-10T10:00:00Z" },
    ];
    for (const extra of bad) expectError(await post(t, "/api/v1/expenses", expense(cat.id, extra)), 400, "VALIDATION_FAILED");
    expectError(
      await post(t, "/api/v1/expenses", { description: "x", amount: "1.00", incurredOn: "2026-03-10" }),
      400,
      "VALIDATION_FAILED",
    );
    expect(await rowsOf(t.workspaceId)).toHaveLength(0);
    expect(await metric(t, "expenses", "2026-03-10")).toBe(0);
  });
});

describe("expenses: references and tenants", () => {
  it("404s another tenant's category, supplier, plan or customer, writing nothing", async () => {
    const t = await seedTenant();
    const other = await seedTenant();
    const mine = await category(t);
    const theirs = await category(other);
    const theirSupplier = await created<{ id: string }>(other, "/api/v1/suppliers", { name: "Theirs" });
    const now = new Date().toISOString();
    const planId = newId();
    const customerId = newId();
    const tenantOf = { organizationId: other.organizationId, workspaceId: other.workspaceId };
    await db()
      .insert(plans)
      .values({
        id: planId,
        ...tenantOf,
        name: "Pro",
        valueCents: 100,
        cycle: "MONTHLY",
        status: "active",
        createdAt: now,
        updatedAt: now,
      });
    await db()
      .insert(customers)
      .values({
        id: customerId,
        ...tenantOf,
        syncStatus: "synced",
        name: "C",
        cpfCnpj: "52998224725",
        personType: "FISICA",
        createdAt: now,
        updatedAt: now,
      });
    for (const extra of [{ costCategoryId: theirs.id }, { supplierId: theirSupplier.id }, { planId }, { customerId }])
      expectError(await post(t, "/api/v1/expenses", expense(mine.id, extra)), 404, "NOT_FOUND");
    expect(await rowsOf(t.workspaceId)).toHaveLength(0);
    // The other tenant may allocate to its own plan and customer.
    const ok = await created(other, "/api/v1/expenses", expense(theirs.id, { planId, customerId }));
    expect(ok).toMatchObject({ planId, customerId });
    expectError(await call("GET", `/api/v1/expenses/${ok.id}`, { key: t.key }), 404, "NOT_FOUND");
    expectError(await call("POST", `/api/v1/expenses/${ok.id}/pay`, { key: t.key }), 404, "NOT_FOUND");
    expectError(await call("DELETE", `/api/v1/expenses/${ok.id}`, { key: t.key }), 404, "NOT_FOUND");
    expect(await ids(t, "")).toEqual([]);
  });

  it("falls back to the supplier's default category; without either it is a 400", async () => {
    const t = await seedTenant();
    const cat = await category(t);
    const withDefault = await created<{ id: string }>(t, "/api/v1/suppliers", { name: "AWS", defaultCostCategoryId: cat.id });
    const without = await created<{ id: string }>(t, "/api/v1/suppliers", { name: "Bare" });
    const e = await created(t, "/api/v1/expenses", {
      description: "Bill",
      amount: "10.00",
      incurredOn: "2026-03-01",
      supplierId: withDefault.id,
    });
    expect(e).toMatchObject({ costCategoryId: cat.id, supplierId: withDefault.id });
    expectError(
      await post(t, "/api/v1/expenses", { description: "Bill", amount: "10.00", incurredOn: "2026-03-01", supplierId: without.id }),
      400,
      "VALIDATION_FAILED",
    );
  });
});

describe("expenses: status, pay and rollups", () => {
  it("pays a PENDING expense once; paying again or a canceled one is 409", async () => {
    const t = await seedTenant();
    const cat = await category(t);
    const e = await created(t, "/api/v1/expenses", expense(cat.id, { dueDate: "2026-03-20" }));
    const paid = await call<Envelope<Expense>>("POST", `/api/v1/expenses/${e.id}/pay`, {
      key: t.key,
      body: { paidAt: "2026-03-18T12:00:00Z" },
    });
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ status: "PAID", paidAt: "2026-03-18T12:00:00.000Z" });
    expectError(await call("POST", `/api/v1/expenses/${e.id}/pay`, { key: t.key }), 409, "INVALID_STATE");
    const other = await created(t, "/api/v1/expenses", expense(cat.id));
    const canceled = await call<Envelope<Expense>>("PATCH", `/api/v1/expenses/${other.id}`, { key: t.key, body: { status: "CANCELED" } });
    expect(canceled.body.data.status).toBe("CANCELED");
    expectError(await call("POST", `/api/v1/expenses/${other.id}/pay`, { key: t.key }), 409, "INVALID_STATE");
    const noBody = await created(t, "/api/v1/expenses", expense(cat.id));
    const paidNow = await call<Envelope<Expense>>("POST", `/api/v1/expenses/${noBody.id}/pay`, { key: t.key });
    expect(paidNow.status).toBe(200);
    expect(paidNow.body.data.paidAt).not.toBeNull();
    const stored = (await rowsOf(t.workspaceId)).find((r) => r.id === e.id);
    expect(stored).toMatchObject({ status: "PAID", paidAt: "2026-03-18T12:00:00.000Z" });
  });

  it("refuses to cancel a PAID expense (409, nothing changes); back to PENDING first, then it cancels", async () => {
    const t = await seedTenant();
    const cat = await category(t);
    const e = await created(t, "/api/v1/expenses", expense(cat.id));
    await call("POST", `/api/v1/expenses/${e.id}/pay`, { key: t.key, body: { paidAt: "2026-03-18T12:00:00Z" } });
    const refused = await call("PATCH", `/api/v1/expenses/${e.id}`, { key: t.key, body: { status: "CANCELED" } });
    expectError(refused, 409, "INVALID_STATE");
    expect(JSON.stringify(refused.body)).toContain("PENDING first");
    expect((await rowsOf(t.workspaceId)).find((r) => r.id === e.id)).toMatchObject({ status: "PAID", paidAt: "2026-03-18T12:00:00.000Z" });
    const reopened = await call<Envelope<Expense>>("PATCH", `/api/v1/expenses/${e.id}`, { key: t.key, body: { status: "PENDING" } });
    expect(reopened.body.data).toMatchObject({ status: "PENDING", paidAt: null });
    const canceled = await call<Envelope<Expense>>("PATCH", `/api/v1/expenses/${e.id}`, { key: t.key, body: { status: "CANCELED" } });
    expect(canceled.body.data.status).toBe("CANCELED");
  });

  it("moves the rollups by exactly the BRL amount on create, update, cancel and delete", async () => {
    const t = await seedTenant();
    const cat = await category(t);
    const day = "2026-05-04";
    const a = await created(
      t,
      "/api/v1/expenses",
      expense(cat.id, { incurredOn: day, amount: "100.00", currency: "USD", exchangeRate: "5" }),
    );
    await created(t, "/api/v1/expenses", expense(cat.id, { incurredOn: day, amount: "0.01" }));
    expect(await metric(t, "expenses", day)).toBe(50_001);
    expect(await metric(t, `expenses.category.${cat.id}`, day)).toBe(50_001);
    // The amount changes at the kept rate: 120 × 5 = 600.00.
    const upd = await call<Envelope<Expense>>("PATCH", `/api/v1/expenses/${a.id}`, { key: t.key, body: { amount: "120.00" } });
    expect(upd.body.data.amountBrl).toBe("600.00");
    expect(await metric(t, "expenses", day)).toBe(60_001);
    // Moving the day moves the amount between days.
    await call("PATCH", `/api/v1/expenses/${a.id}`, { key: t.key, body: { incurredOn: "2026-05-05" } });
    expect(await metric(t, "expenses", day)).toBe(1);
    expect(await metric(t, "expenses", "2026-05-05")).toBe(60_000);
    // Paying and reopening move nothing; cancelling takes it out; deleting a canceled one takes out nothing more.
    await call("POST", `/api/v1/expenses/${a.id}/pay`, { key: t.key });
    expect(await metric(t, "expenses", "2026-05-05")).toBe(60_000);
    await call("PATCH", `/api/v1/expenses/${a.id}`, { key: t.key, body: { status: "PENDING" } });
    expect(await metric(t, "expenses", "2026-05-05")).toBe(60_000);
    await call("PATCH", `/api/v1/expenses/${a.id}`, { key: t.key, body: { status: "CANCELED" } });
    expect(await metric(t, "expenses", "2026-05-05")).toBe(0);
    expect((await call("DELETE", `/api/v1/expenses/${a.id}`, { key: t.key })).status).toBe(200);
    expect(await metric(t, "expenses", "2026-05-05")).toBe(0);
    expect(await metric(t, "expenses", day)).toBe(1);
    // A refused update moves nothing.
    const b = (await rowsOf(t.workspaceId))[0];
    expectError(await call("PATCH", `/api/v1/expenses/${b?.id}`, { key: t.key, body: { currency: "USD" } }), 400, "VALIDATION_FAILED");
    expect(await metric(t, "expenses", day)).toBe(1);
  });
});

describe("expenses: list filters", () => {
  it("filters by dates, category (with children), supplier, status, source, plan, customer; an unknown filter is a 400", async () => {
    const t = await seedTenant();
    const top = await category(t, "Infra");
    const child = await category(t, "Compute", top.id);
    const other = await category(t, "Office");
    const s = await created<{ id: string }>(t, "/api/v1/suppliers", { name: "Host" });
    const jan = await created(t, "/api/v1/expenses", expense(top.id, { incurredOn: "2026-01-10", dueDate: "2026-01-20" }));
    const feb = await created(
      t,
      "/api/v1/expenses",
      expense(child.id, { incurredOn: "2026-02-10", supplierId: s.id, dueDate: "2026-02-25" }),
    );
    const mar = await created(t, "/api/v1/expenses", expense(other.id, { incurredOn: "2026-03-10", status: "PAID" }));
    expect(await ids(t, "?from=2026-02-01&to=2026-03-31")).toEqual([feb.id, mar.id].sort());
    expect(await ids(t, "?incurredOn[le]=2026-02-10")).toEqual([jan.id, feb.id].sort());
    expect(await ids(t, "?incurredOn=2026-03-10")).toEqual([mar.id]);
    expect(await ids(t, "?dueDate[ge]=2026-01-21")).toEqual([feb.id]);
    expect(await ids(t, `?costCategoryId=${top.id}`)).toEqual([jan.id, feb.id].sort());
    expect(await ids(t, `?costCategoryId=${child.id}`)).toEqual([feb.id]);
    expect(await ids(t, `?supplierId=${s.id}`)).toEqual([feb.id]);
    expect(await ids(t, "?status=PAID")).toEqual([mar.id]);
    expect(await ids(t, "?status=PENDING&source=MANUAL")).toEqual([jan.id, feb.id].sort());
    expect(await ids(t, "?source=AWS")).toEqual([]);
    expect(await ids(t, `?planId=${newId()}`)).toEqual([]);
    expect(await ids(t, `?customerId=${newId()}`)).toEqual([]);
    expectError(await call("GET", "/api/v1/expenses?category=x", { key: t.key }), 400, "VALIDATION_FAILED");
    expectError(await call("GET", "/api/v1/expenses?status=LATE", { key: t.key }), 400, "VALIDATION_FAILED");
    expectError(await call("GET", "/api/v1/expenses?from=2026-13-01", { key: t.key }), 400, "VALIDATION_FAILED");
  });
});

describe("expenses: recurrence", () => {
  it("materialises each monthly occurrence exactly once (month-end clamped), counted once in the rollups", async () => {
    const t = await seedTenant();
    const cat = await category(t);
    const parent = await created(
      t,
      "/api/v1/expenses",
      expense(cat.id, {
        amount: "50.00",
        incurredOn: "2026-01-31",
        dueDate: "2026-02-05",
        recurrence: "MONTHLY",
        recurrenceEndsOn: "2026-04-30",
      }),
    );
    const at = (iso: string) => ({ ...backgroundDeps(env, undefined, "test"), now: () => new Date(iso) });
    // Mid-April, São Paulo: February and March are due; April 30 is not yet.
    // Two overlapping sweeps (as two cron invocations could be), then another: each occurrence once.
    await Promise.all([materialiseRecurringExpenses(at("2026-04-15T12:00:00Z")), materialiseRecurringExpenses(at("2026-04-15T12:00:00Z"))]);
    await materialiseRecurringExpenses(at("2026-04-16T12:00:00Z"));
    const occurrences = (await rowsOf(t.workspaceId)).filter((r) => r.recurrenceParentId === parent.id);
    expect(occurrences.map((o) => [o.incurredOn, o.dueDate, o.sourceRef, o.source, o.status]).sort()).toEqual([
      ["2026-02-28", "2026-03-05", `recurrence:${parent.id}:2026-02-28`, "RECURRENCE", "PENDING"],
      ["2026-03-31", "2026-04-05", `recurrence:${parent.id}:2026-03-31`, "RECURRENCE", "PENDING"],
    ]);
    expect(await metric(t, "expenses", "2026-02-28")).toBe(5_000);
    expect(await metric(t, "expenses", "2026-03-31")).toBe(5_000);
    // Past the end date: April 30 once, then nothing more.
    await materialiseRecurringExpenses(at("2026-07-01T12:00:00Z"));
    await materialiseRecurringExpenses(at("2026-08-01T12:00:00Z"));
    const all = (await rowsOf(t.workspaceId)).filter((r) => r.recurrenceParentId === parent.id).map((r) => r.incurredOn);
    expect(all.sort()).toEqual(["2026-02-28", "2026-03-31", "2026-04-30"]);
    expect(await metric(t, "expenses", "2026-04-30")).toBe(5_000);
    const listed = await call<Envelope<Expense[]>>("GET", "/api/v1/expenses?source=RECURRENCE", { key: t.key });
    expect(listed.body.data).toHaveLength(3);
  });

  it("writes an occurrence when its day begins in the organization's zone, behind UTC or ahead of it", async () => {
    const t = await seedTenant();
    const cat = await category(t);
    const at = (iso: string) => ({ ...backgroundDeps(env, undefined, "test"), now: () => new Date(iso) });
    const days = async (parentId: string) =>
      (await rowsOf(t.workspaceId))
        .filter((r) => r.recurrenceParentId === parentId)
        .map((r) => r.incurredOn)
        .sort();
    // São Paulo (UTC-3, the default): 2026-04-10 02:59 UTC is still April 9 there; 03:00 UTC is its midnight.
    const spring = await created(t, "/api/v1/expenses", expense(cat.id, { incurredOn: "2025-04-10", recurrence: "YEARLY" }));
    expect(await materialiseRecurringExpenses(at("2026-04-10T02:59:00Z"))).toBe(0);
    expect(await materialiseRecurringExpenses(at("2026-04-10T03:00:00Z"))).toBe(1);
    expect(await days(spring.id)).toEqual(["2026-04-10"]);
    // Lisbon in summer (UTC+1): 2026-07-09 23:00 UTC is already July 10 there, though not yet in UTC.
    await env.DB.prepare("UPDATE organizations SET time_zone = 'Europe/Lisbon' WHERE id = ?").bind(t.organizationId).run();
    const summer = await created(t, "/api/v1/expenses", expense(cat.id, { incurredOn: "2025-07-10", recurrence: "YEARLY" }));
    expect(await materialiseRecurringExpenses(at("2026-07-09T22:59:00Z"))).toBe(0);
    expect(await materialiseRecurringExpenses(at("2026-07-09T23:00:00Z"))).toBe(1);
    expect(await days(summer.id)).toEqual(["2026-07-10"]);
  });

  it("catches a yearly expense up and stops when the parent is canceled", async () => {
    const t = await seedTenant();
    const cat = await category(t);
    const parent = await created(t, "/api/v1/expenses", expense(cat.id, { incurredOn: "2024-02-29", recurrence: "YEARLY" }));
    const at = (iso: string) => ({ ...backgroundDeps(env, undefined, "test"), now: () => new Date(iso) });
    await materialiseRecurringExpenses(at("2026-03-01T12:00:00Z"));
    const days = () =>
      rowsOf(t.workspaceId).then((rows) =>
        rows
          .filter((r) => r.recurrenceParentId === parent.id)
          .map((r) => r.incurredOn)
          .sort(),
      );
    expect(await days()).toEqual(["2025-02-28", "2026-02-28"]);
    await call("PATCH", `/api/v1/expenses/${parent.id}`, { key: t.key, body: { status: "CANCELED" } });
    await materialiseRecurringExpenses(at("2028-03-01T12:00:00Z"));
    expect(await days()).toEqual(["2025-02-28", "2026-02-28"]);
  });
});
