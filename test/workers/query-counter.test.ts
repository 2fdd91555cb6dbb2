// The benchmark's D1 round-trip counter, and the auth budget it checks: one D1 query for auth.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { BASE, seedTenant } from "./support";
import { createCustomer, seedBillingTenant } from "./billing-support";

describe("D1 query counting (local benchmarks)", () => {
  it("is off unless the deployment allows it (D1_QUERY_COUNTING=1) and the request asks (X-D1-Query-Count: 1)", async () => {
    const t = await seedTenant();
    const headers = { Authorization: `Bearer ${t.key}`, "X-D1-Query-Count": "1" };
    const notAllowed = await (await buildApp()).request(`${BASE}/api/v1/organizations/current`, { headers }, env);
    expect(notAllowed.headers.get("X-D1-Queries")).toBeNull();
    const notAsked = await (await buildApp()).request(
      `${BASE}/api/v1/organizations/current`,
      { headers: { Authorization: `Bearer ${t.key}` } },
      { ...env, D1_QUERY_COUNTING: "1" },
    );
    expect(notAsked.headers.get("X-D1-Queries")).toBeNull();
  });

  it("an authenticated read: one auth query when cold, none on a warm isolate", async () => {
    const t = await seedTenant();
    const app = await buildApp();
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
    const app = await buildApp();
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

describe("D1 round trips of a PIX charge create (issue 15: at most 2 on the request path)", () => {
  it("one batch before the upstream call (idempotency claim + pending record answering its customer's upstream id), one after (link + payment.created)", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const app = await buildApp();
    const dueDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const create = (idempotencyKey?: string) =>
      app.request(
        `${BASE}/api/v1/payments`,
        {
          method: "POST",
          headers: {
            Authorization: `Bearer ${t.key}`,
            "Content-Type": "application/json",
            "X-D1-Query-Count": "1",
            ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}),
          },
          body: JSON.stringify({ customer: customer.id, billingType: "PIX", value: "129.90", dueDate }),
        },
        { ...env, D1_QUERY_COUNTING: "1" },
      );
    await create(crypto.randomUUID()); // warms the key and gateway-account caches
    // The fewest of three, as the benchmark counts: a gateway-account cache miss (every 5 s per isolate,
    // more often on a loaded machine) adds one SELECT to some creates.
    const fewest = async (idempotencyKey: () => string | undefined) => {
      let least = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 3; i++) {
        const res = await create(idempotencyKey());
        expect(res.status).toBe(200);
        const body = (await res.json()) as { data: { status: string; syncStatus: string; upstreamId: string } };
        expect(body.data).toMatchObject({ status: "PENDING", syncStatus: "synced" });
        expect(body.data.upstreamId).toMatch(/^pay_/);
        least = Math.min(least, Number(res.headers.get("X-D1-Queries")));
      }
      return least;
    };
    expect(await fewest(() => crypto.randomUUID())).toBe(2);
    expect(await fewest(() => undefined)).toBe(2);
  });
});
