// Formulas: CRUD, validation (positions and reasons), cycles refused at save time, and exact series over
// the daily rollups — including `expenses.<categoryKey>` and division by zero giving null points.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { costCategories, expenses, metricDaily } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import { PERMISSIONS, expandPermissions } from "../../src/lib/permissions";
import { metricSeries } from "../../src/modules/analytics/metrics-service";
import { testDeps } from "./billing-support";
import { call, type Envelope, type ErrorBody, expectError, seedTenant, type TestTenant } from "./support";

interface FormulaBody {
  id: string;
  key: string;
  name: string;
  expression: string;
  unit: string;
  variables: string[];
  references: { variable: string; kind: string; id: string | null; name: string | null }[];
}
interface SeriesBody {
  points: { periodStart: string; value: string | null }[];
  total: string | null;
  unit: string;
}

const create = (t: TestTenant, body: Record<string, unknown>) =>
  call<Envelope<FormulaBody> & Partial<ErrorBody>>("POST", "/api/v1/formulas", { key: t.key, body: { name: "F", unit: "COUNT", ...body } });

async function seedDaily(t: TestTenant, rows: { metric: string; day: string; value: number }[]) {
  const db = createDb(env.DB);
  for (let i = 0; i < rows.length; i += 20)
    await db
      .insert(metricDaily)
      .values(rows.slice(i, i + 20).map((r) => ({ organizationId: t.organizationId, workspaceId: t.workspaceId, ...r })));
}

describe("formulas CRUD", () => {
  it("create, get, list, update, delete", async () => {
    const t = await seedTenant();
    const made = await create(t, {
      key: "margin",
      name: "Margin",
      unit: "PERCENT",
      expression: "(revenue - payment_fees - expenses) / revenue * 100",
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data).toMatchObject({ key: "margin", unit: "PERCENT", variables: ["revenue", "payment_fees", "expenses"] });
    const id = made.body.data.id;
    expect((await call<Envelope<FormulaBody>>("GET", `/api/v1/formulas/${id}`, { key: t.key })).body.data.key).toBe("margin");
    const list = await call<Envelope<FormulaBody[]>>("GET", "/api/v1/formulas", { key: t.key });
    expect(list.body.data.map((f) => f.id)).toEqual([id]);
    const patched = await call<Envelope<FormulaBody>>("PATCH", `/api/v1/formulas/${id}`, {
      key: t.key,
      body: { expression: "revenue - refunds" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.variables).toEqual(["revenue", "refunds"]);
    expect((await call("DELETE", `/api/v1/formulas/${id}`, { key: t.key })).status).toBe(200);
    expectError(await call("GET", `/api/v1/formulas/${id}`, { key: t.key }), 404, "NOT_FOUND");
  });

  it("refuses a metric key, a taken key, and a bad expression with its position — storing nothing", async () => {
    const t = await seedTenant();
    expectError(await create(t, { key: "revenue", expression: "1" }), 400, "VALIDATION_FAILED");
    expect((await create(t, { key: "a", expression: "1" })).status).toBe(201);
    expectError(await create(t, { key: "a", expression: "2" }), 409, "CONFLICT");
    const bad = expectError(await create(t, { key: "b", expression: "revenue +* 2" }), 400, "VALIDATION_FAILED");
    expect(bad.details.position).toBe(9);
    expect(bad.message).toContain("position 9");
    expect((bad.details.fields as { path: string }[])[0]!.path).toBe("body.expression");
    const list = await call<Envelope<FormulaBody[]>>("GET", "/api/v1/formulas", { key: t.key });
    expect(list.body.data.map((f) => f.key)).toEqual(["a"]);
  });

  it("refuses a cycle at save time, and deleting or renaming a formula others use", async () => {
    const t = await seedTenant();
    const a = (await create(t, { key: "a", expression: "revenue * 2" })).body.data;
    expect((await create(t, { key: "b", expression: "a + 1" })).status).toBe(201);
    const cycle = expectError(
      await call("PATCH", `/api/v1/formulas/${a.id}`, { key: t.key, body: { expression: "b - 1" } }),
      400,
      "VALIDATION_FAILED",
    );
    expect(cycle.message).toContain("a → b → a");
    expectError(await create(t, { key: "c", expression: "c + 1" }), 400, "VALIDATION_FAILED");
    expectError(await call("DELETE", `/api/v1/formulas/${a.id}`, { key: t.key }), 409, "IN_USE");
    expectError(await call("PATCH", `/api/v1/formulas/${a.id}`, { key: t.key, body: { key: "a2" } }), 409, "IN_USE");
    expect((await call<Envelope<FormulaBody>>("GET", `/api/v1/formulas/${a.id}`, { key: t.key })).body.data.expression).toBe("revenue * 2");
  });
});

describe("POST /formulas/validate", () => {
  it("answers the variables, their kinds and what each refers to (as a saved formula would), or a 400 naming position and reason", async () => {
    const t = await seedTenant();
    const base = await create(t, { key: "base", expression: "revenue" });
    expect(base.status).toBe(201);
    const db = createDb(env.DB);
    const now = new Date().toISOString();
    const cloudId = newId();
    await db.insert(costCategories).values({
      id: cloudId,
      organizationId: t.organizationId,
      workspaceId: t.workspaceId,
      key: "cloud",
      name: "Cloud",
      kind: "VARIABLE",
      createdAt: now,
      updatedAt: now,
    });
    const validate = (expression: string) =>
      call<Envelope<{ valid: boolean; variables: unknown[] }>>("POST", "/api/v1/formulas/validate", { key: t.key, body: { expression } });
    const okRes = await validate("round(base - expenses.cloud, 2)");
    expect(okRes.status).toBe(200);
    expect(okRes.body.data).toEqual({
      valid: true,
      variables: [
        { name: "base", kind: "formula", position: 6 },
        { name: "expenses.cloud", kind: "expenses", position: 13 },
      ],
      references: [
        { variable: "base", kind: "formula", id: base.body.data.id, name: "F" },
        { variable: "expenses.cloud", kind: "expenses", id: cloudId, name: "Cloud" },
      ],
    });
    // A metric is named by the catalogue; a formula saved with this expression answers the same references.
    const metricOnly = await validate("mrr * 12");
    expect(metricOnly.body.data).toMatchObject({ references: [{ variable: "mrr", kind: "metric", id: "mrr", name: "MRR" }] });
    const saved = await create(t, { key: "both", expression: "round(base - expenses.cloud, 2)" });
    expect(saved.body.data.references).toEqual((okRes.body.data as unknown as FormulaBody).references);
    const cases: [string, number, string][] = [
      ["revenue.total", 7, "member access"],
      ["sqrt(revenue)", 0, "unknown function 'sqrt'"],
      ["revenue - nope", 10, "unknown variable"],
      ["expenses.nope", 0, "unknown cost category key"],
      ["(revenue", 8, "syntax error"],
      ["revenue % 2", 8, "operator '%'"],
    ];
    for (const [expression, position, reason] of cases) {
      const e = expectError(await validate(expression), 400, "VALIDATION_FAILED");
      expect(e.details.position, expression).toBe(position);
      expect(e.message, expression).toContain(reason);
    }
  });
});

describe("formula series", () => {
  it("exact decimals over the rollups; division by zero is null for that point; also under GET /metrics/{key}", async () => {
    const t = await seedTenant();
    await seedDaily(t, [
      { metric: "revenue", day: "2026-03-01", value: 25000 },
      { metric: "payment_fees", day: "2026-03-01", value: 199 },
      { metric: "revenue", day: "2026-03-03", value: 10 },
      { metric: "payment_fees", day: "2026-03-03", value: 1 },
    ]);
    const f = (await create(t, { key: "fee_share", unit: "PERCENT", expression: "payment_fees / revenue * 100" })).body.data;
    const s = await call<Envelope<SeriesBody>>("GET", `/api/v1/formulas/${f.id}/series?from=2026-03-01&to=2026-03-03`, { key: t.key });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(s.body.data.points).toEqual([
      { periodStart: "2026-03-01", value: "0.796" },
      { periodStart: "2026-03-02", value: null },
      { periodStart: "2026-03-03", value: "10" },
    ]);
    // Over the range: 200 / 25010 × 100.
    expect(s.body.data.total).toBe("0.79968");
    const byKey = await call<Envelope<SeriesBody>>("GET", "/api/v1/metrics/fee_share?from=2026-03-01&to=2026-03-03", { key: t.key });
    expect(byKey.body.data.points).toEqual(s.body.data.points);
    const money = (await create(t, { key: "kept", unit: "BRL", expression: "revenue - payment_fees" })).body.data;
    const m = await call<Envelope<SeriesBody>>("GET", `/api/v1/formulas/${money.id}/series?from=2026-03-01&to=2026-03-03`, { key: t.key });
    expect(m.body.data.points.map((p) => p.value)).toEqual(["248.01", "0.00", "0.09"]);
    expect(m.body.data.total).toBe("248.10");
  });

  it("expenses.<categoryKey> sums the category and its children (rollups rebuilt from expense records)", async () => {
    const t = await seedTenant();
    const db = createDb(env.DB);
    const now = new Date().toISOString();
    const parent = newId();
    const child = newId();
    const other = newId();
    const cat = (id: string, key: string, parentId: string | null) => ({
      id,
      organizationId: t.organizationId,
      workspaceId: t.workspaceId,
      key,
      name: key,
      kind: "VARIABLE" as const,
      parentId,
      createdAt: now,
      updatedAt: now,
    });
    await db.insert(costCategories).values([cat(parent, "infra", null), cat(child, "infra_db", parent), cat(other, "office", null)]);
    const expense = (categoryId: string, cents: number, day: string, status: "PENDING" | "PAID" | "CANCELED" = "PAID") => ({
      id: newId(),
      organizationId: t.organizationId,
      workspaceId: t.workspaceId,
      description: "x",
      amountCents: cents,
      currency: "BRL" as const,
      amountBrlCents: cents,
      incurredOn: day,
      status,
      costCategoryId: categoryId,
      source: "MANUAL" as const,
      createdAt: now,
      updatedAt: now,
    });
    await db
      .insert(expenses)
      .values([
        expense(parent, 1001, "2026-05-02"),
        expense(child, 2002, "2026-05-03"),
        expense(other, 5000, "2026-05-03"),
        expense(child, 7777, "2026-05-03", "CANCELED"),
      ]);
    expect((await call("POST", "/api/v1/metrics/rebuild", { key: t.key })).status).toBe(200);
    const f = (await create(t, { key: "infra_total", unit: "BRL", expression: "expenses.infra" })).body.data;
    const s = await call<Envelope<SeriesBody>>("GET", `/api/v1/formulas/${f.id}/series?from=2026-05-01&to=2026-05-31&interval=month`, {
      key: t.key,
    });
    expect(s.body.data.points).toEqual([{ periodStart: "2026-05-01", value: "30.03" }]);
    const all = await call<Envelope<SeriesBody>>("GET", "/api/v1/metrics/expenses?from=2026-05-01&to=2026-05-31&interval=month", {
      key: t.key,
    });
    expect(all.body.data.total).toBe("80.03");
  });
});

describe("cost independent of the number of charges", () => {
  it("a year's daily series reads at most 366 rows per metric", async () => {
    const t = await seedTenant();
    const rows = [];
    for (let i = 0; i < 800; i++) {
      const day = new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10);
      rows.push({ metric: "revenue", day, value: 100 }, { metric: "mrr", day, value: 1 });
    }
    await seedDaily(t, rows);
    const principal = {
      kind: "api_key" as const,
      actorId: "test",
      organizationId: t.organizationId,
      workspaceId: t.workspaceId,
      environment: "test" as const,
      workspaceRestricted: false,
      permissions: expandPermissions(PERMISSIONS),
    };
    const year = await metricSeries(testDeps(), principal, "revenue", { from: "2025-06-01", to: "2026-05-31", interval: "day" });
    expect(year.rowsRead).toBe(365);
    expect(year.points).toHaveLength(365);
    expect(year.total).toBe("365.00");
    const mrr = await metricSeries(testDeps(), principal, "mrr", { from: "2025-06-01", to: "2026-05-31", interval: "month" });
    expect(mrr.rowsRead).toBeLessThanOrEqual(366);
    // The level before the range (2025-01-01 … 2025-05-31: 151 days) comes from one aggregate, then one per day.
    expect(mrr.points[0]).toEqual({ periodStart: "2025-06-01", value: "1.81" });
    expect(mrr.points[11]).toEqual({ periodStart: "2026-05-01", value: "5.16" });
  });
});
