// Reading and writing one organization's logs in its Durable Object's SQLite (ctx.storage.sql): appends
// keyed by row id, newest-first pages with a total, one row by id, and bounded retention deletes. Column
// names only ever come from the table definitions (tables.ts), never from a caller.
import { type LogTable, SCHEMA_STEPS } from "./tables";

/** One filter on a log: a field of its row, compared with a value. */
export interface LogCondition<Row> {
  field: keyof Row & string;
  op: "=" | ">=" | "<=";
  value: string | number;
}

export interface LogPage<Row> {
  rows: Row[];
  totalCount: number;
}

const SCHEMA_KEY = "schemaSteps";

/** Applies the schema steps this object has not applied yet. */
export function migrateLogStore(storage: DurableObjectStorage): void {
  const applied = storage.kv.get<number>(SCHEMA_KEY) ?? 0;
  for (let step = applied; step < SCHEMA_STEPS.length; step++) storage.sql.exec(SCHEMA_STEPS[step] as string);
  if (applied !== SCHEMA_STEPS.length) storage.kv.put(SCHEMA_KEY, SCHEMA_STEPS.length);
}

const fieldsOf = <Row>(table: LogTable<Row>) => Object.entries(table.columns) as [keyof Row & string, string][];

function columnOf<Row>(table: LogTable<Row>, field: string): string {
  const column = (table.columns as Record<string, string>)[field];
  if (!column) throw new Error(`${table.name} has no field ${field}`);
  return column;
}

function toRow<Row>(table: LogTable<Row>, stored: Record<string, SqlStorageValue>): Row {
  const row: Record<string, SqlStorageValue> = {};
  for (const [field, column] of fieldsOf(table)) row[field] = stored[column] ?? null;
  return row as Row;
}

/** Rows per insert statement: one bound parameter of JSON, well under the storage's 2 MB per value. */
const ROWS_PER_INSERT = 100;

/** The insert of rows given as one JSON array of arrays (values in the table's column order), skipping stored ids. */
const insertStatements = new WeakMap<LogTable<unknown>, string>();
function insertOf<Row>(table: LogTable<Row>): string {
  let statement = insertStatements.get(table as LogTable<unknown>);
  if (!statement) {
    const columns = fieldsOf(table).map(([, column]) => column);
    // `WHERE true` keeps SQLite from reading ON CONFLICT as part of the SELECT's join.
    statement = `INSERT INTO ${table.name} (${columns.join(", ")})
      SELECT ${columns.map((_, i) => `r.value ->> '$[${i}]'`).join(", ")} FROM json_each(?) AS r WHERE true
      ON CONFLICT (id) DO NOTHING RETURNING id`;
    insertStatements.set(table as LogTable<unknown>, statement);
  }
  return statement;
}

/**
 * Writes the rows not stored yet (by id) in one transaction, one statement per 100 rows (the rows as one
 * JSON parameter: strings, numbers and nulls keep their SQL types); returns how many were new.
 */
export function appendRows<Row>(storage: DurableObjectStorage, table: LogTable<Row>, rows: readonly Row[]): number {
  if (rows.length === 0) return 0;
  const fields = fieldsOf(table);
  const insert = insertOf(table);
  return storage.transactionSync(() => {
    let written = 0;
    for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
      const values = rows.slice(at, at + ROWS_PER_INSERT).map((row) => fields.map(([field]) => row[field] ?? null));
      written += storage.sql.exec(insert, JSON.stringify(values)).toArray().length;
    }
    return written;
  });
}

function whereOf<Row>(table: LogTable<Row>, conditions: readonly LogCondition<Row>[]) {
  if (conditions.length === 0) return { clause: "", binds: [] as SqlStorageValue[] };
  const parts = conditions.map((c) => {
    if (c.op !== "=" && c.op !== ">=" && c.op !== "<=") throw new Error(`unknown operator ${String(c.op)}`);
    return `${columnOf(table, c.field)} ${c.op} ?`;
  });
  return { clause: `WHERE ${parts.join(" AND ")}`, binds: conditions.map((c) => c.value) };
}

/** A page of rows, newest first (time, then id), and how many match in all (less any excluded id). */
export function pageRows<Row>(
  storage: DurableObjectStorage,
  table: LogTable<Row>,
  conditions: readonly LogCondition<Row>[],
  page: { limit: number; offset: number },
  excludeIds: readonly string[] = [],
): LogPage<Row> {
  const where = whereOf(table, conditions);
  let { clause } = where;
  const binds = [...where.binds];
  // Rows the caller already has from elsewhere (the audit trail's staged copies), left out of page and total.
  if (excludeIds.length > 0) {
    clause = `${clause ? `${clause} AND` : "WHERE"} id NOT IN (SELECT value FROM json_each(?))`;
    binds.push(JSON.stringify(excludeIds));
  }
  const rows = storage.sql
    .exec<Record<string, SqlStorageValue>>(
      `SELECT * FROM ${table.name} ${clause} ORDER BY ${table.timeColumn} DESC, id DESC LIMIT ? OFFSET ?`,
      ...binds,
      page.limit,
      page.offset,
    )
    .toArray();
  const total = storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${table.name} ${clause}`, ...binds).one();
  return { rows: rows.map((r) => toRow(table, r)), totalCount: total.n };
}

/** Every row matching, oldest first (a delivery's attempts: a handful). */
export function allRows<Row>(storage: DurableObjectStorage, table: LogTable<Row>, conditions: readonly LogCondition<Row>[]): Row[] {
  const { clause, binds } = whereOf(table, conditions);
  return storage.sql
    .exec<Record<string, SqlStorageValue>>(`SELECT * FROM ${table.name} ${clause} ORDER BY ${table.timeColumn}, id`, ...binds)
    .toArray()
    .map((r) => toRow(table, r));
}

/** Deletes up to `limit` rows at or before `cutoff`, oldest first; returns how many went. */
export function deleteRowsThrough<Row>(storage: DurableObjectStorage, table: LogTable<Row>, cutoff: string, limit: number): number {
  const t = table.timeColumn;
  return storage.sql
    .exec(
      `DELETE FROM ${table.name} WHERE id IN (SELECT id FROM ${table.name} WHERE ${t} <= ? ORDER BY ${t} LIMIT ?) RETURNING id`,
      cutoff,
      limit,
    )
    .toArray().length;
}
