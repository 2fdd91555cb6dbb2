// Per-credential rate limiting: once the binding reports a credential over budget, its requests get
// 429 RATE_LIMITED with Retry-After; other credentials are unaffected. The binding counts units of
// RATE_LIMIT_UNIT requests.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildApp } from "../../src/app";
import { hashApiKey } from "../../src/access/api-key-secret";
import { RATE_LIMIT_UNIT } from "../../src/http/rate-limit";
import { BASE, call, type ErrorBody, seedApiKey, seedTenant } from "./support";
import type { Reply, Workspace } from "./bodies";

const settle = () => new Promise((r) => setTimeout(r, 5));

afterEach(() => vi.restoreAllMocks());

describe("rate limiting", () => {
  it("asks the binding once per unit of requests and refuses with 429 + Retry-After once it says over budget", async () => {
    const t = await seedTenant();
    const keys: string[] = [];
    const limiter = {
      limit: async ({ key }: { key: string }) => {
        keys.push(key);
        return { success: keys.length < 2 };
      },
    };
    const app = await buildApp();
    const get = () =>
      app.request(`${BASE}/api/v1/workspaces`, { headers: { Authorization: `Bearer ${t.key}` } }, { ...env, API_RATE_LIMITER: limiter });
    for (let i = 0; i < RATE_LIMIT_UNIT; i++) {
      expect((await get()).status).toBe(200);
      await settle();
    }
    expect(keys).toHaveLength(1); // the first request paid for the whole unit
    expect((await get()).status).toBe(200); // the next unit: the binding refuses it, the isolate learns it now
    await settle();
    expect(keys).toHaveLength(2);
    const res = await get();
    const body = (await res.json()) as ErrorBody;
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(55);
    expect(body.error).toMatchObject({ code: "RATE_LIMITED" });
    expect(body.error.details.retryAfterSeconds).toBe(Number(res.headers.get("Retry-After")));
    expect(new Set(keys)).toEqual(new Set([`api_key:${(await hashApiKey(t.key)).slice(0, 32)}`]));
  });

  it("limits per credential: another key of the same organization is still served", async () => {
    const a = await seedTenant();
    const b = await seedApiKey(a.organizationId, null); // the same organization, another key
    // The first bucket the binding is asked about is spent; any other bucket has budget.
    let spent: string | undefined;
    const asked: string[] = [];
    const limiter = {
      limit: async ({ key }: { key: string }) => {
        asked.push(key);
        spent ??= key;
        return { success: key !== spent };
      },
    };
    const app = await buildApp();
    const get = (key: string) =>
      app.request(`${BASE}/api/v1/workspaces`, { headers: { Authorization: `Bearer ${key}` } }, { ...env, API_RATE_LIMITER: limiter });
    await get(a.key);
    await settle();
    expect((await get(a.key)).status).toBe(429);
    expect((await get(b.key)).status).toBe(200);
    expect(new Set(asked).size).toBe(2); // one bucket per key, not one per organization
  });

  it("never answers 429 before authentication has answered 401", async () => {
    const limiter = { limit: async () => ({ success: false }) };
    const app = await buildApp();
    const bad = () =>
      app.request(
        `${BASE}/api/v1/workspaces`,
        { headers: { Authorization: `Bearer ponte_test_${"Q".repeat(40)}` } },
        { ...env, API_RATE_LIMITER: limiter },
      );
    expect((await bad()).status).toBe(401);
    await settle();
    expect((await bad()).status).toBe(401);
  });

  it("a failing limiter never fails the request", async () => {
    const t = await seedTenant();
    const limiter = { limit: async () => Promise.reject(new Error("limiter down")) };
    const res = await (await buildApp()).request(
      `${BASE}/api/v1/workspaces`,
      { headers: { Authorization: `Bearer ${t.key}` } },
      { ...env, API_RATE_LIMITER: limiter },
    );
    expect(res.status).toBe(200);
  });

  it("asks the real API_RATE_LIMITER binding of wrangler.toml once per unit, keyed by the credential", async () => {
    const t = await seedTenant();
    const limit = vi.spyOn(env.API_RATE_LIMITER, "limit");
    for (let i = 0; i < RATE_LIMIT_UNIT + 1; i++)
      expect((await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key })).status).toBe(200);
    for (let i = 0; i < 100 && limit.mock.results.length < 2; i++) await settle();
    const key = `api_key:${(await hashApiKey(t.key)).slice(0, 32)}`;
    expect(limit.mock.calls).toEqual([[{ key }], [{ key }]]);
    // The runtime's limiter answered (the local budget is generous): both units allowed.
    expect(await Promise.all(limit.mock.results.map((r) => r.value))).toEqual([{ success: true }, { success: true }]);
  });
});
