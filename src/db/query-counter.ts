// Counts D1 round trips: a D1 binding wrapped so every statement run and every batch ticks a counter.
// The HTTP side (which requests are counted, the X-D1-Queries header) is src/http/query-counter.ts.
// The tick is handed the statements of the round trip (SQL and bound values), so a test can also
// record what a route runs (test/workers/query-plans.test.ts explains every one of them).

/** One statement as sent to D1: its SQL and the values bound to it. */
export interface RecordedStatement {
  sql: string;
  params: unknown[];
}

const real = new WeakMap<object, D1PreparedStatement>();
const recorded = new WeakMap<object, RecordedStatement>();

function wrapStatement(
  stmt: D1PreparedStatement,
  statement: RecordedStatement,
  tick: (s: RecordedStatement[]) => void,
): D1PreparedStatement {
  const proxy = new Proxy(stmt, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      if (prop === "bind")
        return (...args: unknown[]) =>
          wrapStatement(
            (value as (...a: unknown[]) => D1PreparedStatement).apply(target, args),
            { sql: statement.sql, params: args },
            tick,
          );
      if (prop === "first" || prop === "all" || prop === "run" || prop === "raw") {
        return (...args: unknown[]) => {
          tick([statement]);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  real.set(proxy, stmt);
  recorded.set(proxy, statement);
  return proxy;
}

export function countingD1(d1: D1Database, tick: (statements: RecordedStatement[]) => void): D1Database {
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => wrapStatement(target.prepare(sql), { sql, params: [] }, tick);
      // A session (Sessions API) is counted like the binding it came from.
      if (prop === "withSession")
        return (constraintOrBookmark?: string) => countingD1(target.withSession(constraintOrBookmark) as unknown as D1Database, tick);
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          tick(statements.flatMap((s) => recorded.get(s) ?? []));
          return target.batch(statements.map((s) => real.get(s) ?? s));
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
