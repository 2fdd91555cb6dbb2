// Guarded inserts: `INSERT INTO t (…columns) SELECT … WHERE <condition>`, the check and the write in one
// statement. Two uses:
// - a cap ("at most 16 per workspace"): the condition counts the rows, so concurrent requests cannot overrun
//   it the way a read-then-insert can (`insertWhere`);
// - "only if the statement just before it in the same D1 batch changed a row" (`insertIfChanged`, condition
//   `changes() > 0`): pairing a guarded UPDATE with it makes "state changed" and "row written" one atomic fact.
//
// Values are given by column name, never by position: the SELECT list is built from drizzle's own
// column map (getTableColumns, the same map that writes the INSERT's column list), each entry taken
// from `values` by its key and aliased to its column, so adding or reordering a column in the schema
// cannot misplace a value. Omitted columns get their schema default (or NULL); values are encoded as
// drizzle encodes them (JSON columns, booleans).
import { getTableColumns, is, sql, SQL, type SQLChunk } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";

export function guardedSelect<T extends SQLiteTable>(table: T, values: T["$inferInsert"], condition: SQL): SQL {
  const columns = getTableColumns(table);
  const given = values as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(key in columns)) throw new Error(`guarded insert: ${key} is not a column of this table`);
  }
  const selected: SQLChunk[] = [];
  for (const [key, column] of Object.entries(columns)) {
    if (column.generated && column.generated.type !== "byDefault") continue; // as drizzle: generated columns are not inserted
    let value = given[key];
    if (value === undefined) value = column.default !== undefined ? column.default : column.defaultFn ? column.defaultFn() : null;
    const expression = is(value, SQL) ? value : sql.param(value, column);
    selected.push(sql`${expression} AS ${sql.identifier(column.name)}`);
  }
  return sql`SELECT ${sql.join(selected, sql`, `)} WHERE ${condition}`;
}

/** Inserts `values` only when `condition` holds (a drizzle batch item; `changedRows` of its result tells which). */
export function insertWhere<T extends SQLiteTable>(db: Db, table: T, values: T["$inferInsert"], condition: SQL) {
  return db.insert(table).select(guardedSelect(table, values, condition));
}

/** The batch item: put it right after the statement whose change it depends on. */
export function insertIfChanged<T extends SQLiteTable>(db: Db, table: T, values: T["$inferInsert"]) {
  return insertWhere(db, table, values, sql`changes() > 0`);
}

/**
 * "Only if this event was recorded": the condition a statement in the same batch as an event insert takes, so it
 * applies exactly when the event row was written (`id` a value, a placeholder or an SQL expression).
 */
export const eventRecorded = (id: unknown): SQL => sql`EXISTS (SELECT 1 FROM events WHERE id = ${id})`;

/** Rows changed by a batch item that was a run statement (UPDATE/INSERT/DELETE). */
export function changedRows(result: unknown): number {
  return (result as { meta?: { changes?: number } } | undefined)?.meta?.changes ?? 0;
}
