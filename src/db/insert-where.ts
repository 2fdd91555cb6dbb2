// A guarded insert: `INSERT INTO t (…) SELECT <values> WHERE <condition>` — the check and the write are one
// statement, so a cap (e.g. "at most 16 per workspace") cannot be overrun by concurrent requests the way a
// read-then-insert can. Values go through each column's driver mapping (JSON, booleans) as drizzle's insert does.
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect, type SQLiteTable } from "drizzle-orm/sqlite-core";

const dialect = new SQLiteSyncDialect();

/** A D1 statement (for `DB.batch`) inserting `row` only when `condition` holds; `meta.changes` tells which. */
export function insertWhere<T extends SQLiteTable>(db: D1Database, table: T, row: T["$inferInsert"], condition: SQL): D1PreparedStatement {
  const values = row as Record<string, unknown>;
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => values[key] !== undefined);
  const names = sql.join(
    columns.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  );
  const params = sql.join(
    columns.map(([key, column]) => (values[key] === null ? sql`NULL` : sql`${column.mapToDriverValue(values[key])}`)),
    sql`, `,
  );
  const query = dialect.sqlToQuery(sql`INSERT INTO ${table} (${names}) SELECT ${params} WHERE ${condition}`);
  return db.prepare(query.sql).bind(...query.params);
}
