// Builds the request's `Deps` (database, bindings, clock, request id, waitUntil) once, as
// `c.var.deps`, so handlers and console pages hand services the same object instead of building it.
// Lives in src/http, not beside `Deps`: src/deps.ts knows nothing of Hono or the HTTP layer.
import type { MiddlewareHandler } from "hono";
import { createDb } from "../db/client";
import type { Deps } from "../deps";
import type { AppEnv } from "./app-env";

export const provideDeps = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const deps: Deps = {
    db: createDb(c.env.DB),
    env: c.env,
    now: () => new Date(),
    requestId: c.get("requestId"),
    waitUntil: (p) => {
      try {
        c.executionCtx.waitUntil(p);
      } catch {
        void p.catch(() => undefined);
      }
    },
  };
  c.set("deps", deps);
  await next();
};
