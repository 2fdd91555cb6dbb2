#!/usr/bin/env node
// Worker start-up benchmark (issues 15 and 29): builds the worker as `wrangler deploy` would (dry run, no
// network: scripts/build-worker.mjs's modules), reports their size and the size of the ones start-up evaluates,
// and profiles the start-up phase (the entry module's evaluation) with `wrangler check startup`, RUNS times. The figure is the profile's span (as issue 15 measured it)
// and its non-idle CPU time (each sample counted for at most one sampling interval:
// bench/lib/startup-profile.mjs), the median of the runs.
//
// Then the first requests, in two fresh `wrangler dev` sessions:
// - as an isolate serves them (`firstRequestMs`): the isolate answers its first request (/health), then
//   builds the other segments in waitUntil (src/lazy-app.ts); the bench waits until the isolate reports
//   the warm-up done (its one "route segments warmed" log line, read through the DevTools inspector) and
//   then times every segment's first and second request. A request that reaches a real isolate after its
//   warm-up sees exactly this; `warmUpMs` is how long after the first response that takes, the window in
//   which a first request can still find its segment unbuilt (it then waits for at most one segment's
//   build, or builds its own: the cold figure).
// - cold (`coldFirstRequestMs`): the same with the warm-up off (SEGMENT_WARM_UP=off), so each segment's
//   first request loads and builds its own part of the API, as every one did before issue 29.
// No request reaches the worker before the timed /health: readiness is probed on a static asset.
// The transport: every request is sent with node:http (one kept-alive connection per worker) straight to the
// socket of the workerd that runs the worker — miniflare's entry worker, the assets router, then the worker, as
// a request at the edge goes — not through `wrangler dev`'s port, whose dev proxy (a second workerd: its entry
// worker, the ProxyWorker Durable Object, and one more HTTP hop over loopback) production does not have and
// which cost ~10–20 ms per request on the shared 2-core machine, Ponte's and the bare worker's alike
// (startWrangler's `workerSocket`; docs/benchmarks.md "Start-up and the first requests"). Until 2026-11-27 the bench
// timed Node's fetch through that proxy. The same client also times the bare worker (bench/baselines/bare, its own
// dev session, its isolate already warm, the same transport) once between each segment's first and second
// request: `bareRequestMs` is the median of those 49, `bareSlowestMs` their slowest — the same statistic
// `firstRequestMs` takes of Ponte's first requests — and once more the old way, through its dev proxy with fetch
// (`bareProxiedRequestMs`, `bareProxiedSlowestMs`), so each run shows what the proxy added.
//   npm run bench:startup          (RUNS=5 to change)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import WebSocket from "ws";
import { ROOT } from "../scripts/lib/local.mjs";
import { envNumber, importBundled, loadAverage, printSummary, startWrangler } from "./lib/harness.mjs";
import { median, profileStartup, runWrangler } from "./lib/startup-profile.mjs";

const RUNS = envNumber("RUNS", 5);
const dir = mkdtempSync(join(tmpdir(), "ponte-bench-startup-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const loadBefore = loadAverage();
// What `wrangler deploy` uploads (dry run: the [build] command, then every module of dist/worker/). `bundleBytes`
// and `bundleGzipBytes` are all the modules' (each gzipped, as they are uploaded); `startupModuleBytes` the ones
// start-up evaluates: the entry and what it imports statically.
runWrangler(["deploy", "--dry-run", "--outdir", join(dir, "bundle")]);
const modules = new Map(
  readdirSync(join(dir, "bundle"))
    .filter((f) => f.endsWith(".mjs"))
    .map((f) => [f, readFileSync(join(dir, "bundle", f))]),
);
const bundleBytes = [...modules.values()].reduce((sum, m) => sum + m.length, 0);
const bundleGzipBytes = [...modules.values()].reduce((sum, m) => sum + gzipSync(m, { level: 9 }).length, 0);
/** The entry and the modules it imports statically (`import … from "./x.mjs"`, `import "./x.mjs"`), transitively. */
function startupModules(name, seen = new Set()) {
  if (seen.has(name) || !modules.has(name)) return seen;
  seen.add(name);
  for (const [, imported] of String(modules.get(name)).matchAll(/^(?:import|export)\s[^;]*?["']\.\/([^"']+\.mjs)["'];?$/gms))
    startupModules(imported, seen);
  return seen;
}
const startup = startupModules("index.ponte.mjs");
const startupModuleBytes = [...startup].reduce((sum, f) => sum + modules.get(f).length, 0);

const runs = Array.from({ length: RUNS }, (_, i) => profileStartup(join(dir, `startup-${i}.cpuprofile`)));

const WARM_UP_TIMEOUT_MS = envNumber("WARM_UP_TIMEOUT_MS", 60_000);

/** Resolves with the first console line of the isolate that contains `text` (wrangler dev's inspector, DevTools protocol). */
async function consoleLine(inspectorPort, text) {
  const ws = new WebSocket(`ws://127.0.0.1:${inspectorPort}/ws`, { headers: { Origin: "http://localhost" } });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const line = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${text}" log line within ${WARM_UP_TIMEOUT_MS} ms`)), WARM_UP_TIMEOUT_MS);
    ws.on("message", (data) => {
      const message = JSON.parse(String(data));
      if (message.method !== "Runtime.consoleAPICalled") return;
      const logged = message.params.args.map((a) => String(a.value ?? "")).join(" ");
      if (!logged.includes(text)) return;
      clearTimeout(timer);
      resolve(logged);
    });
  });
  ws.send(JSON.stringify({ id: 1, method: "Runtime.enable" }));
  // `detach` ends the DevTools session before anything else is timed: the inspector proxy then sends the isolate
  // Debugger.disable and Network.disable, work no real request would share. The socket is dropped (the proxy does
  // not answer a close frame, which would hold `ws` for its 30 s close timeout).
  const detach = () =>
    new Promise((resolve) => {
      if (ws.readyState === WebSocket.CLOSED) return resolve();
      ws.once("close", resolve);
      ws.terminate();
    });
  return { line, detach };
}

/** One connection kept alive per worker socket, as an edge keeps its connections to a worker's host. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request's latency (ms), sent to the worker's own socket (`base`: a session's `workerBase`); a 5xx fails the run. */
function timedAt(base, path) {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(base + path, { agent }, (res) => {
        res.resume();
        res.once("error", reject);
        res.once("end", () => (res.statusCode >= 500 ? reject(new Error(`${path}: ${res.statusCode}`)) : resolve(performance.now() - t0)));
      })
      .once("error", reject);
  });
}

/** One request's latency (ms) as this bench timed it until 2026-11-27: Node's fetch through the dev proxy (`base`). */
async function proxiedAt(base, path) {
  const t0 = performance.now();
  const res = await fetch(base + path, { redirect: "manual" });
  await res.arrayBuffer();
  if (res.status >= 500) throw new Error(`${path}: ${res.status}`);
  return performance.now() - t0;
}

/** What the bare worker is asked (it answers every path alike). */
const BARE_PATH = "/api/v1/health";

/** The bare worker's dev session, its isolate started by one untimed request. */
async function startBare() {
  const dev = await startWrangler(["-c", "bench/baselines/bare/wrangler.toml"], { readyPath: "/docs/docs.css", workerSocket: true });
  await timedAt(dev.workerBase, BARE_PATH);
  return dev;
}

/**
 * Every segment's first and second answer (ms) in a fresh dev session whose isolate has answered /health
 * once (`healthMs`) and, with `warm`, finished its warm-up; the bare worker (`bare`) answers once between the two.
 */
async function firstRequests({ warm, bare }) {
  const { SEGMENTS } = await importBundled(join(ROOT, "src/route-groups.ts"), join(dir, "route-groups.mjs"));
  const vars = warm ? [] : ["SEGMENT_WARM_UP:off"];
  const dev = await startWrangler(["--env", "local"], { readyPath: "/docs/docs.css", vars, workerSocket: true });
  try {
    const timed = (path) => timedAt(dev.workerBase, path);
    const warmed = warm ? await consoleLine(dev.inspectorPort, "route segments warmed") : null;
    const healthMs = await timed("/api/v1/health");
    const warmStart = performance.now();
    const warmUp = warmed ? JSON.parse(await warmed.line) : null;
    const warmUpMs = warmed ? performance.now() - warmStart : null;
    await warmed?.detach();
    const rows = [];
    for (const segment of SEGMENTS) {
      const path = segment === "console" ? "/console" : `/api/v1/${segment}`;
      const firstMs = await timed(path);
      const bareMs = await timedAt(bare.workerBase, BARE_PATH);
      const bareProxiedMs = await proxiedAt(bare.base, BARE_PATH);
      rows.push({ segment, firstMs, bareMs, bareProxiedMs, secondMs: await timed(path) });
    }
    return { healthMs, warmUpMs, warmUp, rows };
  } finally {
    await dev.stop();
  }
}
const bare = await startBare();
let warmSession;
let coldSession;
try {
  warmSession = await firstRequests({ warm: true, bare });
  coldSession = await firstRequests({ warm: false, bare });
} finally {
  await bare.stop();
}
const segments = warmSession.rows;
const coldBySegment = new Map(coldSession.rows.map((r) => [r.segment, r]));
const busiest = segments.reduce((a, b) => (b.firstMs > a.firstMs ? b : a));
const coldBusiest = coldSession.rows.reduce((a, b) => (b.firstMs > a.firstMs ? b : a));
const ms = (n) => (n === null ? null : +n.toFixed(1));
const result = {
  runs: runs.map((r) => ({ spanMs: ms(r.spanMs), cpuMs: ms(r.cpuMs), sampledMs: ms(r.sampledMs), intervalMs: +r.intervalMs.toFixed(2) })),
  startupSpanMs: ms(median(runs.map((r) => r.spanMs))),
  startupCpuMs: ms(median(runs.map((r) => r.cpuMs))),
  startupSampledMs: ms(median(runs.map((r) => r.sampledMs))),
  bundleBytes,
  bundleGzipBytes,
  modules: modules.size,
  startupModules: startup.size,
  startupModuleBytes,
  isolateFirstRequestMs: ms(warmSession.healthMs),
  warmUpMs: ms(warmSession.warmUpMs),
  warmUp: warmSession.warmUp,
  medianFirstRequestMs: ms(median(segments.map((r) => r.firstMs))),
  bareRequestMs: ms(median(segments.map((r) => r.bareMs))),
  bareSlowestMs: ms(Math.max(...segments.map((r) => r.bareMs))),
  bareProxiedRequestMs: ms(median(segments.map((r) => r.bareProxiedMs))),
  bareProxiedSlowestMs: ms(Math.max(...segments.map((r) => r.bareProxiedMs))),
  firstRequests: segments.map((r) => ({
    segment: r.segment,
    firstMs: ms(r.firstMs),
    secondMs: ms(r.secondMs),
    bareMs: ms(r.bareMs),
    bareProxiedMs: ms(r.bareProxiedMs),
    coldFirstMs: ms(coldBySegment.get(r.segment)?.firstMs ?? null),
  })),
  busiestSegment: {
    segment: busiest.segment,
    firstRequestMs: ms(busiest.firstMs),
    secondRequestMs: ms(busiest.secondMs),
    bareMs: ms(busiest.bareMs),
  },
  coldBusiestSegment: { segment: coldBusiest.segment, firstRequestMs: ms(coldBusiest.firstMs), secondRequestMs: ms(coldBusiest.secondMs) },
  load: { loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() },
};
console.log(JSON.stringify(result, null, 2));
printSummary({
  bench: "startup",
  startupCpuMs: result.startupCpuMs,
  startupSpanMs: result.startupSpanMs,
  startupSampledMs: result.startupSampledMs,
  firstRequestMs: result.busiestSegment.firstRequestMs,
  busiestSegment: busiest.segment,
  medianFirstRequestMs: result.medianFirstRequestMs,
  bareRequestMs: result.bareRequestMs,
  bareSlowestMs: result.bareSlowestMs,
  bareProxiedRequestMs: result.bareProxiedRequestMs,
  bareProxiedSlowestMs: result.bareProxiedSlowestMs,
  coldFirstRequestMs: result.coldBusiestSegment.firstRequestMs,
  coldBusiestSegment: coldBusiest.segment,
  warmUpMs: result.warmUpMs,
  bundleGzipBytes,
  modules: modules.size,
  startupModules: startup.size,
  startupModuleBytes,
});
