import { drizzle } from "drizzle-orm/d1";

export type Db = ReturnType<typeof drizzle>;

// One query builder per D1 binding for the isolate's life: building it per request showed up in the
// authenticated-read benchmark. No relational schema is registered (the code uses the query builder only).
const builders = new WeakMap<D1Database, Db>();

/**
 * The query builder over one request's D1 session, not remembered: the session lives for one request,
 * and a WeakMap entry per request costs more (the insert, then the collector's work) than it saves.
 */
export function createSessionDb(session: D1Database): Db {
  return drizzle(session);
}

export function createDb(d1: D1Database): Db {
  let db = builders.get(d1);
  if (!db) {
    db = drizzle(d1);
    builders.set(d1, db);
  }
  return db;
}
