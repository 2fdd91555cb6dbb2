// Issue 26 items 2, 5 and 6: formulas are bounded (literals, terms, values, work per series), a cycle cannot be
// saved even by two concurrent edits (and one written behind the API's back reads as 409 and stays deletable),
// and the 200-formula cap holds under concurrent creates.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { formulas, metricDaily } from "../../src/db/schema";
import type { Deps } from "../../src/deps";
import { newId } from "../../src/lib/ids";
import { expandPermissions, PERMISSIONS } from "../../src/lib/permissions";
import { updateFormula } from "../../src/modules/analytics/formulas-service";
import { testDeps } from "./billing-support";
import { call, type Envelope, type ErrorBody, expectError, seedTenant, type TestTenant } from "./support";

interface FormulaBody {
  id: string;
  key: string;
}
interface SeriesBody {
  points: { periodStart: string; value: string | null }[];
  total: string | null;
}

const create = (t: TestTenant, body: Record<string, unknown>) =>
  call<Envelope<FormulaBody> & Partial<ErrorBody>>("POST", "/api/v1/formulas", { key: t.key, body: { name: "F", unit: "COUNT", ...body } });
const validate = (t: TestTenant, expression: string) => call("POST", "/api/v1/formulas/validate", { key: t.key, body: { expression } });
const series = (t: TestTenant, id: string, query = "from=2026-03-01&to=2026-03-03") =>
  call<Envelope<SeriesBody>>("GET", `/api/v1/formulas/${id}/series?${query}`, { key: t.key });
const count = async (t: TestTenant) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM formulas WHERE workspace_id = ?1").bind(t.workspaceId).first<{ n: number }>())?.n;

describe("formula bounds", () => {
  it("refuses, when validated or saved, literals past ±1e15, 20 significant digits or 20 decimals, naming the bound", async () => {
    const t = await seedTenant();
    for (const [expression, bound] of [
      ["1e200000", "±1e15"],
      ["revenue + 1e999999999", "±1e15"],
      ["10000000000000001", "±1e15"],
      ["1.23456789012345678901", "20 significant digits"],
      ["1e-21", "20 decimals"],
    ] as const) {
      const v = expectError(await validate(t, expression), 400, "VALIDATION_FAILED");
      expect(v.message, expression).toContain(bound);
      const saved = expectError(await create(t, { key: "big", expression }), 400, "VALIDATION_FAILED");
      expect((saved.details.fields as { path: string }[])[0]?.path).toBe("body.expression");
    }
    expect(await count(t)).toBe(0);
    // The bound itself is allowed.
    expect((await validate(t, "1e15 - 0.00000000000000000001")).status).toBe(200);
  });

  it("refuses more than 100 terms in an expression, and more than 400 with the formulas it uses", async () => {
    const t = await seedTenant();
    const terms = (n: number) => Array.from({ length: (n + 1) / 2 }, () => "1").join("+"); // n terms: (n+1)/2 numbers, (n-1)/2 pluses
    expect((await validate(t, terms(99))).status).toBe(200);
    const long = expectError(await validate(t, terms(101)), 400, "VALIDATION_FAILED");
    expect(long.message).toContain("at most 100 terms");
    for (const key of ["p1", "p2", "p3", "p4"]) expect((await create(t, { key, expression: terms(99) })).status).toBe(201);
    const uses = expectError(await create(t, { key: "all", expression: "p1 + p2 + p3 + p4" }), 400, "VALIDATION_FAILED");
    expect(uses.message).toContain("403 terms; at most 400");
    expect((await create(t, { key: "three", expression: "p1 + p2 + p3" })).status).toBe(201);
  });

  it("a value past ±1e15 while evaluating is 422 LIMIT_EXCEEDED at once, never a 500 or a huge answer", async () => {
    const t = await seedTenant();
    const squared = (await create(t, { key: "squared", expression: "(1e15/7)*(1e15/7)" })).body.data;
    const started = Date.now();
    const res = await series(t, squared.id);
    expect(Date.now() - started).toBeLessThan(2000);
    const err = expectError(res, 422, "LIMIT_EXCEEDED");
    expect(err.message).toContain("past the bound of ±1e15");
    expect(err.details).toMatchObject({ key: "squared", limit: "1e15" });
    expectError(await call("GET", "/api/v1/metrics/squared?from=2026-03-01&to=2026-03-03", { key: t.key }), 422, "LIMIT_EXCEEDED");

    // Stored data past the bound too: revenue of R$ 90 trillion (in cents) × 100.
    await createDb(env.DB)
      .insert(metricDaily)
      .values({ organizationId: t.organizationId, workspaceId: t.workspaceId, metric: "revenue", day: "2026-03-02", value: 9e15 });
    const pct = (await create(t, { key: "pct", expression: "revenue * 100" })).body.data;
    expectError(await series(t, pct.id), 422, "LIMIT_EXCEEDED");
    // Division keeps 20 decimals: 1/3 × 3 is not 1.
    const third = (await create(t, { key: "third", expression: "1 / 3 * 3" })).body.data;
    expect((await series(t, third.id)).body.data.points[0]?.value).toBe("1");
  });

  it("refuses a series that would evaluate more than 100,000 terms (terms × points), naming the bound", async () => {
    const t = await seedTenant();
    const terms99 = Array.from({ length: 50 }, () => "revenue").join("+");
    const f = (await create(t, { key: "wide", expression: terms99 })).body.data;
    const err = expectError(await series(t, f.id, "from=2022-01-01&to=2026-12-31&interval=day"), 422, "LIMIT_EXCEEDED");
    expect(err.message).toContain("at most 100000 per request");
    expect((await series(t, f.id, "from=2022-01-01&to=2026-12-31&interval=month")).status).toBe(200);
  });
});

describe("formula cycles", () => {
  it("two concurrent edits that would close a cycle: at most one succeeds", async () => {
    for (let round = 0; round < 3; round++) {
      const t = await seedTenant();
      const a = (await create(t, { key: "a", expression: "1" })).body.data;
      const b = (await create(t, { key: "b", expression: "2" })).body.data;
      const [toB, toA] = await Promise.all([
        call("PATCH", `/api/v1/formulas/${a.id}`, { key: t.key, body: { expression: "b + 1" } }),
        call("PATCH", `/api/v1/formulas/${b.id}`, { key: t.key, body: { expression: "a + 1" } }),
      ]);
      const statuses = [toB.status, toA.status].sort();
      expect(statuses[0]).toBe(200);
      expect(statuses[1]).toBe(400);
      const refused = toB.status === 400 ? toB : toA;
      expect(JSON.stringify(refused.body)).toContain("cycle");
      expect((await series(t, a.id)).status).toBe(200);
      expect((await series(t, b.id)).status).toBe(200);
    }
  });

  it("two edits forced to interleave (both read the formulas before either writes): one lands, the other is refused", async () => {
    const t = await seedTenant();
    const a = (await create(t, { key: "a", expression: "1" })).body.data;
    const b = (await create(t, { key: "b", expression: "2" })).body.data;
    const principal = {
      kind: "api_key" as const,
      actorId: "test",
      organizationId: t.organizationId,
      workspaceId: t.workspaceId,
      environment: "test" as const,
      workspaceRestricted: false,
      permissions: expandPermissions(PERMISSIONS),
    };
    // The formulas are read with one db.batch per edit: hold each edit after its read until both have read.
    let arrived = 0;
    let release: () => void = () => undefined;
    const bothRead = new Promise<void>((resolve) => (release = resolve));
    const base = testDeps();
    const db = new Proxy(base.db, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (prop !== "batch") return typeof value === "function" ? value.bind(target) : value;
        return async (...args: Parameters<Deps["db"]["batch"]>) => {
          const result = await target.batch(...args);
          if (++arrived === 2) release();
          await bothRead;
          return result;
        };
      },
    });
    const deps: Deps = { ...base, db };
    const outcomes = await Promise.allSettled([
      updateFormula(deps, principal, a.id, { expression: "b + 1" }),
      updateFormula(deps, principal, b.id, { expression: "a + 1" }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(String(refused.reason.message)).toContain("cycle");
    expect((await series(t, a.id)).status).toBe(200);
    expect((await series(t, b.id)).status).toBe(200);
  });

  it("a create and an edit racing to close a cycle: at most one succeeds", async () => {
    const t = await seedTenant();
    const a = (await create(t, { key: "a", expression: "1" })).body.data;
    // b (new) uses a while a starts using b: b does not exist until the create lands, so a's edit can only pass
    // after it, and then its guard sees b → a.
    const [made, edited] = await Promise.all([
      create(t, { key: "b", expression: "a + 1" }),
      call("PATCH", `/api/v1/formulas/${a.id}`, { key: t.key, body: { expression: "b + 1" } }),
    ]);
    expect(made.status).toBe(201);
    expect(edited.status).toBe(400);
    expect((await series(t, a.id)).status).toBe(200);
  });

  it("a cycle written behind the API's back reads as 409 naming the formulas, and both can still be deleted", async () => {
    const t = await seedTenant();
    const now = new Date().toISOString();
    const row = (key: string, uses: string) => ({
      id: newId(),
      organizationId: t.organizationId,
      workspaceId: t.workspaceId,
      key,
      name: key,
      expression: `${uses} + 1`,
      unit: "COUNT" as const,
      description: null,
      formulaRefs: [uses],
      createdAt: now,
      updatedAt: now,
    });
    const a = row("a", "b");
    const b = row("b", "a");
    await createDb(env.DB)
      .insert(formulas)
      .values([a, b, row("c", "a")]);

    const err = expectError(await series(t, a.id), 409, "INVALID_STATE");
    expect(err.details.cycle).toEqual(["a", "b", "a"]);
    expect(err.message).toContain("a → b → a");
    expectError(await call("GET", "/api/v1/metrics/b?from=2026-03-01&to=2026-03-03", { key: t.key }), 409, "INVALID_STATE");
    expectError(await call("GET", "/api/v1/metrics/c?from=2026-03-01&to=2026-03-03", { key: t.key }), 409, "INVALID_STATE");

    // c (outside the cycle) still blocks deleting a; b (inside it) does not.
    expectError(await call("DELETE", `/api/v1/formulas/${a.id}`, { key: t.key }), 409, "IN_USE");
    expect((await call("DELETE", `/api/v1/formulas/${b.id}`, { key: t.key })).status).toBe(200);
    expect((await call("DELETE", `/api/v1/formulas/${a.id}`, { key: t.key })).status).toBe(409); // c still uses a
    const cRow = await env.DB.prepare("SELECT id FROM formulas WHERE workspace_id = ?1 AND key = 'c'")
      .bind(t.workspaceId)
      .first<{ id: string }>();
    expect((await call("DELETE", `/api/v1/formulas/${cRow?.id}`, { key: t.key })).status).toBe(200);
    expect((await call("DELETE", `/api/v1/formulas/${a.id}`, { key: t.key })).status).toBe(200);
    expect(await count(t)).toBe(0);
  });
});

describe("the 200-formula cap", () => {
  it("holds under 250 concurrent creates: exactly 200 are stored, each readable, the rest 409", async () => {
    const t = await seedTenant();
    const results = await Promise.all(Array.from({ length: 250 }, (_, i) => create(t, { key: `f${i}`, expression: `${i}` })));
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBe(200);
    for (const r of results.filter((x) => x.status !== 201)) {
      const err = expectError(r, 409, "CONFLICT");
      expect(err.message).toContain("at most 200 formulas");
    }
    expect(await count(t)).toBe(200);
    const last = created.at(-1)?.body.data.key;
    expect((await call("GET", `/api/v1/metrics/${last}?from=2026-03-01&to=2026-03-03`, { key: t.key })).status).toBe(200);
  }, 60_000);
});
