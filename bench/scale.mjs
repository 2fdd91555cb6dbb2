#!/usr/bin/env node
// Issue 28: Ponte at 100× the demo. Builds, in a fresh local D1, the demo workspace at 100× (≈137,000 charges,
// 24,600 customers and subscriptions, 11,400 expenses over 12 months), 1,000,000 API-call log rows and one event per
// charge, plus 50 other organizations with a demo-sized history each — written straight into the SQLite file
// (bench/lib/scale-data.mjs), the log rows where a deployment from before the per-organization log stores holds
// them (D1's gateway_api_logs). It then moves those rows into the organizations' OrgLogDO stores as a deployment
// does — the `log-copy` cron, fired through wrangler dev's /cdn-cgi/local/scheduled until log_copy_progress reports done
// (rows/s and runs reported) — and applies the deferred drop of the old tables (migrations-deferred/0024) with
// the API stopped, as a later release would. Then it rebuilds the rollups and calls every GET route of the API without a path
// parameter (both dialects: Bearer under /api/v1, access_token under /v3), at the maximum page size on the first
// page and a deep one (offset 10,000), every metric, every profitability grouping, the dashboard for each period
// and the console's pages. Each request also asks for the statements it ran (D1_QUERY_COUNTING=1), and each
// distinct statement is explained against the same database: a `SCAN` of a tenant table counts as a full scan
// (scripts/lib/query-plans.mjs, the rule of test/workers/query-plans.test.ts).
// Prints per-route p50/p99, the ten slowest, bytes per row of each table, and ends with one JSON line:
// {"bench":"scale","routes":N,"p99MaxMs":…,"fiveHundreds":…,"fullScans":…,…}
//   npm run bench:scale         (SCALE=100, OTHER_ORGS=50, LOG_ROWS=1000000, REPEAT=3)
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { explainable, fullScansOf } from "../scripts/lib/query-plans.mjs";
import { DEMO } from "../scripts/lib/local.mjs";
import { benchStateDir, deadline, envNumber, fmt, loadAverage, percentile, printSummary, startWrangler } from "./lib/harness.mjs";
import {
  d1File,
  dropOldLogTables,
  logCopyProgress,
  logStoreSizes,
  openD1,
  tableSizes,
  tenantTables,
  writeConsoleSession,
  writeEvents,
  writeHistory,
  writeLogRows,
  writeOrganization,
} from "./lib/scale-data.mjs";

deadline(envNumber("DEADLINE_SECONDS", 2400));
const started = performance.now();
const step = (what) => console.error(`bench:scale: ${what} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
const SCALE = envNumber("SCALE", 100);
const OTHER_ORGS = envNumber("OTHER_ORGS", 50);
const LOG_ROWS = envNumber("LOG_ROWS", 1_000_000);
const REPEAT = envNumber("REPEAT", 3);
const DEEP_OFFSET = 10_000;

const tmp = benchStateDir("ponte-bench-scale");
const state = join(tmp, "ponte");
mkdirSync(state);
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));
process.env.PONTE_PERSIST_DIR = state;
const loadBefore = loadAverage();

step("seeding the demo tenant");
const { seed } = await import("../scripts/seed.mjs");
const demo = await seed();
const file = d1File(state);
const db = openD1(file);
const setup = {};
let t0 = performance.now();
const counts = writeHistory(db, { ...DEMO, scale: SCALE, space: 0, seed: 0x90e7e });
setup.historySeconds = +fmt((performance.now() - t0) / 1000, 1);
step(`${SCALE}× history written: ${JSON.stringify(counts)}`);
t0 = performance.now();
const otherOrgs = [];
for (let i = 1; i <= OTHER_ORGS; i++) {
  const org = {
    organizationId: `01900000-0000-7000-a000-${i.toString(16).padStart(12, "0")}`,
    workspaceId: `01900000-0000-7000-a001-${i.toString(16).padStart(12, "0")}`,
  };
  writeOrganization(db, { ...org, name: `Merchant ${i}`, fromWorkspaceId: DEMO.workspaceId, createdAt: new Date().toISOString() });
  writeHistory(db, { ...org, scale: 1, space: i, seed: 0x5eed + i });
  otherOrgs.push(org);
}
setup.otherOrgsSeconds = +fmt((performance.now() - t0) / 1000, 1);
step(`${OTHER_ORGS} other organizations written`);
t0 = performance.now();
const now = Date.now();
writeLogRows(db, { ...DEMO, n: LOG_ROWS, fromMs: now - 365 * 86_400_000, toMs: now });
setup.logSeconds = +fmt((performance.now() - t0) / 1000, 1);
t0 = performance.now();
const events = writeEvents(db, { ...DEMO, limit: counts.payments });
setup.eventsSeconds = +fmt((performance.now() - t0) / 1000, 1);
step(`${LOG_ROWS} log rows and ${events} events written`);
const cookie = writeConsoleSession(db, { organizationId: DEMO.organizationId });
t0 = performance.now();
// No ANALYZE: the plans are judged as test/workers/query-plans.test.ts judges them, by the indexes alone (with statistics
// SQLite rightly scans a one-row table, which says nothing about a missing index).
const sizes = tableSizes(db);
setup.measureSeconds = +fmt((performance.now() - t0) / 1000, 1);
const fileBytes = statSync(file).size;
const guarded = tenantTables(db);
db.close();

const startApi = () =>
  startWrangler(["-c", "wrangler.toml", "-c", "sim/wrangler.toml", "--env", "local", "--persist-to", state, "--test-scheduled"], {
    readyPath: "/api/v1/health",
    timeoutMs: 180_000,
    vars: ["D1_QUERY_COUNTING:1"],
  });
step("starting the API");
let ponte = await startApi();
const bearer = { Authorization: `Bearer ${demo.apiKey}`, "X-Workspace-Id": DEMO.workspaceId };
const asaas = { access_token: demo.apiKey };
const probe = { "X-D1-Query-Count": "1", "X-D1-Query-Log": "1" };
const CRON = "* * * * *";
let logCopy = null;
let logStores = null;
try {
  // The log rows span 12 months: the demo organization keeps its API-call log 400 days (the setting's bound), so
  // its store legitimately holds all of them (the default, 30 days, would have its alarm delete 11/12 of them).
  const kept = await fetch(`${ponte.base}/api/v1/organizations/current/retention`, {
    method: "PATCH",
    headers: { ...bearer, "Content-Type": "application/json" },
    body: JSON.stringify({ gatewayApiLogDays: 400 }),
  });
  if (!kept.ok) throw new Error(`retention: ${kept.status} ${await kept.text()}`);

  step(`copying ${LOG_ROWS} log rows into the organizations' stores (the log-copy cron, fired until done)`);
  t0 = performance.now();
  let runs = 0;
  for (;;) {
    const fired = await fetch(`${ponte.base}/cdn-cgi/local/scheduled?cron=${encodeURIComponent(CRON)}`);
    await fired.arrayBuffer();
    if (!fired.ok) throw new Error(`/cdn-cgi/local/scheduled: ${fired.status}`);
    runs++;
    const progress = logCopyProgress(file);
    const sources = Object.values(progress);
    if (sources.length === 2 && sources.every((p) => p.done)) {
      const seconds = (performance.now() - t0) / 1000;
      const rows = progress.gateway_api_logs.copiedRows;
      logCopy = { rows, runs, seconds: +fmt(seconds, 1), rowsPerSecond: Math.round(rows / seconds) };
      break;
    }
    if (runs % 10 === 0) step(`log copy: ${runs} runs, ${progress.gateway_api_logs?.copiedRows ?? 0} rows`);
    if (runs > 10 + LOG_ROWS / 1_000) throw new Error(`log copy not done after ${runs} runs: ${JSON.stringify(progress)}`);
  }
  step(`log copy done: ${JSON.stringify(logCopy)}`);
  if (logCopy.rows !== LOG_ROWS) throw new Error(`log copy moved ${logCopy.rows} rows, not ${LOG_ROWS}`);
  // The next release: the API stopped, the old tables dropped (nothing can read them any more), the API started again.
  await ponte.stop();
  logStores = logStoreSizes(state);
  dropOldLogTables(file);
  step(`old log tables dropped; stores: ${JSON.stringify(logStores)}; restarting the API`);
  ponte = await startApi();

  step("rebuilding the rollups");
  t0 = performance.now();
  const rebuilt = await fetch(`${ponte.base}/api/v1/metrics/rebuild`, { method: "POST", headers: bearer });
  if (!rebuilt.ok) throw new Error(`rebuild: ${rebuilt.status} ${await rebuilt.text()}`);
  setup.rebuildSeconds = +fmt((performance.now() - t0) / 1000, 1);

  // The routes: every GET of the document without a path parameter, both dialects, first page and deep page.
  const doc = await (await fetch(`${ponte.base}/api/v1/openapi.json`)).json();
  const today = new Date().toISOString().slice(0, 10);
  const yearAgo = new Date(now - 364 * 86_400_000).toISOString().slice(0, 10);
  const routes = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const op = item.get;
    if (!op || path.includes("{") || path.includes("/auth/") || path.endsWith("/openapi.json") || path.endsWith("/docs")) continue;
    const paged = (op.parameters ?? []).some((p) => p.in === "query" && p.name === "offset");
    const pages = paged ? ["limit=100", `limit=100&offset=${DEEP_OFFSET}`] : [""];
    for (const q of pages) {
      routes.push({ name: `GET ${path}${q ? `?${q}` : ""}`, url: `${path}${q ? `?${q}` : ""}`, headers: bearer });
      if (op["x-implementation"])
        routes.push({
          name: `GET /v3${path.slice(7)}${q ? `?${q}` : ""} (access_token)`,
          url: `/v3${path.slice(7)}${q ? `?${q}` : ""}`,
          headers: asaas,
        });
    }
  }
  const metrics = await (await fetch(`${ponte.base}/api/v1/metrics`, { headers: bearer })).json();
  for (const m of metrics.data ?? [])
    routes.push({
      name: `GET /api/v1/metrics/${m.key}`,
      url: `/api/v1/metrics/${m.key}?from=${yearAgo}&to=${today}&interval=day`,
      headers: bearer,
    });
  for (const g of ["month", "plan", "customer", "costCategory"])
    routes.push({
      name: `GET /api/v1/profitability?groupBy=${g}`,
      url: `/api/v1/profitability?groupBy=${g}&from=${yearAgo}&to=${today}`,
      headers: bearer,
    });
  for (const p of ["7d", "30d", "90d", "mtd", "qtd", "ytd", "custom"])
    routes.push({
      name: `GET /api/v1/dashboard?period=${p}`,
      url: `/api/v1/dashboard?period=${p}${p === "custom" ? `&from=${yearAgo}&to=${today}` : ""}`,
      headers: bearer,
    });
  for (const page of [
    "",
    "/customers",
    "/payments",
    "/subscriptions",
    "/plans",
    "/suppliers",
    "/expenses",
    "/cost-categories",
    "/gateway-logs",
    "/webhook-logs",
    "/audit",
    "/metrics",
    "/profitability",
    "/dashboard",
    "/formulas",
  ]) {
    routes.push({ name: `GET /console${page}`, url: `/console${page}`, headers: { Cookie: cookie } });
    if (["/customers", "/payments", "/gateway-logs"].includes(page))
      routes.push({ name: `GET /console${page}?page=50`, url: `/console${page}?page=50`, headers: { Cookie: cookie } });
  }

  step(`calling ${routes.length} routes ${REPEAT + 1} times each`);
  const statements = new Map();
  const results = [];
  for (const route of routes) {
    const samples = [];
    const statuses = new Set();
    for (let i = 0; i <= REPEAT; i++) {
      const first = i === 0;
      const t = performance.now();
      const res = await fetch(`${ponte.base}${route.url}`, {
        headers: first ? { ...route.headers, ...probe } : route.headers,
        redirect: "manual",
      });
      await res.arrayBuffer();
      const ms = performance.now() - t;
      statuses.add(res.status);
      if (first) {
        const logged = res.headers.get("X-D1-Statements");
        for (const sql of logged ? JSON.parse(decodeURIComponent(logged)) : []) if (!statements.has(sql)) statements.set(sql, route.name);
      } else samples.push(ms);
    }
    samples.sort((a, b) => a - b);
    results.push({
      route: route.name,
      statuses: [...statuses],
      p50Ms: +fmt(percentile(samples, 50)),
      p99Ms: +fmt(percentile(samples, 99)),
    });
  }

  step(`explaining ${statements.size} statements`);
  const plans = openD1(file, true);
  const scans = [];
  for (const [sql, route] of statements) {
    if (!explainable(sql)) continue;
    const plan = plans.prepare(`EXPLAIN QUERY PLAN ${sql}`).all();
    const scanned = fullScansOf(sql, plan, guarded);
    if (scanned.length > 0) scans.push({ route, tables: scanned, sql: sql.slice(0, 300) });
  }
  plans.close();

  for (const r of results) console.log(`${r.route.padEnd(90)} ${String(r.statuses).padEnd(8)} p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms`);
  const slowest = [...results].sort((a, b) => b.p99Ms - a.p99Ms).slice(0, 10);
  console.log("\nten slowest (p99):");
  for (const r of slowest) console.log(`  ${r.p99Ms} ms  ${r.route}`);
  console.log("\nbytes per row (table + its indexes, dbstat):");
  for (const [t, s] of Object.entries(sizes).filter(([, s]) => s.rows > 0))
    console.log(`  ${t.padEnd(28)} ${String(s.rows).padStart(9)} rows ${String(s.bytesPerRow).padStart(6)} B/row`);
  console.log(`database file: ${(fileBytes / 1e6).toFixed(1)} MB (before the old log table was dropped)`);
  console.log(`log copy: ${JSON.stringify(logCopy)}; log stores: ${JSON.stringify(logStores)}`);
  for (const s of scans) console.log(`FULL SCAN of ${s.tables.join(", ")} by ${s.route}: ${s.sql}`);
  const fiveHundreds = results.filter((r) => r.statuses.some((s) => s >= 500));
  for (const r of fiveHundreds) console.log(`5xx: ${r.route} ${r.statuses}`);
  printSummary({
    bench: "scale",
    routes: results.length,
    p99MaxMs: Math.max(...results.map((r) => r.p99Ms)),
    p50MedianMs: +fmt(
      percentile(
        results.map((r) => r.p50Ms).sort((a, b) => a - b),
        50,
      ),
    ),
    fiveHundreds: fiveHundreds.length,
    fullScans: scans.length,
    statements: statements.size,
    data: { ...counts, logRows: LOG_ROWS, events, otherOrganizations: OTHER_ORGS, fileMB: +fmt(fileBytes / 1e6, 1) },
    bytesPerRow: {
      ...Object.fromEntries(
        ["payments", "customers", "subscriptions", "expenses", "events"].map((t) => [t, sizes[t]?.bytesPerRow ?? null]),
      ),
      // An API-call log row in its organization's store (what scale:simulate reads), and as D1 held it before.
      gateway_api_logs: logStores?.largest?.bytesPerRow ?? null,
      gateway_api_logs_d1: sizes.gateway_api_logs?.bytesPerRow ?? null,
    },
    logCopy,
    setup,
    totalSeconds: +fmt((performance.now() - started) / 1000, 0),
    load: { before: loadBefore, after: loadAverage() },
  });
  if (fiveHundreds.length > 0) process.exitCode = 1;
} finally {
  await ponte.stop();
}
