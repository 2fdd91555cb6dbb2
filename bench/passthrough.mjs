#!/usr/bin/env node
// Passthrough overhead: the same upstream GET through Ponte (auth, gateway account, forward, log) and
// through a bare forwarder doing the same I/O (bench/baselines/forwarder: check a header, call the
// simulator over a service binding, wrap the JSON), each in one dev session with its own simulator,
// in one run; the simulator called directly is shown too. Local only (127.0.0.1), bounded.
//   npm run bench:passthrough        (REQUESTS=400 CONCURRENCY=16 SECONDS=6 to change the load)
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO, ROOT } from "../scripts/lib/local.mjs";
import {
  compareAll,
  fmt,
  loadAverage,
  loadOptions,
  measureLatency,
  startWrangler,
  summary,
  seededState,
  printSummary,
} from "./lib/harness.mjs";

const bounds = loadOptions({ requests: 400, concurrency: 16, seconds: 6 });
const WARMUP = 100;

const loadBefore = loadAverage();
const { state, demo } = await seededState("ponte-bench-passthrough");

// One dev session runs Ponte and the simulator together (UPSTREAM stays in-process); a second
// simulator on its own port, under another name, is the baseline: the same worker, called directly.
const ponte = await startWrangler(["-c", "wrangler.toml", "-c", "sim/wrangler.toml", "--env", "local", "--persist-to", state], {
  readyPath: "/api/v1/health",
});
const forwarder = await startWrangler(["-c", "bench/baselines/forwarder/wrangler.toml", "-c", "sim/wrangler.toml"], {
  vars: [`BENCH_KEY:${demo.apiKey}`, `UPSTREAM_KEY:${DEMO.upstreamApiKey}`],
});
const sim = await startWrangler(["-c", "sim/wrangler.toml", "--env", "local", "--name", "ponte-upstream-sim-direct"], {
  readyPath: "/__sim/health",
});
try {
  const get =
    (base, path, headers = {}) =>
    () =>
      fetch(base + path, { headers });
  const bearer = { Authorization: `Bearer ${demo.apiKey}` };
  const targets = {
    viaPonte: get(ponte.base, "/api/v1/finance/balance", bearer),
    bareForwarder: get(forwarder.base, "/api/v1/finance/balance", bearer),
    direct: get(sim.base, "/v3/finance/balance", { access_token: DEMO.upstreamApiKey, "User-Agent": "bench" }),
    // Ponte answering without auth, D1 or the upstream: what the dev session and the framework cost alone.
    ponteHealth: get(ponte.base, "/api/v1/health"),
    // Authentication, rate limit and one D1 read, but no upstream call and no log write.
    ponteAuthedRead: get(ponte.base, `/api/v1/gateway-accounts/${DEMO.gatewayAccountId}`, bearer),
  };
  for (const request of Object.values(targets)) await measureLatency(request, WARMUP);

  const r = await compareAll(targets, { ...bounds, throughputOf: ["viaPonte", "bareForwarder"] });
  const result = Object.fromEntries(Object.entries(r).map(([name, m]) => [name, summary(m)]));
  const row = (label, { p50Ms, p99Ms, rps }) =>
    `${label.padEnd(18)}${fmt(p50Ms).padStart(9)} ${fmt(p99Ms).padStart(8)} ${rps === undefined ? "" : String(rps).padStart(9)}`;
  console.log(`\n                     p50 ms   p99 ms   req/s (c=${bounds.concurrency})`);
  console.log(row("through Ponte", result.viaPonte));
  console.log(row("bare forwarder", result.bareForwarder));
  console.log(row("direct to sim", result.direct));
  console.log(row("Ponte /health", result.ponteHealth));
  console.log(row("Ponte auth+D1 read", result.ponteAuthedRead));
  console.log(
    `added latency     p50 ${fmt(result.viaPonte.p50Ms - result.bareForwarder.p50Ms)} ms, p99 ${fmt(result.viaPonte.p99Ms - result.bareForwarder.p99Ms)} ms over the bare forwarder`,
  );
  console.log(`throughput ratio  ${fmt((100 * r.viaPonte.rps) / r.bareForwarder.rps, 1)}% of the bare forwarder`);
  const load = { ...bounds, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() };
  console.log(`load              ${JSON.stringify(load)}`);
  printSummary({
    bench: "passthrough",
    throughputRatio: +fmt(r.viaPonte.rps / r.bareForwarder.rps, 3),
    addedP50Ms: +fmt(result.viaPonte.p50Ms - result.bareForwarder.p50Ms),
  });
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(ROOT, "bench/results/passthrough.json"), JSON.stringify({ ...result, load, at: new Date().toISOString() }, null, 2));
} finally {
  await Promise.all([ponte.stop(), forwarder.stop(), sim.stop()]);
}
