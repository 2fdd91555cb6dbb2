// An in-memory SQLite (node:sqlite) with every migration applied in order: the schema D1 has, for unit
// tests of SQL that need no workerd.
import { readdirSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";

export function migratedSqlite(): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  const dir = new URL("../../migrations/", import.meta.url);
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort())
    db.exec(readFileSync(new URL(file, dir), "utf8"));
  return db;
}
