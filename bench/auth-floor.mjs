#!/usr/bin/env node
// The floor under bench:auth: in one run, side by side, the bare worker, Ponte's GET /api/v1/health
// (no key, no D1: the runtime and the framework alone) and the authenticated read. If /health itself
// reaches only x % of the bare worker's throughput here, no authenticated read (a key check and a D1
// query) can reach more than that in the same runtime.
//   npm run bench:auth-floor      (REQUESTS=300 CONCURRENCY=16 SECONDS=6 to change the load)
import { seededState, compareAll, loadAverage, loadOptions, measureLatency, printSummary, startWrangler, summary } from "./lib/harness.mjs";

const bounds = loadOptions({ requests: 300, concurrency: 16, seconds: 6 });
const loadBefore = loadAverage();
const { state, demo } = await seededState("ponte-bench-auth-floor");

const ponte = await startWrangler(["--env", "local", "--persist-to", state], { readyPath: "/api/v1/health" });
const bare = await startWrangler(["-c", "bench/bare/wrangler.toml"]);
try {
  const headers = { Authorization: `Bearer ${demo.apiKey}` };
  const targets = {
    bare: () => fetch(`${bare.base}/api/v1/organizations/current`, { headers }),
    health: () => fetch(`${ponte.base}/api/v1/health`),
    authenticatedRead: () => fetch(`${ponte.base}/api/v1/organizations/current`, { headers }),
  };
  for (const request of Object.values(targets)) await measureLatency(request, 200);
  const r = await compareAll(targets, bounds);
  const ratio = (name) => +(r[name].rps / r.bare.rps).toFixed(3);
  const result = Object.fromEntries(Object.entries(r).map(([name, m]) => [name, { ...summary(m), ratioToBare: ratio(name) }]));
  console.log(JSON.stringify({ ...result, load: { ...bounds, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() } }, null, 2));
  printSummary({ bench: "auth-floor", healthRatio: ratio("health"), authenticatedReadRatio: ratio("authenticatedRead") });
} finally {
  await Promise.all([ponte.stop(), bare.stop()]);
}
