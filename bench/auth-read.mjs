#!/usr/bin/env node
// Authenticated read and /health, each against a minimal worker doing the same I/O (bench/baselines/),
// side by side in one run: GET /api/v1/organizations/current (Bearer) vs a bare D1 read (check a fixed
// header, SELECT the organization row by id in the same seeded database), and /api/v1/health vs a bare
// worker. Also reports the read's D1 round trips (X-D1-Queries; this run sets D1_QUERY_COUNTING=1 and
// one probe request asks for the count; the measured requests do not).
//   npm run bench:auth            (REQUESTS=400 CONCURRENCY=16 SECONDS=6 to change the load)
import { DEMO } from "../scripts/lib/local.mjs";
import { compareAll, loadAverage, loadOptions, measureLatency, printSummary, seededState, startWrangler, summary } from "./lib/harness.mjs";

const bounds = loadOptions({ requests: 400, concurrency: 16, seconds: 6 });
const loadBefore = loadAverage();
const { state, demo } = await seededState("ponte-bench-auth");

const ponte = await startWrangler(["--env", "local", "--persist-to", state], {
  readyPath: "/api/v1/health",
  vars: ["D1_QUERY_COUNTING:1"],
});
const d1Read = await startWrangler(["-c", "bench/baselines/d1-read/wrangler.toml", "--persist-to", state], {
  vars: [`BENCH_KEY:${demo.apiKey}`, `ORGANIZATION_ID:${DEMO.organizationId}`],
});
const bare = await startWrangler(["-c", "bench/baselines/bare/wrangler.toml"]);
try {
  const path = "/api/v1/organizations/current";
  const headers = { Authorization: `Bearer ${demo.apiKey}` };
  const targets = {
    ponteRead: () => fetch(ponte.base + path, { headers }),
    bareD1Read: () => fetch(d1Read.base + path, { headers }),
    ponteHealth: () => fetch(`${ponte.base}/api/v1/health`),
    bareWorker: () => fetch(`${bare.base}/api/v1/health`),
  };
  // Warm every isolate (and refresh last_used_at once) before measuring.
  for (const request of Object.values(targets)) await measureLatency(request, 200);
  // The count includes work started before the response, such as the key cache's background re-read
  // (at most once a second per key); back-to-back probes show the request path alone.
  const probeOnce = async () => {
    const res = await fetch(ponte.base + path, { headers: { ...headers, "X-D1-Query-Count": "1" } });
    await res.arrayBuffer();
    return Number(res.headers.get("X-D1-Queries"));
  };
  const probes = [await probeOnce(), await probeOnce(), await probeOnce()];

  const r = await compareAll(targets, bounds);
  const s = Object.fromEntries(Object.entries(r).map(([name, m]) => [name, summary(m)]));
  const result = {
    read: { request: `GET ${path} (bearer key, warm isolate)`, ponte: s.ponteRead, bareD1Read: s.bareD1Read },
    health: { request: "GET /api/v1/health", ponte: s.ponteHealth, bareWorker: s.bareWorker },
    d1RoundTripsPerRead: Math.min(...probes),
    d1RoundTripsProbed: probes,
    load: { ...bounds, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() },
  };
  console.log(JSON.stringify(result, null, 2));
  printSummary({
    bench: "auth",
    throughputRatio: +(r.ponteRead.rps / r.bareD1Read.rps).toFixed(3),
    healthRatio: +(r.ponteHealth.rps / r.bareWorker.rps).toFixed(3),
    addedP50Ms: +(s.ponteRead.p50Ms - s.bareD1Read.p50Ms).toFixed(2),
    d1RoundTrips: result.d1RoundTripsPerRead,
  });
} finally {
  await Promise.all([ponte.stop(), d1Read.stop(), bare.stop()]);
}
