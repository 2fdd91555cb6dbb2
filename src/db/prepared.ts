// Statements built once per isolate, bound per request: the pattern of row-by-id.ts for writes and
// batches. drizzle builds a query's SQL on every call (its chunks walked, every column escaped, its
// `is()` entity checks); on the PIX create's two batches that was a fifth of Ponte's isolate time
// (bench:charges profile). Here drizzle builds the statement once, from the schema, with a named
// placeholder (`sql.placeholder("name")`) wherever a request's value goes; each request binds its values
// by name, each encoded by its column as drizzle encodes it (JSON columns, booleans), null as NULL.
// The SQL text is always drizzle's own, so a column added to or renamed in the schema is in it.
// The statements run on the request's D1 (deps.db.$client: its session, the idempotency claim's gate,
// the query counter), raw D1 statements that go in a raw D1 batch.
import { getTableColumns, is, Param, Placeholder, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";

/** A query builder that only ever compiles (toSQL): its client is never called. */
export const compiler: Db = drizzle({} as D1Database);

type Values = Record<string, unknown>;
type Compilable = { toSQL(): { sql: string; params: unknown[] } };

export interface CompiledStatement {
  /** The SQL text drizzle built, with `?` for each bound value. */
  readonly sql: string;
  /** The values to bind, in order, from a request's values by placeholder name. */
  args(values: Values): unknown[];
}

/** Compiles `query` (drizzle, with named placeholders) to its SQL and an argument list builder. */
export function compileStatement(query: Compilable): CompiledStatement {
  const { sql, params } = query.toSQL();
  const steps = params.map((p): ((values: Values) => unknown) => {
    if (is(p, Placeholder)) return named(p.name, (v) => v);
    if (is(p, Param) && is(p.value, Placeholder)) {
      const encoder = p.encoder as { mapToDriverValue(v: unknown): unknown } | undefined;
      return named(p.value.name, encoder ? (v) => encoder.mapToDriverValue(v) : (v) => v);
    }
    return () => p; // a constant of the statement itself
  });
  return {
    sql,
    args: (values) => {
      const out = new Array<unknown>(steps.length);
      for (let i = 0; i < steps.length; i++) out[i] = (steps[i] as (values: Values) => unknown)(values);
      return out;
    },
  };
}

function named(name: string, encode: (v: unknown) => unknown) {
  return (values: Values) => {
    if (!(name in values)) throw new Error(`prepared statement: no value for "${name}"`);
    const value = values[name];
    return value === null || value === undefined ? null : encode(value);
  };
}

/**
 * `(d1, values) => D1PreparedStatement`: `build(db)` compiled on first use and kept, bound per call.
 * `build` receives a query builder that never runs anything.
 */
export function preparedStatement<V extends object>(build: (db: Db) => Compilable) {
  let compiled: CompiledStatement | undefined;
  return (d1: D1Database, values: V): D1PreparedStatement => {
    compiled ??= compileStatement(build(compiler));
    const args = compiled.args(values as Values);
    const statement = d1.prepare(compiled.sql);
    return args.length > 0 ? statement.bind(...args) : statement;
  };
}

/** A placeholder as an SQL value (for `set({ … })`, which takes SQL; bound as given, no column encoding). */
export const boundValue = (name: string) => sql`${sql.placeholder(name)}`;

/** Placeholders named after `table`'s own keys, for `insert(table).values(…)` and the like. */
export function placeholdersOf<T extends SQLiteTable>(table: T): Record<keyof T["$inferSelect"], Placeholder<string>> {
  const out: Record<string, Placeholder<string>> = {};
  for (const key of Object.keys(getTableColumns(table))) out[key] = new Placeholder(key);
  return out as Record<keyof T["$inferSelect"], Placeholder<string>>;
}

/**
 * Decodes a row D1 answered for `SELECT *` or `RETURNING *` of `table` (an object keyed by column name)
 * into drizzle's row (keyed by the schema's keys, each value decoded by its column as drizzle decodes it).
 */
export function rowDecoder<T extends SQLiteTable>(table: T): (row: Record<string, unknown>) => T["$inferSelect"] {
  let columns: [string, SQLiteColumn][] | undefined;
  return (raw) => {
    columns ??= Object.entries(getTableColumns(table)) as [string, SQLiteColumn][];
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = raw[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T["$inferSelect"];
  };
}
