// Counts D1 round trips of a request that asks for it (`X-D1-Query-Count: 1`) when the deployment
// allows it (D1_QUERY_COUNTING is "1": local benchmarks only), and reports them in X-D1-Queries.
// With `X-D1-Query-Log: 1` as well, X-D1-Statements lists the distinct SQL the request ran
// (URI-encoded JSON array; no bound values, so nothing a request carried): bench:scale explains each.
// Other requests are untouched, so a benchmark measures the normal path and probes the count apart.
import type { Context } from "hono";
import { countingD1 } from "../db/query-counter";
import type { AppEnv } from "./app-env";

export const COUNT_REQUEST_HEADER = "X-D1-Query-Count";
export const LOG_REQUEST_HEADER = "X-D1-Query-Log";

/**
 * Switches the request's D1 binding to a counting one when the deployment allows it and the request asks;
 * returns what adds the headers to the response then (undefined otherwise). Called by provideDeps, which
 * opens the request's session on that binding: one middleware fewer on every request's path.
 */
export function countQueriesIfAsked(c: Context<AppEnv>): (() => void) | undefined {
  if (c.env.D1_QUERY_COUNTING !== "1" || c.req.header(COUNT_REQUEST_HEADER) !== "1") return undefined;
  let roundTrips = 0;
  const statements = new Set<string>();
  c.env = {
    ...c.env,
    DB: countingD1(c.env.DB, (ran) => {
      roundTrips++;
      for (const s of ran) statements.add(s.sql);
    }),
  };
  return () => {
    c.res.headers.set("X-D1-Queries", String(roundTrips));
    if (c.req.header(LOG_REQUEST_HEADER) === "1") c.res.headers.set("X-D1-Statements", encodeURIComponent(JSON.stringify([...statements])));
  };
}
