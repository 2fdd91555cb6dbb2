// Issue 15: which Hono router the app uses, and why. The catalogue's paths are beyond RegExpRouter
// (it rejects them), so the app is built on TrieRouter directly instead of letting SmartRouter find
// that out at the cost of a failed build on every isolate's first request.
import { describe, expect, it } from "vitest";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { TrieRouter } from "hono/router/trie-router";

const appModule = "../../src/app";
const { buildApp } = (await import(appModule)) as {
  buildApp: () => Promise<{ router: { name: string }; routes: { method: string; path: string }[] }>;
};

const app = await buildApp();

describe("router", () => {
  it("is the memoised TrieRouter, and a memoised match equals a fresh one", () => {
    expect(app.router.name).toBe("MemoTrieRouter");
    const router = app.router as unknown as { match: (m: string, p: string) => unknown };
    const first = router.match("GET", "/api/v1/finance/balance");
    expect(router.match("GET", "/api/v1/finance/balance")).toBe(first);
    const fresh = new TrieRouter<unknown>();
    for (const route of app.routes) fresh.add(route.method, route.path, (route as { handler?: unknown }).handler);
    const [ours, theirs] = [router.match("GET", "/api/v1/payments/abc/pix"), fresh.match("GET", "/api/v1/payments/abc/pix")] as [
      [unknown, Record<string, string>][][],
      [unknown, Record<string, string>][][],
    ];
    expect(ours[0]?.length).toBe(theirs[0]?.length);
    expect(ours[0]?.map(([, params]) => params)).toEqual(theirs[0]?.map(([, params]) => params));
  });

  it("fuses the first middleware and a route's lone handler into one entry carrying the route's params and path", () => {
    type Entry = [[unknown, { path: string }], Record<string, string>];
    const router = app.router as unknown as { match: (m: string, p: string) => [Entry[]] };
    const fresh = new TrieRouter<unknown>();
    for (const route of app.routes) fresh.add(route.method, route.path, [(route as { handler?: unknown }).handler, route]);
    const [ours] = router.match("GET", "/api/v1/organizations/current");
    expect(ours.length).toBe(1);
    expect(ours[0]?.[0][1].path).toBe("/api/v1/organizations/current");
    let fused = 0;
    for (const route of app.routes.filter((r) => r.method === "GET" && r.path.startsWith("/api/v1/"))) {
      const path = route.path.replace(/:[^/]+/g, "abc");
      const [theirs] = fresh.match("GET", path) as [Entry[]];
      const [mine] = router.match("GET", path);
      if (theirs.length !== 2) {
        expect(mine.length).toBe(theirs.length); // three or more layers stay layers
        continue;
      }
      expect(mine.length).toBe(1);
      expect(mine[0]?.[0][1]).toBe(theirs[1]?.[0][1]);
      expect(mine[0]?.[1]).toEqual(theirs[1]?.[1]);
      fused++;
    }
    expect(fused).toBeGreaterThan(2);
    // A path no route answers is the first middleware alone, as before.
    expect(router.match("GET", "/api/v1/no-such-thing")[0].length).toBe(1);
  });

  it("memoises per method, bounded in methods and paths", () => {
    const router = app.router as unknown as { match: (m: string, p: string) => unknown[][]; memo: Map<string, Map<string, unknown>> };
    const get = router.match("GET", "/api/v1/organizations/current");
    const patch = router.match("PATCH", "/api/v1/organizations/current");
    expect(patch).not.toBe(get);
    expect(router.match("GET", "/api/v1/organizations/current")).toBe(get);
    for (let i = 0; i < 40; i++) router.match(`X${i}`, "/api/v1/organizations/current");
    expect(router.memo.size).toBeLessThanOrEqual(16);
    for (let i = 0; i < 600; i++) router.match("GET", `/api/v1/customers/${i}`);
    expect(router.memo.get("GET")?.size).toBeLessThanOrEqual(512);
  });

  it("because RegExpRouter rejects the catalogue's paths (switch back if this ever stops failing)", () => {
    const build = () => {
      const regexp = new RegExpRouter<number>();
      for (const [i, route] of app.routes.entries()) regexp.add(route.method, route.path, i);
      regexp.match("GET", "/api/v1/payments");
    };
    expect(build).toThrow(/\/api\/v1\//);
  });
});
