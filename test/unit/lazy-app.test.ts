// Issue 29: after an isolate's first response the entry builds the other segments' apps in waitUntil
// (src/lazy-app.ts). These tests fail if the warm-up rejects, skips or fails a segment, keeps a request
// arriving meanwhile waiting for the whole warm-up; or if the entry starts it more than once per isolate
// or when SEGMENT_WARM_UP is off.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../../src/config";
import { lazyApp } from "../../src/lazy-app";
import { ROUTE_GROUPS, SEGMENTS } from "../../src/route-groups";

// Every route module loaded once up front (as an isolate's bundle has them), so the tests time app building only.
await Promise.all(ROUTE_GROUPS.map((group) => group.load()));

const env = { ENVIRONMENT: "production" } as Env;
const unauthenticated = (path: string) => new Request(`https://api.test${path}`) as Request<unknown, IncomingRequestCfProperties>;

/** The fields of the warm-up's one log line ("route segments warmed"), or undefined when none was written. */
function warmUpLine(log: { mock: { calls: unknown[][] } }): { built: number; failed: number } | undefined {
  const line = log.mock.calls.map(([text]) => String(text)).find((text) => text.includes("route segments warmed"));
  return line === undefined ? undefined : JSON.parse(line);
}

// The entry exports the Durable Object classes; their base class comes from the Workers runtime.
vi.mock("cloudflare:workers", () => ({ DurableObject: class {} }));

afterEach(() => vi.restoreAllMocks());

describe("segment warm-up", () => {
  it("builds every segment and the 404 app not built yet, failing none, and answers requests that arrive meanwhile", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const app = lazyApp();
    const first = await app.fetch(unauthenticated("/api/v1/customers"), env, undefined as never);
    expect(first.status).toBe(401);

    const warming = app.warm();
    // A request arriving during the warm-up is answered before the warm-up ends (it waits for one step at most).
    let warmed = false;
    void warming.then(() => (warmed = true));
    const meanwhile = await app.fetch(unauthenticated("/api/v1/subscriptions"), env, undefined as never);
    expect(meanwhile.status).toBe(401);
    expect(warmed).toBe(false);

    await expect(warming).resolves.toBeUndefined();
    // customers was built by the first request; subscriptions by the warm-up or by the request, whichever came first.
    const line = warmUpLine(log);
    expect(line?.failed).toBe(0);
    expect(line?.built).toBeGreaterThanOrEqual(SEGMENTS.length + 1 - 2);
    expect(line?.built).toBeLessThanOrEqual(SEGMENTS.length + 1 - 1);
  });

  it("then loads what the groups' requests import on first use, once for the groups that share it", async () => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const sharing = ROUTE_GROUPS.filter((group) => group.name === "passthrough" || group.name === "upstream-webhooks");
    // Both name the same loader (the upstream vocabulary, ~70 kB a first request would otherwise import on its path).
    expect(sharing).toHaveLength(2);
    const real = sharing[0]?.onFirstUse;
    expect(real).toBeDefined();
    expect(sharing[1]?.onFirstUse).toBe(real);
    const loaded = vi.fn(real as () => Promise<unknown>);
    const writable = sharing as { onFirstUse?: () => Promise<unknown> }[];
    for (const group of writable) group.onFirstUse = loaded;
    try {
      await lazyApp().warm();
    } finally {
      for (const group of writable) group.onFirstUse = real;
    }
    expect(loaded).toHaveBeenCalledTimes(1);
    const loads = loaded.mock.results.map((result) => result.value as Promise<[Record<string, unknown>, Record<string, unknown>]>);
    const [vocabulary, query] = (await Promise.all(loads)).flat();
    expect(vocabulary).toBeDefined();
    expect(query).toBeDefined();
    expect(typeof vocabulary?.bearerAnswer).toBe("function");
    expect(typeof query?.passthroughQueryNames).toBe("function");
  });

  it("is started by the entry once per isolate (in waitUntil), and not when SEGMENT_WARM_UP is off", async () => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const waited: Promise<unknown>[] = [];
    const ctx = { waitUntil: (p: Promise<unknown>) => void waited.push(p), passThroughOnException: () => undefined } as never;
    /** The entry as a fresh isolate evaluates it. */
    const freshEntry = async () => {
      vi.resetModules();
      return (await import("../../src/index")).default;
    };

    const off = await freshEntry();
    expect((await off.fetch(unauthenticated("/api/v1/customers"), { ...env, SEGMENT_WARM_UP: "off" }, ctx)).status).toBe(401);
    expect((await off.fetch(unauthenticated("/api/v1/plans"), { ...env, SEGMENT_WARM_UP: "off" }, ctx)).status).toBe(401);
    expect(waited).toHaveLength(0);

    const on = await freshEntry();
    const answer = on.fetch(unauthenticated("/api/v1/plans"), env, ctx);
    expect(waited).toHaveLength(1);
    expect((await answer).status).toBe(401);
    expect((await on.fetch(unauthenticated("/api/v1/payments"), env, ctx)).status).toBe(401);
    expect(waited).toHaveLength(1);
    await expect(Promise.all(waited)).resolves.toBeDefined();
  }, 60_000);
});
