// Counts D1 round trips of a request that asks for it (`X-D1-Query-Count: 1`) when the deployment
// allows it (D1_QUERY_COUNTING is "1": local benchmarks only), and reports them in X-D1-Queries.
// Other requests are untouched, so a benchmark measures the normal path and probes the count apart.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/app-env";

export const COUNT_REQUEST_HEADER = "X-D1-Query-Count";

const real = new WeakMap<object, D1PreparedStatement>();

function wrapStatement(stmt: D1PreparedStatement, tick: () => void): D1PreparedStatement {
  const proxy = new Proxy(stmt, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      if (prop === "bind") return (...args: unknown[]) => wrapStatement((value as (...a: unknown[]) => D1PreparedStatement).apply(target, args), tick);
      if (prop === "first" || prop === "all" || prop === "run" || prop === "raw") {
        return (...args: unknown[]) => {
          tick();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  real.set(proxy, stmt);
  return proxy;
}

export function countingD1(d1: D1Database, tick: () => void): D1Database {
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrapStatement(target.prepare(sql), tick);
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          tick();
          return target.batch(statements.map((s) => real.get(s) ?? s));
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export const d1QueryCounter = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (c.env.D1_QUERY_COUNTING !== "1" || c.req.header(COUNT_REQUEST_HEADER) !== "1") return next();
  let roundTrips = 0;
  c.env = { ...c.env, DB: countingD1(c.env.DB, () => roundTrips++) };
  await next();
  c.res.headers.set("X-D1-Queries", String(roundTrips));
};
