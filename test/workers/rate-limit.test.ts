// Per-credential rate limiting: 429 RATE_LIMITED with Retry-After, keyed by the API key.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { BASE, seedTenant } from "./support";

describe("rate limiting", () => {
  it("answers 429 RATE_LIMITED with Retry-After when the binding refuses, keyed per credential", async () => {
    const t = await seedTenant();
    const keys: string[] = [];
    const limiter = { limit: async ({ key }: { key: string }) => (keys.push(key), { success: false }) };
    const res = await buildApp().request(`${BASE}/api/v1/workspaces`, { headers: { Authorization: `Bearer ${t.key}` } }, { ...env, API_RATE_LIMITER: limiter });
    const body = (await res.json()) as any;
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("60");
    expect(body.error).toMatchObject({ code: "RATE_LIMITED", details: { retryAfterSeconds: 60 } });
    expect(keys).toEqual([`api_key:${t.apiKeyId}`]);
  });

  it("is not consulted for unauthenticated requests", async () => {
    let calls = 0;
    const limiter = { limit: async () => (calls++, { success: false }) };
    const res = await buildApp().request(`${BASE}/api/v1/workspaces`, {}, { ...env, API_RATE_LIMITER: limiter });
    expect(res.status).toBe(401);
    expect(calls).toBe(0);
  });

  it("uses the real binding in the workers runtime", async () => {
    expect(typeof env.API_RATE_LIMITER.limit).toBe("function");
    const { success } = await env.API_RATE_LIMITER.limit({ key: "probe" });
    expect(success).toBe(true);
  });
});
