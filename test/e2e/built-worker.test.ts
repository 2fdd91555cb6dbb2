// The built worker (scripts/build-worker.mjs: the split build wrangler.toml's [build] command writes to dist/worker/
// and `wrangler dev`, deploy and `npm start` run) serves what the source does: the e2e project's local worker
// (test/e2e/global-setup.ts) is that build, since wrangler dev runs the [build] command and main points at its entry.
// The worker tests run the source (vitest.config.ts); these requests are the check that the build itself works:
// the entry, a lazily imported route group, the Asaas dialect, the console and the scheduled handler.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { describe, expect, inject, it } from "vitest";

const { baseUrl, apiKey } = inject("ponte");
const ROOT = join(import.meta.dirname, "../..");

describe("the built worker under wrangler dev", () => {
  it("is what wrangler.toml runs: dist/worker/index.ponte.mjs, built, uploaded as its modules", () => {
    const config = parse(readFileSync(join(ROOT, "wrangler.toml"), "utf8"));
    expect(config).toMatchObject({ main: "dist/worker/index.ponte.mjs", no_bundle: true, base_dir: "dist/worker" });
    expect(existsSync(join(ROOT, "dist/worker/index.ponte.mjs"))).toBe(true);
  });

  it("renames no error class: the build keeps no function names, and the logs name an error by its class", () => {
    // scripts/build-worker.mjs builds without keepNames (its __name wrapper ran on every request). esbuild renames
    // a class whose name clashes in its chunk (`Hono2`), and without keepNames that is the name at run time, so an
    // error class renamed so would log as `errorClass: "…Error2"` (src/lib/log.ts reads constructor.name).
    const dir = join(ROOT, "dist/worker");
    const chunks = readdirSync(dir)
      .filter((f) => f.endsWith(".mjs"))
      .map((f) => ({ f, text: readFileSync(join(dir, f), "utf8") }));
    expect(chunks.length).toBeGreaterThan(10);
    const renamed = chunks.flatMap(({ f, text }) =>
      [...text.matchAll(/(?:\bclass |\bvar )([A-Z]\w*(?:Error|Exception)\d+)\b/g)].map((m) => `${f}: ${m[1]}`),
    );
    expect(renamed).toEqual([]);
    expect(chunks.some(({ text }) => text.includes("__name("))).toBe(false);
  });

  it("answers /api/v1/health, refuses an unauthenticated read in the error envelope, redirects /console", async () => {
    const health = await fetch(`${baseUrl}/api/v1/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ data: { status: "ok", environment: "local" } });

    const unauthenticated = await fetch(`${baseUrl}/api/v1/customers`);
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toMatchObject({ error: { code: "UNAUTHORIZED", requestId: expect.any(String) } });

    const console = await fetch(`${baseUrl}/console`, { redirect: "manual" });
    expect(console.status).toBe(303);
    expect(console.headers.get("location")).toBe("/console/sign-in");
  });

  it("serves a native route, a passthrough route and the Asaas dialect with a key", async () => {
    const customers = await fetch(`${baseUrl}/api/v1/customers?limit=1`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(customers.status).toBe(200);
    expect(await customers.json()).toMatchObject({ data: expect.any(Array), meta: { pagination: { limit: 1 } } });

    // Passed through to the upstream (the simulator over the UPSTREAM binding), answered in Ponte's envelope.
    const balance = await fetch(`${baseUrl}/api/v1/finance/balance`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(balance.status).toBe(200);
    expect(await balance.json()).toMatchObject({ data: expect.any(Object), meta: { requestId: expect.any(String) } });

    const payments = await fetch(`${baseUrl}/v3/payments?limit=1`, { headers: { access_token: apiKey } });
    expect(payments.status).toBe(200);
    expect(await payments.json()).toMatchObject({ object: "list", limit: 1, data: expect.any(Array) });
  });

  it("runs the scheduled handler through the local runtime's trigger route (what npm start's crons call)", async () => {
    const res = await fetch(`${baseUrl}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok");
  });
});
