#!/usr/bin/env node
// Worker start-up benchmark (issue 15): bundles the worker as `wrangler deploy` would (dry run, no
// network), reports the bundle's gzip size, and profiles the start-up phase (the module's top level:
// building the app) with `wrangler check startup`, RUNS times. The figure is the profile's span (as
// the issue measured it) and its non-idle CPU time, the median of the runs.
//   npm run bench:startup          (RUNS=5 to change)
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT, toolEnv } from "../scripts/lib/local.mjs";
import { envNumber, importBundled, loadAverage, printSummary, startWrangler } from "./lib/harness.mjs";

const RUNS = envNumber("RUNS", 5);
const dir = mkdtempSync(join(tmpdir(), "ponte-bench-startup-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const wrangler = join(ROOT, "node_modules", ".bin", "wrangler");
const run = (args) => execFileSync(wrangler, args, { cwd: ROOT, env: toolEnv(), stdio: ["ignore", "pipe", "pipe"] });

const loadBefore = loadAverage();
run(["deploy", "--dry-run", "--outdir", join(dir, "bundle")]);
const bundle = readFileSync(join(dir, "bundle", "index.js"));
const bundleGzipBytes = gzipSync(bundle, { level: 9 }).length;

/** Span and non-idle CPU of one start-up profile, in ms. */
function profileOnce(i) {
  const outfile = join(dir, `startup-${i}.cpuprofile`);
  run(["check", "startup", "--outfile", outfile]);
  const profile = JSON.parse(readFileSync(outfile, "utf8"));
  const idle = new Set(profile.nodes.filter((n) => ["(idle)", "(program)"].includes(n.callFrame.functionName)).map((n) => n.id));
  let busy = 0;
  profile.samples.forEach((id, k) => {
    if (!idle.has(id)) busy += profile.timeDeltas[k + 1] ?? 0;
  });
  return { spanMs: (profile.endTime - profile.startTime) / 1000, cpuMs: busy / 1000 };
}

const runs = Array.from({ length: RUNS }, (_, i) => profileOnce(i));

/** Every segment's first and second answer (ms) in a fresh dev session that has answered /health once. */
async function firstRequests() {
  const { SEGMENTS } = await importBundled(join(ROOT, "src/route-groups.ts"), join(dir, "route-groups.mjs"));
  const dev = await startWrangler(["--env", "local"], { readyPath: "/api/v1/health" });
  try {
    const timed = async (path) => {
      const t0 = performance.now();
      const res = await fetch(dev.base + path, { redirect: "manual" });
      await res.arrayBuffer();
      if (res.status >= 500) throw new Error(`${path}: ${res.status}`);
      return performance.now() - t0;
    };
    const rows = [];
    for (const segment of SEGMENTS) {
      const path = segment === "console" ? "/console" : `/api/v1/${segment}`;
      rows.push({ segment, firstMs: await timed(path), secondMs: await timed(path) });
    }
    return rows;
  } finally {
    await dev.stop();
  }
}
const segments = await firstRequests();
const busiest = segments.reduce((a, b) => (b.firstMs > a.firstMs ? b : a));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const result = {
  runs: runs.map((r) => ({ spanMs: +r.spanMs.toFixed(1), cpuMs: +r.cpuMs.toFixed(1) })),
  startupSpanMs: +median(runs.map((r) => r.spanMs)).toFixed(1),
  startupCpuMs: +median(runs.map((r) => r.cpuMs)).toFixed(1),
  bundleBytes: bundle.length,
  bundleGzipBytes,
  firstRequests: segments.map((r) => ({ segment: r.segment, firstMs: +r.firstMs.toFixed(1), secondMs: +r.secondMs.toFixed(1) })),
  busiestSegment: { segment: busiest.segment, firstRequestMs: +busiest.firstMs.toFixed(1), secondRequestMs: +busiest.secondMs.toFixed(1) },
  load: { loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() },
};
console.log(JSON.stringify(result, null, 2));
printSummary({
  bench: "startup",
  startupCpuMs: result.startupCpuMs,
  startupSpanMs: result.startupSpanMs,
  firstRequestMs: result.busiestSegment.firstRequestMs,
  busiestSegment: busiest.segment,
  bundleGzipBytes,
});
