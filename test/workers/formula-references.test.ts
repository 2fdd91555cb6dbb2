// References that cannot dangle (issue 27 #6): a cost category a formula uses (`expenses.<key>`) cannot be
// re-keyed or deleted while the formula uses it — 409 IN_USE naming the formulas, nothing changed — and a
// formula answers what each of its variables refers to (kind, id, current name).
import { describe, expect, it } from "vitest";
import { call, type Envelope, expectError, seedTenant, type TestTenant } from "./support";

interface Reference {
  variable: string;
  kind: string;
  id: string | null;
  name: string | null;
}
interface FormulaBody {
  id: string;
  key: string;
  variables: string[];
  references: Reference[];
}
interface Category {
  id: string;
  key: string;
  name: string;
}

const post = <T>(t: TestTenant, path: string, body: Record<string, unknown>) => call<Envelope<T>>("POST", path, { key: t.key, body });
const formula = (t: TestTenant, key: string, expression: string) =>
  post<FormulaBody>(t, "/api/v1/formulas", { key, name: key.toUpperCase(), unit: "BRL", expression });
const category = async (t: TestTenant, id: string) =>
  (await call<Envelope<Category>>("GET", `/api/v1/cost-categories/${id}`, { key: t.key })).body.data;

describe("a cost category a formula uses", () => {
  it("cannot be re-keyed or deleted (409 IN_USE naming the formulas); its name can change and the formula shows it", async () => {
    const t = await seedTenant();
    const cloud = (await post<Category>(t, "/api/v1/cost-categories", { name: "Cloud", key: "cloud", kind: "VARIABLE" })).body.data;
    const share = await formula(t, "cloud_share", "expenses.cloud / revenue * 100");
    expect(share.status, JSON.stringify(share.body)).toBe(201);
    expect((await formula(t, "cloud_twice", "cloud_share * 2")).status).toBe(201);
    expect(share.body.data.references).toEqual([
      { variable: "expenses.cloud", kind: "expenses", id: cloud.id, name: "Cloud" },
      { variable: "revenue", kind: "metric", id: "revenue", name: "Revenue" },
    ]);

    const rekey = await call("PATCH", `/api/v1/cost-categories/${cloud.id}`, { key: t.key, body: { key: "cloud_cdn" } });
    const err = expectError(rekey, 409, "IN_USE");
    expect(err.message).toContain("cloud_share");
    expect(err.details.usedBy).toEqual(["cloud_share"]);
    expect((await category(t, cloud.id)).key).toBe("cloud");

    expect(
      (await call("PATCH", `/api/v1/cost-categories/${cloud.id}`, { key: t.key, body: { key: "cloud", name: "Cloud & CDN" } })).status,
    ).toBe(200);
    const got = await call<Envelope<FormulaBody>>("GET", `/api/v1/formulas/${share.body.data.id}`, { key: t.key });
    expect(got.body.data.references[0]).toEqual({ variable: "expenses.cloud", kind: "expenses", id: cloud.id, name: "Cloud & CDN" });
    const list = await call<Envelope<FormulaBody[]>>("GET", "/api/v1/formulas", { key: t.key });
    expect(list.body.data.find((f) => f.key === "cloud_twice")?.references).toEqual([
      { variable: "cloud_share", kind: "formula", id: share.body.data.id, name: "CLOUD_SHARE" },
    ]);

    expect(expectError(await call("DELETE", `/api/v1/cost-categories/${cloud.id}`, { key: t.key }), 409, "IN_USE").details.usedBy).toEqual([
      "cloud_share",
    ]);
    expect((await category(t, cloud.id)).name).toBe("Cloud & CDN");

    // Once no formula uses it, both are allowed.
    const patched = await call("PATCH", `/api/v1/formulas/${share.body.data.id}`, { key: t.key, body: { expression: "revenue" } });
    expect(patched.status).toBe(200);
    expect((await call("PATCH", `/api/v1/cost-categories/${cloud.id}`, { key: t.key, body: { key: "cdn" } })).status).toBe(200);
    expect((await call("DELETE", `/api/v1/cost-categories/${cloud.id}`, { key: t.key })).status).toBe(200);
  });

  it("another workspace's formulas do not hold it", async () => {
    const t = await seedTenant();
    const other = await seedTenant();
    const mine = (await post<Category>(t, "/api/v1/cost-categories", { name: "Ads", key: "ads", kind: "VARIABLE" })).body.data;
    await post(other, "/api/v1/cost-categories", { name: "Ads", key: "ads", kind: "VARIABLE" });
    expect((await formula(other, "ads_only", "expenses.ads")).status).toBe(201);
    expect((await call("DELETE", `/api/v1/cost-categories/${mine.id}`, { key: t.key })).status).toBe(200);
  });
});
