// A table's row by its primary key, answered as drizzle's `select().from(t).where(eq(t.id, id)).get()`
// answers it, with the statement's SQL built once per isolate. drizzle builds a query's SQL on every
// call (selection, column names, escaping, its entity checks): for the organization read of every
// GET /organizations/current that was a third of Ponte's own JavaScript per request (bench:js).
// The SQL text is drizzle's own (its query builder, with a placeholder for the id); each value is
// decoded by its column as drizzle decodes it. The statement runs on the request's session like any
// other query (deps.db's D1, read as `d1Of(deps)` so no query builder is built for it), so sessions,
// bookmarks and query counting see it as before.
import { eq, getTableColumns, sql } from "drizzle-orm";
import { QueryBuilder, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";

type Keyed = SQLiteTable & { id: SQLiteColumn };

/** `(d1, id) => row | undefined` for `table` (d1: the request's binding, `d1Of(deps)`), its SELECT built on first use and kept. */
export function rowByIdReader<T extends Keyed>(table: T) {
  let compiled: { sql: string; columns: [string, SQLiteColumn][] } | undefined;
  return async (d1: Pick<D1Database, "prepare">, id: string): Promise<T["$inferSelect"] | undefined> => {
    compiled ??= {
      sql: new QueryBuilder()
        .select()
        .from(table)
        .where(eq(table.id, sql.placeholder("id")))
        .toSQL().sql,
      // select() lists the table's columns in this order (drizzle's orderSelectedFields walks the same entries).
      columns: Object.entries(getTableColumns(table)) as [string, SQLiteColumn][],
    };
    const [values] = await d1.prepare(compiled.sql).bind(id).raw();
    if (!values) return undefined;
    const row: Record<string, unknown> = {};
    const { columns } = compiled;
    for (let i = 0; i < columns.length; i++) {
      const [key, column] = columns[i] as [string, SQLiteColumn];
      const value = values[i];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T["$inferSelect"];
  };
}
