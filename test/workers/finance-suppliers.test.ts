import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { suppliers } from "../../src/db/schema";
import { type Envelope, type ErrorBody, call, expectError, seedTenant, type TestTenant } from "./support";
import { auditTrail } from "./audit-support";

interface Supplier {
  id: string;
  name: string;
  cpfCnpj: string | null;
  defaultCostCategoryId: string | null;
  archived: boolean;
}

const CNPJ = "11.222.333/0001-81";
const CPF = "529.982.247-25";
const db = () => createDb(env.DB);
const post = (t: TestTenant, path: string, body: unknown) => call<Envelope<{ id: string }> | ErrorBody>("POST", path, { key: t.key, body });
const created = async <T = { id: string }>(t: TestTenant, path: string, body: unknown) => {
  const res = await post(t, path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as Envelope<T>).data;
};
const category = (t: TestTenant, name = "Software") => created(t, "/api/v1/cost-categories", { name, kind: "FIXED" });
const rowsOf = async (workspaceId: string) => (await db().select().from(suppliers).all()).filter((r) => r.workspaceId === workspaceId);
const list = async (t: TestTenant, query: string) => {
  const res = await call<Envelope<Supplier[]>>("GET", `/api/v1/suppliers${query}`, { key: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((s) => s.name).sort();
};

describe("suppliers", () => {
  it("creates with a checked CPF/CNPJ stored as digits, a default category, and an audit row", async () => {
    const t = await seedTenant();
    const cat = await category(t);
    const s = await created<Supplier>(t, "/api/v1/suppliers", { name: "Acme Cloud", cpfCnpj: CNPJ, defaultCostCategoryId: cat.id });
    expect(s).toMatchObject({ name: "Acme Cloud", cpfCnpj: "11222333000181", defaultCostCategoryId: cat.id, archived: false });
    const got = await call<Envelope<Supplier>>("GET", `/api/v1/suppliers/${s.id}`, { key: t.key });
    expect(got.body.data.cpfCnpj).toBe("11222333000181");
    const audit = await auditTrail(t.organizationId, { targetId: s.id });
    expect(audit.map((a) => a.action)).toEqual(["supplier.created"]);
  });

  it("refuses a bad CPF/CNPJ and another tenant's category without writing a row", async () => {
    const t = await seedTenant();
    const other = await seedTenant();
    const foreign = await category(other);
    const bad = expectError(await post(t, "/api/v1/suppliers", { name: "X", cpfCnpj: "11.222.333/0001-82" }), 400, "VALIDATION_FAILED");
    expect(bad.details.fields.map((f) => f.path)).toContain("body.cpfCnpj");
    expectError(await post(t, "/api/v1/suppliers", { name: "X", defaultCostCategoryId: foreign.id }), 404, "NOT_FOUND");
    expect(await rowsOf(t.workspaceId)).toHaveLength(0);
    const s = await created<Supplier>(t, "/api/v1/suppliers", { name: "Y" });
    expectError(
      await call("PATCH", `/api/v1/suppliers/${s.id}`, { key: t.key, body: { defaultCostCategoryId: foreign.id } }),
      404,
      "NOT_FOUND",
    );
    expect((await rowsOf(t.workspaceId))[0]?.defaultCostCategoryId).toBeNull();
  });

  it("searches by name (case-insensitive) or document, with punctuation or without", async () => {
    const t = await seedTenant();
    await created(t, "/api/v1/suppliers", { name: "Amazon Web Services", cpfCnpj: CNPJ });
    await created(t, "/api/v1/suppliers", { name: "João Contador", cpfCnpj: CPF });
    await created(t, "/api/v1/suppliers", { name: "Google Workspace" });
    expect(await list(t, "?q=amazon")).toEqual(["Amazon Web Services"]);
    expect(await list(t, "?q=WORK")).toEqual(["Google Workspace"]);
    expect(await list(t, "?q=529.982")).toEqual(["João Contador"]);
    expect(await list(t, "?q=11222333")).toEqual(["Amazon Web Services"]);
    expect(await list(t, "?q=100%25")).toEqual([]);
    expectError(await call("GET", "/api/v1/suppliers?name=amazon", { key: t.key }), 400, "VALIDATION_FAILED");
  });

  it("archives, and refuses to delete a supplier with expenses (409 IN_USE) but deletes an unused one", async () => {
    const t = await seedTenant();
    const cat = await category(t);
    const used = await created<Supplier>(t, "/api/v1/suppliers", { name: "Used", defaultCostCategoryId: cat.id });
    const unused = await created<Supplier>(t, "/api/v1/suppliers", { name: "Unused" });
    await created(t, "/api/v1/expenses", { description: "Licence", amount: "99.90", incurredOn: "2026-03-01", supplierId: used.id });
    expectError(await call("DELETE", `/api/v1/suppliers/${used.id}`, { key: t.key }), 409, "IN_USE");
    const archived = await call<Envelope<Supplier>>("PATCH", `/api/v1/suppliers/${used.id}`, { key: t.key, body: { archived: true } });
    expect(archived.body.data.archived).toBe(true);
    expect(await list(t, "?archived=false")).toEqual(["Unused"]);
    const del = await call("DELETE", `/api/v1/suppliers/${unused.id}`, { key: t.key });
    expect(del.status).toBe(200);
    expect((await rowsOf(t.workspaceId)).map((r) => r.id)).toEqual([used.id]);
    // The category is now in use by the supplier's default and by the expense.
    expectError(await call("DELETE", `/api/v1/cost-categories/${cat.id}`, { key: t.key }), 409, "IN_USE");
  });

  it("keeps tenants apart: another workspace's supplier is a 404 to read, change or delete", async () => {
    const t = await seedTenant();
    const other = await seedTenant();
    const s = await created<Supplier>(t, "/api/v1/suppliers", { name: "Mine" });
    expectError(await call("GET", `/api/v1/suppliers/${s.id}`, { key: other.key }), 404, "NOT_FOUND");
    expectError(await call("PATCH", `/api/v1/suppliers/${s.id}`, { key: other.key, body: { name: "Theirs" } }), 404, "NOT_FOUND");
    expectError(await call("DELETE", `/api/v1/suppliers/${s.id}`, { key: other.key }), 404, "NOT_FOUND");
    expect(await list(other, "")).toEqual([]);
    expect((await rowsOf(t.workspaceId))[0]?.name).toBe("Mine");
  });

  it("needs finance.manage to write and finance.read to read", async () => {
    const reader = await seedTenant({ permissions: ["finance.read"] });
    expectError(await post(reader, "/api/v1/suppliers", { name: "No" }), 403, "FORBIDDEN");
    expect((await call("GET", "/api/v1/suppliers", { key: reader.key })).status).toBe(200);
    const none = await seedTenant({ permissions: ["payments.read"] });
    expectError(await call("GET", "/api/v1/suppliers", { key: none.key }), 403, "FORBIDDEN");
  });
});
