import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { costCategories, expenses } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import { type Envelope, type ErrorBody, call, expectError, seedTenant } from "./support";

interface Category {
  id: string;
  key: string;
  name: string;
  kind: string;
  parentId: string | null;
  archived: boolean;
}

const post = (key: string, body: unknown) => call<Envelope<Category> | ErrorBody>("POST", "/api/v1/cost-categories", { key, body });
const created = async (key: string, body: unknown) => {
  const res = await post(key, body);
  expect(res.status).toBe(201);
  return (res.body as Envelope<Category>).data;
};
const countRows = async (workspaceId: string) =>
  (await createDb(env.DB).select().from(costCategories).all()).filter((r) => r.workspaceId === workspaceId).length;

describe("cost categories", () => {
  it("builds a two-level tree: a child of a child is a 400 and leaves no row", async () => {
    const t = await seedTenant();
    const top = await created(t.key, { name: "Cloud", kind: "VARIABLE" });
    expect(top.key).toBe("cloud");
    const child = await created(t.key, { name: "Compute", kind: "VARIABLE", parentId: top.id });
    expect(child.parentId).toBe(top.id);
    const before = await countRows(t.workspaceId);
    expectError(await post(t.key, { name: "GPUs", kind: "VARIABLE", parentId: child.id }), 400, "VALIDATION_FAILED");
    expect(await countRows(t.workspaceId)).toBe(before);
  });

  it("keeps keys unique per workspace and names unique among siblings only", async () => {
    const t = await seedTenant();
    const a = await created(t.key, { name: "Tools", kind: "FIXED" });
    expectError(await post(t.key, { name: "Other tools", key: "tools", kind: "FIXED" }), 409, "CONFLICT");
    expectError(await post(t.key, { name: "tools", key: "tools2", kind: "FIXED" }), 409, "CONFLICT");
    const b = await created(t.key, { name: "Design", kind: "FIXED" });
    await created(t.key, { name: "Licences", key: "tools_licences", kind: "FIXED", parentId: a.id });
    await created(t.key, { name: "Licences", key: "design_licences", kind: "FIXED", parentId: b.id });
  });

  it("refuses to delete a category in use (children, expenses) with 409 IN_USE; archive works", async () => {
    const t = await seedTenant();
    const top = await created(t.key, { name: "Ops", kind: "FIXED" });
    const child = await created(t.key, { name: "Rent", kind: "FIXED", parentId: top.id });
    expectError(await call("DELETE", `/api/v1/cost-categories/${top.id}`, { key: t.key }), 409, "IN_USE");
    const now = new Date().toISOString();
    await createDb(env.DB).insert(expenses).values({
      id: newId(),
      organizationId: t.organizationId,
      workspaceId: t.workspaceId,
      description: "Office rent",
      amountCents: 100_000,
      currency: "BRL",
      exchangeRateMicros: null,
      amountBrlCents: 100_000,
      incurredOn: "2026-01-05",
      status: "PENDING",
      costCategoryId: child.id,
      source: "MANUAL",
      createdAt: now,
      updatedAt: now,
    });
    expectError(await call("DELETE", `/api/v1/cost-categories/${child.id}`, { key: t.key }), 409, "IN_USE");
    const archived = await call<Envelope<Category>>("PATCH", `/api/v1/cost-categories/${child.id}`, {
      key: t.key,
      body: { archived: true },
    });
    expect(archived.body.data.archived).toBe(true);
    const unused = await created(t.key, { name: "Unused", kind: "FIXED" });
    expect((await call("DELETE", `/api/v1/cost-categories/${unused.id}`, { key: t.key })).status).toBe(200);
    expectError(await call("GET", `/api/v1/cost-categories/${unused.id}`, { key: t.key }), 404, "NOT_FOUND");
  });

  it("hides another tenant's categories (404) and refuses them as parent", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const top = await created(a.key, { name: "Private", kind: "FIXED" });
    expectError(await call("GET", `/api/v1/cost-categories/${top.id}`, { key: b.key }), 404, "NOT_FOUND");
    expectError(await post(b.key, { name: "Sneaky", kind: "FIXED", parentId: top.id }), 404, "NOT_FOUND");
  });

  it("gives a new workspace the default set and filters the list", async () => {
    const t = await seedTenant();
    const ws = await call<Envelope<{ id: string }>>("POST", "/api/v1/workspaces", { key: t.key, body: { name: "Books" } });
    expect(ws.status).toBe(201);
    const list = await call<Envelope<Category[]>>("GET", "/api/v1/cost-categories?kind=FIXED&limit=100", {
      key: t.key,
      headers: { "X-Workspace-Id": ws.body.data.id },
    });
    expect(list.status).toBe(200);
    expect(list.body.data.map((c) => c.key).sort()).toEqual(["payroll", "software"]);
  });

  it("is finance.read/finance.manage: a key without them is refused", async () => {
    const t = await seedTenant({ permissions: ["finance.read"] });
    expectError(await post(t.key, { name: "X", kind: "FIXED" }), 403, "FORBIDDEN");
    expect((await call("GET", "/api/v1/cost-categories", { key: t.key })).status).toBe(200);
  });
});
