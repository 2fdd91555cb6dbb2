// The one way lists are read: newest first (created_at, then id, both UUIDv7-ordered), one page plus
// the total count, in a single D1 batch.
import { count, desc, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";

type ListedTable = SQLiteTable & { createdAt: SQLiteColumn; id: SQLiteColumn };

/** Which slice of the list to read (the HTTP layer parses it from `?limit=&offset=`). */
export interface PageWindow {
  limit: number;
  offset: number;
}

export async function newestFirstPage<T extends ListedTable>(db: Db, table: T, where: SQL | undefined, page: PageWindow) {
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(table as ListedTable)
      .where(where)
      .orderBy(desc(table.createdAt), desc(table.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: count() })
      .from(table as ListedTable)
      .where(where),
  ]);
  return { rows: rows as T["$inferSelect"][], totalCount: total?.n ?? 0 };
}
