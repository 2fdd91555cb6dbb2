import { describe, expect, it } from "vitest";
import { call } from "./support";
import type { Health, Reply } from "./bodies";

describe("health", () => {
  it("answers liveness without auth, in the envelope", async () => {
    const res = await call<Reply<Health>>("GET", "/api/v1/health");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: "ok", environment: "local", version: "1.0.0" });
    expect(res.body.meta.requestId).toBe(res.headers.get("X-Request-Id"));
  });

  it("is ready when every migration is applied", async () => {
    const res = await call<Reply<Health>>("GET", "/api/v1/health/ready");
    expect(res.status).toBe(200);
    expect(res.body.data.database).toBe("ok");
    expect(res.body.data.migrations).toBeGreaterThan(0);
  });
});

describe("upstream simulator binding", () => {
  it("is reachable from the worker and can call back into it", async () => {
    const { env } = await import("cloudflare:test");
    const res = await env.UPSTREAM!.fetch("https://upstream-sim.internal/__sim/health");
    expect(await res.json()).toEqual({ ok: true });
  });
});
