// Date filters on lists, as the upstream spells them (`dueDate`, `dueDate[ge]`, `dueDate[le]`): a
// day, or an inclusive range of days.
import { gte, lt, lte, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** A column holding a calendar day (`YYYY-MM-DD`): the day itself, from, to (inclusive). */
export function onDays(column: SQLiteColumn, on?: string, from?: string, to?: string): SQL[] {
  const conditions: SQL[] = [];
  if (on) conditions.push(eq(column, on));
  if (from) conditions.push(gte(column, from));
  if (to) conditions.push(lte(column, to));
  return conditions;
}

/**
 * Brazil's civil time (America/Sao_Paulo) has been UTC−03:00 all year since DST ended in 2019: the
 * day a merchant means by `dateCreated=2026-12-01` starts at 03:00 UTC.
 */
const BRAZIL_OFFSET_HOURS = 3;
const localDayStartUtc = (day: string, plusDays = 0) => {
  const start = new Date(`${day}T00:00:00.000Z`);
  start.setUTCDate(start.getUTCDate() + plusDays);
  start.setUTCHours(BRAZIL_OFFSET_HOURS);
  return start.toISOString();
};

/** A column holding an ISO UTC timestamp, filtered by Brazilian calendar days (inclusive). */
export function onLocalDays(column: SQLiteColumn, on?: string, from?: string, to?: string): SQL[] {
  const conditions: SQL[] = [];
  for (const first of [on, from]) if (first) conditions.push(gte(column, localDayStartUtc(first)));
  for (const last of [on, to]) if (last) conditions.push(lt(column, localDayStartUtc(last, 1)));
  return conditions;
}
