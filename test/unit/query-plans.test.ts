// The full-scan rule shared by test/workers/query-plans.test.ts and bench:scale (scripts/lib/query-plans.mjs),
// checked against plans SQLite really gives (node:sqlite, the pinned Node 22's SQLite).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { aliasesOf, explainable, fullScansOf } from "../../scripts/lib/query-plans.mjs";

const db = new DatabaseSync(":memory:");
db.exec(`
  CREATE TABLE payments (id TEXT PRIMARY KEY, organization_id TEXT, workspace_id TEXT, status TEXT, created_at TEXT);
  CREATE INDEX payments_tenant_idx ON payments (organization_id, workspace_id, created_at);
  CREATE TABLE refunds (id TEXT PRIMARY KEY, organization_id TEXT, workspace_id TEXT, payment_id TEXT, updated_at TEXT);
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT);
`);
const TENANT = new Set(["payments", "refunds"]);
const scans = (sql: string) => fullScansOf(sql, db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[], TENANT);

describe("full scans of tenant tables", () => {
  it("a tenant-indexed read is a SEARCH, not a scan", () => {
    expect(scans("SELECT * FROM payments WHERE organization_id = ? AND workspace_id = ? ORDER BY created_at DESC LIMIT 100")).toEqual([]);
  });

  it("flags a table read end to end, also through an index walked whole, also under an alias", () => {
    expect(scans("SELECT * FROM refunds WHERE organization_id = ? AND updated_at >= ?")).toEqual(["refunds"]);
    expect(scans("SELECT * FROM payments WHERE status = ? ORDER BY organization_id, workspace_id, created_at")).toEqual(["payments"]);
    expect(
      scans("SELECT p.id FROM payments p JOIN refunds r ON r.payment_id = p.id WHERE p.organization_id = ? AND p.workspace_id = ?"),
    ).toEqual(["refunds"]);
  });

  it("flags a lookup by ids that walks the tenant's index instead of the primary key; the +column form keeps the key", () => {
    // The migrated schema, where SQLite (no statistics, as on D1) prefers the tenant's index for `id IN (…)`.
    const migrated = new DatabaseSync(":memory:");
    for (const file of readdirSync("migrations")
      .filter((f) => f.endsWith(".sql"))
      .sort())
      for (const statement of readFileSync(join("migrations", file), "utf8").split("--> statement-breakpoint"))
        if (statement.trim()) migrated.exec(statement);
    const scansIn = (sql: string) =>
      fullScansOf(sql, migrated.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[], new Set(["payments"]));
    const byIds = (tenant: string) =>
      `select "payments"."id", "payments"."upstream_id" from "payments" where (${tenant} and "payments"."id" in (?, ?, ?))`;
    expect(scansIn(byIds('"payments"."organization_id" = ? and "payments"."workspace_id" = ?'))).toEqual(["payments"]);
    expect(scansIn(byIds('+"payments"."organization_id" = ? and +"payments"."workspace_id" = ?'))).toEqual([]);
    expect(scansIn('select "payments"."id" from "payments" where "payments"."organization_id" = ? and "payments"."id" = ?')).toEqual([]);
  });

  it("leaves tables outside the tenant set alone, and explains only row statements", () => {
    expect(scans("SELECT * FROM settings")).toEqual([]);
    expect(aliasesOf('select "o"."id" from "payments" "o" where 1').get("o")).toBe("payments");
    expect(explainable("PRAGMA optimize")).toBe(false);
    expect(explainable("  with x as (select 1) select * from x")).toBe(true);
  });
});
