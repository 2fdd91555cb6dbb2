// Counts D1 round trips of a request that asks for it (`X-D1-Query-Count: 1`) when the deployment
// allows it (D1_QUERY_COUNTING is "1": local benchmarks only), and reports them in X-D1-Queries.
// Other requests are untouched, so a benchmark measures the normal path and probes the count apart.
import type { MiddlewareHandler } from "hono";
import { countingD1 } from "../db/query-counter";
import type { AppEnv } from "./app-env";

export const COUNT_REQUEST_HEADER = "X-D1-Query-Count";

export const d1QueryCounter = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (c.env.D1_QUERY_COUNTING !== "1" || c.req.header(COUNT_REQUEST_HEADER) !== "1") return next();
  let roundTrips = 0;
  c.env = { ...c.env, DB: countingD1(c.env.DB, () => roundTrips++) };
  await next();
  c.res.headers.set("X-D1-Queries", String(roundTrips));
};
