// Bounded deletes for the retention sweeper: the oldest rows whose `column` is at or before a cutoff,
// at most LIMITS.retentionBatchRows per call, so one cron run stays small however far behind it is.
import { LIMITS } from "../config";

export interface ExpiredRows {
  table: string;
  /** A unique key of the table (`rowid` works for any table). */
  key: string;
  /** The indexed column the cutoff applies to. */
  column: string;
}

/** Deletes up to LIMITS.retentionBatchRows rows with `column <= cutoff`, oldest first; returns how many went. */
export async function deleteExpiredRows(db: D1Database, rows: ExpiredRows, cutoff: string | number): Promise<number> {
  const { table, key, column } = rows;
  const result = await db
    .prepare(`DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE ${column} <= ?1 ORDER BY ${column} LIMIT ?2)`)
    .bind(cutoff, LIMITS.retentionBatchRows)
    .run();
  return result.meta.changes ?? 0;
}
