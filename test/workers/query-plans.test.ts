// No full scans (issue 28 #2): every list and report route runs over a year-sized workspace (the demo
// history) with a D1 binding that records each statement it sends; each distinct statement is then
// explained (`EXPLAIN QUERY PLAN`, with the values it was bound to) and the test fails on a plan that
// reads a tenant table end to end (`SCAN <table>`, scripts/lib/query-plans.mjs) — such a query slows
// down with every merchant in the database, not with the caller's own records. Covered: every paginated
// GET of the OpenAPI document (Bearer under /api/v1, with each documented filter once), the native lists
// in the Asaas dialect under /v3, every report (metrics, each profitability grouping, the dashboard for
// each period) and the console's pages. bench:scale counts full scans the same way on 100× the data.
import { env } from "cloudflare:test";
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { explainable, fullScansOf } from "../../scripts/lib/query-plans.mjs";
import { buildApp } from "../../src/app";
import { NAV_GROUPS } from "../../src/console/layout";
import * as schema from "../../src/db/schema";
import { countingD1, type RecordedStatement } from "../../src/db/query-counter";
import { GROUPINGS } from "../../src/modules/analytics/profitability";
import { PERIODS } from "../../src/modules/analytics/dashboard";
import type { SchemaObject } from "../openapi-types";
import { seedMember } from "./auth-support";
import { type DemoWorkspace, seedDemoWorkspace } from "./demo-workspace";
import { documentedLists } from "./list-operations";
import { openApiDocument } from "./openapi-operations";
import { BASE } from "./support";

/** Every console page of the sidebar (src/console/layout.tsx), "" for the overview. */
const CONSOLE_PAGES = NAV_GROUPS.flatMap((group) => group.items.map(([href]) => href))
  .filter((href) => href.startsWith("/console"))
  .map((href) => href.slice("/console".length).replace(/^\//, ""));

let demo: DemoWorkspace;
let cookie: string;
const statements = new Map<string, RecordedStatement & { route: string }>();
const statuses: { route: string; status: number }[] = [];

async function call(route: string, headers: Record<string, string>) {
  const app = await buildApp();
  const recordingEnv = {
    ...env,
    DB: countingD1(env.DB, (ran) => {
      for (const s of ran) if (!statements.has(s.sql)) statements.set(s.sql, { ...s, route });
    }),
  };
  const res = await app.request(`${BASE}${route}`, { headers }, recordingEnv);
  await res.arrayBuffer();
  statuses.push({ route, status: res.status });
}

/** A value the documented filter accepts, or null when the filter needs a record's id. */
function sample(schema: SchemaObject, today: string): string | null {
  const s = schema as { enum?: unknown[]; type?: string; format?: string; pattern?: string; example?: unknown };
  if (s.enum?.length) return String(s.enum[0]);
  if (s.type === "boolean") return "true";
  if (s.format === "date" || s.pattern?.includes("\\d{4}-\\d{2}-\\d{2}")) return today;
  if (s.format === "date-time") return `${today}T00:00:00.000Z`;
  if (typeof s.example === "string" || typeof s.example === "number") return String(s.example);
  return null;
}

beforeAll(async () => {
  demo = await seedDemoWorkspace();
  cookie = (await seedMember(demo.organizationId, "owner")).cookie;
  const bearer = { Authorization: `Bearer ${demo.key}` };
  const today = new Date().toISOString().slice(0, 10);
  const lists = documentedLists(await openApiDocument()).filter((op) => op.pathParams.length === 0);
  for (const op of lists) {
    // The page's offset is a bound value: a deep page runs the first page's statement (bench:scale times both).
    await call(`${op.path}?limit=100&offset=100`, bearer);
    for (const f of op.filters) {
      const value = sample(f.schema, today);
      if (value !== null) await call(`${op.path}?limit=100&${encodeURIComponent(f.name)}=${encodeURIComponent(value)}`, bearer);
    }
    if (op.catalogue) await call(`/v3${op.path.slice("/api/v1".length)}?limit=100&offset=100`, { access_token: demo.key });
  }
  const yearAgo = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
  const metrics = (await (await (await buildApp()).request(`${BASE}/api/v1/metrics`, { headers: bearer }, env)).json()) as {
    data: { key: string }[];
  };
  for (const m of metrics.data) await call(`/api/v1/metrics/${m.key}?from=${yearAgo}&to=${today}&interval=month`, bearer);
  for (const g of GROUPINGS) await call(`/api/v1/profitability?groupBy=${g}&from=${yearAgo}&to=${today}`, bearer);
  for (const p of PERIODS) await call(`/api/v1/dashboard?period=${p}${p === "custom" ? `&from=${yearAgo}&to=${today}` : ""}`, bearer);
  for (const page of CONSOLE_PAGES) await call(`/console${page ? `/${page}` : ""}`, { Cookie: cookie });
}, 120_000);

describe("query plans of every list and report route", () => {
  it("every route answered (no 5xx), and the recording saw the routes' queries", () => {
    expect(statuses.filter((s) => s.status >= 500)).toEqual([]);
    expect(statuses.filter((s) => s.route.startsWith("/console") && s.status !== 200)).toEqual([]);
    expect(statements.size).toBeGreaterThan(50);
  });

  it("no statement reads a tenant table end to end", async () => {
    const tenantTables = new Set<string>();
    for (const t of Object.values(schema) as unknown[]) {
      if (!is(t, SQLiteTable)) continue;
      const columns = getTableColumns(t);
      if ("organizationId" in columns || "workspaceId" in columns) tenantTables.add(getTableName(t));
    }
    expect(tenantTables).toContain("payments");
    const scans: string[] = [];
    const started = performance.now();
    for (const s of statements.values()) {
      if (!explainable(s.sql)) continue;
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${s.sql}`)
        .bind(...s.params)
        .all<{ detail: string }>();
      const scanned = fullScansOf(s.sql, plan.results, tenantTables);
      if (scanned.length > 0)
        scans.push(`${s.route}: SCAN ${scanned.join(", ")}\n  ${s.sql}\n  ${plan.results.map((r) => r.detail).join(" | ")}`);
    }
    console.log(
      `${statements.size} statements from ${statuses.length} requests, explained in ${Math.round(performance.now() - started)} ms`,
    );
    expect(scans, scans.join("\n\n")).toEqual([]);
  });
});
