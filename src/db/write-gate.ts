// A D1 binding with a gate in front of its first write: before a request's first batch or write
// statement runs, the gate's own statements run with it — in the same batch, so the same transaction
// and the same round trip. The HTTP idempotency claim (src/http/idempotency.ts) is the one gate: it
// costs no round trip of its own, and when it is refused D1 rolls back everything batched with it.
// Reads never open the gate (they change nothing a retry could repeat).

export interface WriteGate {
  /** True until the gate's statements have been committed once. */
  readonly passed: boolean;
  /** The statements to run first (e.g. the claim), built on the raw binding. */
  statements(d1: D1Database): D1PreparedStatement[];
  /** Called with the outcome of the batch that carried the statements; returns the error to throw instead, if any. */
  settle(outcome: { ok: true } | { ok: false; error: unknown }): unknown;
  /** Runs the statements on their own (before a side effect that is not a D1 write, e.g. an upstream call). */
  pass(): Promise<void>;
}

const READ_ONLY = /^\s*(select|with|pragma|explain)\b/i;
const real = new WeakMap<object, D1PreparedStatement>();

function gatedStatement(stmt: D1PreparedStatement, sql: string, gate: WriteGate): D1PreparedStatement {
  const writes = !READ_ONLY.test(sql);
  const proxy = new Proxy(stmt, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      if (prop === "bind")
        return (...args: unknown[]) => gatedStatement((value as (...a: unknown[]) => D1PreparedStatement).apply(target, args), sql, gate);
      if (writes && (prop === "first" || prop === "all" || prop === "run" || prop === "raw")) {
        return async (...args: unknown[]) => {
          if (!gate.passed) await gate.pass();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  real.set(proxy, stmt);
  return proxy;
}

export function gatedD1(d1: D1Database, gate: WriteGate): D1Database {
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => gatedStatement(target.prepare(sql), sql, gate);
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const own = statements.map((s) => real.get(s) ?? s);
          if (gate.passed) return target.batch(own);
          const first = gate.statements(target);
          let results: D1Result[];
          try {
            results = await target.batch([...first, ...own]);
          } catch (error) {
            throw gate.settle({ ok: false, error }) ?? error;
          }
          gate.settle({ ok: true });
          return results.slice(first.length);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
