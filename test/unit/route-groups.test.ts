// Issue 15: the worker builds one app per path segment on demand (src/lazy-app.ts) from the route
// group table (src/route-groups.ts). These tests fail if the table's segments drift from what the
// groups register, or if a segment's app would route differently from the whole API.
import { OpenAPIHono } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { buildApp, createApp } from "../../src/app";
import { CONSOLE_SEGMENT, segmentOf } from "../../src/http/segment";
import { groupsFor, REFERENCE_SEGMENTS, ROUTE_GROUPS } from "../../src/route-groups";

const routesOf = (app: { routes: { method: string; path: string }[] }, segment: string) =>
  app.routes.filter((r) => segmentOf(r.path) === segment).map((r) => `${r.method} ${r.path}`);

const full = await buildApp();
const segments = [...new Set(ROUTE_GROUPS.flatMap((g) => g.segments))];

describe("route groups", () => {
  it("each group registers routes under its declared segments only, and under every one of them", async () => {
    for (const group of ROUTE_GROUPS) {
      const app = new OpenAPIHono();
      (await group.load())(app as never);
      const registered = new Set(
        app.routes.filter((r) => !r.path.endsWith("*") || r.path.startsWith("/console")).map((r) => segmentOf(r.path)),
      );
      expect([...registered].sort(), group.name).toEqual([...group.segments].sort());
    }
  });

  it("every route of the whole API belongs to a segment some group declares", () => {
    const owned = (segment: string | undefined) => groupsFor(segment).length > 0 || REFERENCE_SEGMENTS.includes(segment as string);
    const unowned = full.routes.filter((r) => !r.path.endsWith("*")).filter((r) => !owned(segmentOf(r.path)));
    expect(unowned.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it("a segment's app has exactly the whole API's routes under that segment, in the same order", async () => {
    expect(segments.length).toBeGreaterThan(40);
    for (const segment of segments) {
      const app = createApp(await Promise.all(groupsFor(segment).map((g) => g.load(segment))));
      expect(routesOf(app, segment), segment).toEqual(routesOf(full, segment));
      expect(routesOf(app, segment).length, segment).toBeGreaterThan(0);
    }
  });

  it("a segment's app routes a request to the same handler position as the whole API", async () => {
    const app = createApp(await Promise.all(groupsFor("payments").map((g) => g.load("payments"))));
    // A passthrough literal (GET /payments/limits) must win over the native GET /payments/{id}.
    const matched = (a: typeof full, path: string) =>
      (a.router.match("GET", path)[0] as [[unknown, { path: string }], Record<string, string>][])
        .map(([[, route]]) => route.path)
        .filter((p) => !p.endsWith("*"));
    expect(matched(app, "/api/v1/payments/limits")).toEqual(matched(full, "/api/v1/payments/limits"));
    expect(matched(app, "/api/v1/payments/limits")[0]).toBe("/api/v1/payments/limits");
  });
});

describe("segmentOf", () => {
  it("names the first segment under /api/v1, the console, or nothing", () => {
    expect(segmentOf("/api/v1/customers")).toBe("customers");
    expect(segmentOf("/api/v1/customers/cus_1/restore")).toBe("customers");
    expect(segmentOf("/api/v1/openapi.json")).toBe("openapi.json");
    expect(segmentOf("/api/v1/%63ustomers")).toBe("customers"); // the router decodes percent-escapes too
    expect(segmentOf("/api/v1/%E0%A4%A")).toBeUndefined();
    expect(segmentOf("/api/v1/")).toBe("");
    expect(segmentOf("/console")).toBe(CONSOLE_SEGMENT);
    expect(segmentOf("/console/login")).toBe(CONSOLE_SEGMENT);
    expect(segmentOf("/consoles")).toBeUndefined();
    expect(segmentOf("/")).toBeUndefined();
    expect(segmentOf("/api/v2/customers")).toBeUndefined();
  });
});
