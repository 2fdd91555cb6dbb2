// Server-Timing (SERVER_TIMING=on, local benchmarks only): a passthrough's response lists its stages in order;
// without the var the response carries no such header.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { BASE, seedTenant } from "./support";
import { seedGatewayAccount, simKey } from "./gateway-support";

const STAGES = ["chain", "prepare", "upstream", "read", "log", "vocabulary", "envelope", "after", "worker"];

describe("Server-Timing", () => {
  it("lists a passthrough's stages with their durations when SERVER_TIMING is on, and is absent otherwise", async () => {
    const t = await seedTenant();
    await seedGatewayAccount(t, simKey());
    const app = await buildApp();
    const get = (vars: Record<string, string>) =>
      app.request(`${BASE}/api/v1/finance/balance`, { headers: { Authorization: `Bearer ${t.key}` } }, { ...env, ...vars });

    const off = await get({});
    expect(off.status).toBe(200);
    expect(off.headers.get("Server-Timing")).toBeNull();

    const on = await get({ SERVER_TIMING: "on" });
    expect(on.status).toBe(200);
    expect(((await on.json()) as { data: { balance: string } }).data.balance).toMatch(/^\d+\.\d{2}$/);
    const parts = (on.headers.get("Server-Timing") ?? "").split(", ").map((p) => p.split(";dur="));
    expect(parts.map(([stage]) => stage)).toEqual(STAGES);
    for (const [, dur] of parts) expect(Number(dur)).toBeGreaterThanOrEqual(0);
    const durations = parts.map(([, dur]) => Number(dur));
    const worker = durations.at(-1) ?? 0;
    // The stages add up to the whole (each rounded to the microsecond).
    expect(Math.abs(durations.slice(0, -1).reduce((a, b) => a + b, 0) - worker)).toBeLessThan(0.001 * STAGES.length);

    // A request that is not timed after one that was carries no header either.
    expect((await get({})).headers.get("Server-Timing")).toBeNull();
  });
});
