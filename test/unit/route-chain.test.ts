// src/http/route-chain.ts: a read whose middleware are transparent is one layer of Hono's chain and
// answers exactly as the layers would (the handler's Response, its errors through the error handler);
// anything else keeps its layers.
import { Hono, type MiddlewareHandler } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/http/app-env";
import { readInOneLayer, transparentMiddleware } from "../../src/http/route-chain";

function appWith(method: "GET" | "POST", middleware: MiddlewareHandler<AppEnv>[], fail = false) {
  const app = new Hono<AppEnv>();
  const handler = (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => {
    if (fail) throw new Error("route failed");
    return c.json({ seen: c.get("requestId") }, 201);
  };
  const handlers = readInOneLayer(method, middleware, handler);
  for (const h of handlers as MiddlewareHandler<AppEnv>[]) app.on(method, "/x", h);
  app.onError((err, c) => c.json({ error: err.message }, 418));
  return { app, layers: handlers.length };
}

const marks = transparentMiddleware(async (c, next) => {
  c.set("requestId", "req_1");
  await next();
});

describe("route chain", () => {
  it("a read behind transparent middleware is one layer, answering the handler's Response", async () => {
    const { app, layers } = appWith("GET", [marks]);
    expect(layers).toBe(1);
    const res = await app.request("/x");
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ seen: "req_1" });
  });

  it("the handler's error reaches the error handler as from its own layer", async () => {
    const { app } = appWith("GET", [marks], true);
    const res = await app.request("/x");
    expect(res.status).toBe(418);
    expect(await res.json()).toEqual({ error: "route failed" });
  });

  it("a write, or a middleware not marked transparent, keeps its layers (its code after next runs)", async () => {
    expect(appWith("POST", [marks]).layers).toBe(2);
    const after = async (c: Parameters<MiddlewareHandler<AppEnv>>[0], next: () => Promise<void>) => {
      await next();
      c.res.headers.set("X-After", "ran");
    };
    const { app, layers } = appWith("GET", [marks, after], true);
    expect(layers).toBe(3);
    const res = await app.request("/x");
    expect(res.status).toBe(418);
    expect(res.headers.get("X-After")).toBe("ran");
  });
});
