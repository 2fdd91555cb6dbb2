// The benchmark's D1 round-trip counter, and the auth budget it checks: one D1 query for auth.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { BASE, seedTenant } from "./support";

describe("D1 query counting (local benchmarks)", () => {
  it("is off unless D1_QUERY_COUNTING is 1", async () => {
    const t = await seedTenant();
    const res = await buildApp().request(`${BASE}/api/v1/organizations/current`, { headers: { Authorization: `Bearer ${t.key}` } }, env);
    expect(res.headers.get("X-D1-Queries")).toBeNull();
  });

  it("an authenticated read costs one query for auth plus the read itself", async () => {
    const t = await seedTenant();
    const app = buildApp();
    const get = () => app.request(`${BASE}/api/v1/organizations/current`, { headers: { Authorization: `Bearer ${t.key}` } }, { ...env, D1_QUERY_COUNTING: "1" });
    await get(); // the first call may also refresh last_used_at (off the response path)
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get("X-D1-Queries")).toBe("2");
  });

  it("a rejected key costs exactly the one auth query", async () => {
    const res = await buildApp().request(`${BASE}/api/v1/organizations/current`, { headers: { Authorization: `Bearer ponte_test_${"Z".repeat(40)}` } }, { ...env, D1_QUERY_COUNTING: "1" });
    expect(res.status).toBe(401);
    expect(res.headers.get("X-D1-Queries")).toBe("1");
  });
});
