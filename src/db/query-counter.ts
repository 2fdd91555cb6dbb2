// Counts D1 round trips: a D1 binding wrapped so every statement run and every batch ticks a counter.
// The HTTP side (which requests are counted, the X-D1-Queries header) is src/http/query-counter.ts.

const real = new WeakMap<object, D1PreparedStatement>();

function wrapStatement(stmt: D1PreparedStatement, tick: () => void): D1PreparedStatement {
  const proxy = new Proxy(stmt, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      if (prop === "bind")
        return (...args: unknown[]) => wrapStatement((value as (...a: unknown[]) => D1PreparedStatement).apply(target, args), tick);
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
      // A session (Sessions API) is counted like the binding it came from.
      if (prop === "withSession")
        return (constraintOrBookmark?: string) => countingD1(target.withSession(constraintOrBookmark) as unknown as D1Database, tick);
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
