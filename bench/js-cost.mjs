#!/usr/bin/env node
// What Ponte's own JavaScript costs per request, apart from the runtime around it: the app for a
// segment (as the worker builds it, src/lazy-app.ts) is bundled with esbuild (as sim/build.mjs is)
// and driven in this Node process with stand-in bindings: a D1 that answers every query at once
// with one row, a rate limiter that always allows. Every middleware, the authentication, the
// permission check, drizzle's query building and result mapping, and the envelope run for real.
// Compare with bench:auth, where the same requests cross wrangler dev's runtime and its simulated D1.
// It also reports what a segment's first request in an isolate pays to load and build its routes.
//   npm run bench:js          (REQUESTS=20000, ROUNDS=9 to change; PROFILE=dir writes a V8 CPU profile of each
//                              case's extra loop to dir/<case>.cpuprofile, for DevTools or bench/profile-top.mjs;
//                              AGAINST=/path/to/another/checkout adds its health and read to the same interleaved
//                              rounds, the A/B of two commits in one process: git worktree add --detach DIR COMMIT)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { ROOT } from "../scripts/lib/local.mjs";
import { envNumber, importBundled, printSummary } from "./lib/harness.mjs";
import { interleavedRounds, profileInProcess, timeRequests } from "./lib/rounds.mjs";

const REQUESTS = envNumber("REQUESTS", 20_000);
const ROUNDS = envNumber("ROUNDS", 9);
const PROFILE = process.env.PROFILE;
if (PROFILE) mkdirSync(PROFILE, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), "ponte-bench-js-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, "entry.ts"),
  `import { groupsFor, ROUTE_GROUPS } from ${JSON.stringify(join(ROOT, "src/route-groups"))};
import { buildApp, createApp } from ${JSON.stringify(join(ROOT, "src/app"))};
export async function appFor(segment: string) { return createApp(await Promise.all(groupsFor(segment).map((g) => g.load(segment)))); }
/** What a segment's first request pays (src/lazy-app.ts), segment by segment from a fresh process. */
export async function firstRequestBuilds() {
  const rows = [];
  for (const segment of [...new Set(ROUTE_GROUPS.flatMap((g) => g.segments))]) {
    const t0 = performance.now();
    const registrars = await Promise.all(groupsFor(segment).map((g) => g.load(segment)));
    const t1 = performance.now();
    createApp(registrars);
    rows.push({ segment, loadMs: t1 - t0, buildMs: performance.now() - t1 });
  }
  const t0 = performance.now();
  await buildApp();
  return { rows, wholeApiBuildMs: performance.now() - t0 };
}`,
);
const { appFor, firstRequestBuilds } = await importBundled(join(dir, "entry.ts"), join(dir, "app.mjs"));
// Another checkout's app, bundled the same way (its packages resolved from this checkout's node_modules).
const AGAINST = process.env.AGAINST;
let appAgainst;
if (AGAINST) {
  writeFileSync(
    join(dir, "against.ts"),
    `import { groupsFor } from ${JSON.stringify(join(AGAINST, "src/route-groups"))};
import { createApp } from ${JSON.stringify(join(AGAINST, "src/app"))};
export async function appFor(segment: string) { return createApp(await Promise.all(groupsFor(segment).map((g) => g.load(segment)))); }`,
  );
  ({ appFor: appAgainst } = await importBundled(join(dir, "against.ts"), join(dir, "against.mjs"), {
    nodePaths: [join(ROOT, "node_modules")],
  }));
}

// First, in this fresh process, what each segment's first request pays: evaluating its modules the
// first time (shared modules are paid by whichever segment loads them first) and building its routes.
const builds = await firstRequestBuilds();
const slowest = (field) => builds.rows.reduce((a, b) => (b[field] > a[field] ? b : a));
const round = (ms) => +ms.toFixed(2);
const firstRequest = {
  segments: builds.rows.length,
  slowestLoad: { segment: slowest("loadMs").segment, ms: round(slowest("loadMs").loadMs) },
  slowestBuild: { segment: slowest("buildMs").segment, ms: round(slowest("buildMs").buildMs) },
  allSegmentsMs: round(builds.rows.reduce((sum, r) => sum + r.loadMs + r.buildMs, 0)),
  wholeApiBuildMs: round(builds.wholeApiBuildMs),
};

const key = `ponte_test_${"b".repeat(40)}`;
const keyRow = {
  id: "01900000-0000-7000-8000-00000000000a",
  organization_id: "01900000-0000-7000-8000-00000000d001",
  workspace_id: null,
  environment: "test",
  permissions: JSON.stringify(["organizations.read"]),
  revoked_at: null,
  last_used_at: new Date().toISOString(),
  default_workspace_id: "01900000-0000-7000-8000-00000000d002",
  selected_workspace_id: "01900000-0000-7000-8000-00000000d002",
  selected_workspace_archived_at: null,
};
const orgRow = [
  "01900000-0000-7000-8000-00000000d001",
  "Ponte Demo",
  "01900000-0000-7000-8000-00000000d002",
  "America/Sao_Paulo",
  30,
  90,
  400,
  "2026-01-01T00:00:00.000Z",
  "2026-01-01T00:00:00.000Z",
];
const statement = (sql) => ({
  bind: () => statement(sql),
  first: async () => (sql.includes("api_keys k") ? keyRow : null),
  all: async () => ({ results: [], success: true, meta: {} }),
  raw: async () => [orgRow],
  run: async () => ({ success: true, meta: {} }),
});
const DB = { prepare: statement, batch: async (s) => s.map(() => ({ results: [] })) };
DB.withSession = () => ({ ...DB, getBookmark: () => null });
const env = { DB, ENVIRONMENT: "local", API_RATE_LIMITER: { limit: async () => ({ success: true }) } };
const ctx = { waitUntil() {}, passThroughOnException() {} };

// A bare handler through the same Request/Response/body plumbing: what Node itself costs per request
// (in workerd those objects are native), so Ponte's own part is the difference.
const bareEnvelope = JSON.stringify({ data: { ...Object.fromEntries(orgRow.map((v, i) => [i, v])) }, meta: { requestId: "req_x" } });
const bare = { fetch: async () => new Response(bareEnvelope, { headers: { "Content-Type": "application/json" } }) };
// The framework's floor: a minimal Hono app answering the read's request with the read's envelope, serialised
// per request through c.json (Hono's routing, Context and Response, no Ponte code). The read minus this
// is what Ponte's own code costs above the framework it is built on (docs/benchmarks.md).
const honoFloor = new Hono();
honoFloor.get("/api/v1/organizations/current", (c) =>
  c.json({ data: { ...Object.fromEntries(orgRow.map((v, i) => [i, v])) }, meta: { requestId: "req_x" } }),
);
const cases = [
  { name: "bare", app: bare, path: "/api/v1/health", headers: {} },
  { name: "honoFloor", app: honoFloor, path: "/api/v1/organizations/current", headers: { Authorization: `Bearer ${key}` } },
  { name: "health", segment: "health", path: "/api/v1/health", headers: {} },
  {
    name: "authenticatedRead",
    segment: "organizations",
    path: "/api/v1/organizations/current",
    headers: { Authorization: `Bearer ${key}` },
  },
];
if (appAgainst) {
  for (const c of cases.filter((x) => x.segment)) cases.push({ ...c, name: `${c.name}Against`, app: await appAgainst(c.segment) });
}
for (const c of cases) c.app ??= await appFor(c.segment);
/** Runs `n` requests of a case; wall and CPU (user + system of this process) microseconds per request. */
const run = ({ app, path, headers }, n) =>
  timeRequests(n, async () => {
    const res = await app.fetch(new Request(`http://127.0.0.1${path}`, { headers }), env, ctx);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  });
// Warm (JIT, the key cache, the router's memo), then rounds interleaving the cases (bare, health, read,
// bare, …); each figure is the median over the rounds (bench/lib/rounds.mjs).
const { perRound, figures } = await interleavedRounds(cases, run, { requests: REQUESTS, rounds: ROUNDS });
const result = {};
for (const c of cases) result[c.name] = { path: c.path, ...figures[c.name] };
if (PROFILE) {
  for (const c of cases.filter((x) => x.segment && !x.name.endsWith("Against"))) {
    const profile = await profileInProcess(() => run(c, Math.max(perRound * 2, Math.round(REQUESTS / 2))));
    writeFileSync(join(PROFILE, `${c.name}.cpuprofile`), JSON.stringify(profile));
  }
}
const own = (name) => +(result[name].cpuMicrosecondsPerRequest - result.bare.cpuMicrosecondsPerRequest).toFixed(1);
console.log(JSON.stringify({ node: process.version, requests: REQUESTS, rounds: ROUNDS, firstRequest, ...result }, null, 2));
printSummary({
  bench: "js",
  authReadMicros: result.authenticatedRead.microsecondsPerRequest,
  healthMicros: result.health.microsecondsPerRequest,
  // The same scope as the wall figures, on CPU (a wall figure well above its CPU figure is a run the machine's
  // other work slowed), and the bare handler's wall: Node's own Request/Response plumbing, inside both.
  authReadCpuMicros: result.authenticatedRead.cpuMicrosecondsPerRequest,
  bareMicros: result.bare.microsecondsPerRequest,
  // Ponte's own code: CPU per request over the bare handler's (Node's Request/Response/body plumbing).
  authReadOwnMicros: own("authenticatedRead"),
  healthOwnMicros: own("health"),
  // The minimal Hono app's wall per request, and the read's CPU over it: Ponte's code above its framework.
  honoFloorMicros: result.honoFloor.microsecondsPerRequest,
  authReadOverHonoMicros: +(result.authenticatedRead.cpuMicrosecondsPerRequest - result.honoFloor.cpuMicrosecondsPerRequest).toFixed(1),
  ...(AGAINST
    ? {
        against: AGAINST,
        againstAuthReadMicros: result.authenticatedReadAgainst.microsecondsPerRequest,
        againstAuthReadOwnMicros: own("authenticatedReadAgainst"),
        againstHealthOwnMicros: own("healthAgainst"),
      }
    : {}),
  busiestSegmentFirstRequestMs: +Math.max(...builds.rows.map((r) => r.loadMs + r.buildMs)).toFixed(2),
});
