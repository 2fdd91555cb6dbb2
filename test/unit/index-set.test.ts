// The migrated schema's indexes (node:sqlite, every migration applied in order): no index repeats another's
// columns (each one costs every insert and every update of its columns: payments had two on
// (workspace_id, upstream_id) until migration 0023, as had customers and subscriptions), and the lookups by
// upstream id still search the unique one.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";

const db = new DatabaseSync(":memory:");
for (const file of readdirSync("migrations")
  .filter((f) => f.endsWith(".sql"))
  .sort())
  for (const statement of readFileSync(join("migrations", file), "utf8").split("--> statement-breakpoint"))
    if (statement.trim()) db.exec(statement);

const plan = (sql: string) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array((sql.match(/\?/g) ?? []).length).fill("x")) as { detail: string }[])
    .map((r) => r.detail)
    .join(" | ");

describe("the migrated schema's indexes", () => {
  it("no two indexes of a table cover the same columns in the same order", () => {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
      name: string;
    }[];
    const duplicates: string[] = [];
    for (const { name } of tables) {
      const seen = new Map<string, string>();
      for (const index of db.prepare(`PRAGMA index_list("${name}")`).all() as { name: string; partial: number }[]) {
        if (index.partial) continue; // a partial index covers other rows than a full one on the same columns
        const columns = (db.prepare(`PRAGMA index_info("${index.name}")`).all() as { seqno: number; name: string }[])
          .sort((a, b) => a.seqno - b.seqno)
          .map((c) => c.name)
          .join(",");
        const other = seen.get(columns);
        if (other) duplicates.push(`${name}: ${other} and ${index.name} (${columns})`);
        else seen.set(columns, index.name);
      }
    }
    expect(duplicates).toEqual([]);
  });

  it("payments, customers and subscriptions by upstream id (webhooks, the Asaas dialect's ids) search payments_upstream_unique_idx", () => {
    expect(plan('select * from "payments" where "payments"."workspace_id" = ? and "payments"."upstream_id" = ?')).toBe(
      "SEARCH payments USING INDEX payments_upstream_unique_idx (workspace_id=? AND upstream_id=?)",
    );
    // The upstream webhook's lookup (src/modules/upstream-webhooks/service.ts): by upstream id, or by our own id.
    expect(
      plan(
        'select * from "payments" where ("payments"."organization_id" = ? and "payments"."workspace_id" = ? and ("payments"."upstream_id" = ? or "payments"."id" = ?))',
      ),
    ).toContain("SEARCH payments USING INDEX payments_upstream_unique_idx (workspace_id=? AND upstream_id=?)");
    for (const table of ["customers", "subscriptions"]) {
      expect(plan(`select * from "${table}" where "${table}"."workspace_id" = ? and "${table}"."upstream_id" = ?`)).toBe(
        `SEARCH ${table} USING INDEX ${table}_upstream_unique_idx (workspace_id=? AND upstream_id=?)`,
      );
    }
  });
});
