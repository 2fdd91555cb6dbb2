// rowByIdReader (src/db/row-by-id.ts) answers exactly what drizzle's select().from(t).where(eq(t.id, id)).get()
// answers, over real SQLite (node:sqlite behind a D1-shaped adapter), for every column of a table with
// text, integer and defaulted columns; undefined for an id that is not there; one statement per read.

import type { DatabaseSync } from "node:sqlite";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { rowByIdReader } from "../../src/db/row-by-id";
import { organizations } from "../../src/db/schema";
import { migratedSqlite } from "./migrated-sqlite";

function d1Over(db: DatabaseSync, ran: string[]) {
  const statement = (sql: string, params: unknown[] = []) => ({
    bind: (...values: unknown[]) => statement(sql, values),
    raw: async () => {
      ran.push(sql);
      const s = db.prepare(sql);
      s.setReturnArrays(true);
      return s.all(...(params as never[]));
    },
  });
  return { prepare: (sql: string) => statement(sql), batch: async () => [] } as unknown as D1Database;
}

function migrated() {
  const db = migratedSqlite();
  db.exec(`INSERT INTO organizations (id, name, default_workspace_id, time_zone, audit_log_retention_days, created_at, updated_at)
    VALUES ('org_a', 'Loja A', 'ws_a', 'America/Manaus', 365, '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'),
           ('org_b', 'Loja B', NULL, 'America/Sao_Paulo', 400, '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z')`);
  return db;
}

describe("rowByIdReader", () => {
  it("answers drizzle's own row, column by column, and undefined for an unknown id", async () => {
    const ran: string[] = [];
    const db = drizzle(d1Over(migrated(), ran));
    const read = rowByIdReader(organizations);
    for (const id of ["org_a", "org_b", "org_missing"]) {
      const expected = await db.select().from(organizations).where(eq(organizations.id, id)).get();
      ran.length = 0;
      expect(await read(db.$client, id)).toStrictEqual(expected);
      expect(ran).toHaveLength(1);
    }
    expect(await read(db.$client, "org_a")).toMatchObject({
      id: "org_a",
      defaultWorkspaceId: "ws_a",
      timeZone: "America/Manaus",
      auditLogRetentionDays: 365,
    });
    expect((await read(db.$client, "org_b"))?.defaultWorkspaceId).toBeNull();
  });
});
