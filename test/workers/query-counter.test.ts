// The benchmark's D1 round-trip counter, and the auth budget it checks: one D1 query for auth.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { BASE, seedTenant } from "./support";

describe("D1 query counting (local benchmarks)", () => {
  it("is off unless the deployment allows it (D1_QUERY_COUNTING=1) and the request asks (X-D1-Query-Count: 1)", async () => {
    const t = await seedTenant();
    const headers = { Authorization: `Bearer ${t.key}`, "X-D1-Query-Count": "1" };
    const notAllowed = await buildApp().request(`${BASE}/api/v1/organizations/current`, { headers }, env);
    expect(notAllowed.headers.get("X-D1-Queries")).toBeNull();
    const notAsked = await buildApp().request(
      `${BASE}/api/v1/organizations/current`,
      { headers: { Authorization: `Bearer ${t.key}` } },
      { ...env, D1_QUERY_COUNTING: "1" },
    );
    expect(notAsked.headers.get("X-D1-Queries")).toBeNull();
  });

  it("an authenticated read: one auth query when cold, none on a warm isolate", async () => {
    const t = await seedTenant();
    const app = buildApp();
    const get = () =>
      app.request(
        `${BASE}/api/v1/organizations/current`,
        { headers: { Authorization: `Bearer ${t.key}`, "X-D1-Query-Count": "1" } },
        { ...env, D1_QUERY_COUNTING: "1" },
      );
    const cold = await get();
    expect(cold.status).toBe(200);
    // key lookup + the read + the once-a-minute last_used_at write (after the response)
    expect(cold.headers.get("X-D1-Queries")).toBe("3");
    const warm = await get();
    expect(warm.status).toBe(200);
    expect(warm.headers.get("X-D1-Queries")).toBe("1");
  });

  it("a rejected (unknown) key costs exactly the one auth query, every time", async () => {
    const app = buildApp();
    for (let i = 0; i < 2; i++) {
      const res = await app.request(
        `${BASE}/api/v1/organizations/current`,
        { headers: { Authorization: `Bearer ponte_test_${"Z".repeat(40)}`, "X-D1-Query-Count": "1" } },
        { ...env, D1_QUERY_COUNTING: "1" },
      );
      expect(res.status).toBe(401);
      expect(res.headers.get("X-D1-Queries")).toBe("1");
    }
  });
});
