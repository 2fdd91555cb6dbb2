#!/usr/bin/env node
// The passthrough's CPU per request, as the machine counts it: the same sessions as bench:passthrough
// (Ponte with its simulator; the bare forwarder with its own), each `wrangler dev` in its own process
// group, and the CPU time every thread of each group used (/proc/<pid>/task/<tid>/schedstat, in ns)
// over blocks of sequential requests, the two sides alternating block by block, each block followed by
// the same pause so the work a request leaves for after its response (the call log's flush, the rate
// limiter) is counted on its side. Unlike throughput and latency, CPU time barely moves with what else
// the machine runs, so this is the figure to compare two commits by on a shared machine.
//   node bench/passthrough-cpu.mjs     (BLOCK=200 ROUNDS=10 to change; Linux only; AGAINST=/path/to/another/checkout
//                                      adds that checkout's Ponte, on a copy of the same seeded state, to the rounds;
//                                      AGAINST=/a,/b adds several, each on its own copy)
import { DEMO } from "../scripts/lib/local.mjs";
import { envNumber, fmt, loadAverage, printSummary, seededState, startPontesAgainst, startWrangler } from "./lib/harness.mjs";
import { cpuPerRequest, groupOf } from "./lib/process-cpu.mjs";

const BLOCK = envNumber("BLOCK", 200);
const AGAINST = process.env.AGAINST;
const ROUNDS = envNumber("ROUNDS", 10);
const PAUSE_MS = 150;

const loadBefore = loadAverage();
const { state, demo } = await seededState("ponte-bench-passthrough-cpu");
const ponte = await startWrangler(["-c", "wrangler.toml", "-c", "sim/wrangler.toml", "--env", "local", "--persist-to", state], {
  readyPath: "/api/v1/health",
});
const against = await startPontesAgainst(AGAINST, state);
const forwarder = await startWrangler(["-c", "bench/baselines/forwarder/wrangler.toml", "-c", "sim/wrangler.toml"], {
  vars: [`BENCH_KEY:${demo.apiKey}`, `UPSTREAM_KEY:${DEMO.upstreamApiKey}`],
});

try {
  const bearer = { Authorization: `Bearer ${demo.apiKey}` };
  const sides = {
    viaPonte: { pgid: groupOf(ponte.base), request: () => fetch(`${ponte.base}/api/v1/finance/balance`, { headers: bearer }) },
    bareForwarder: { pgid: groupOf(forwarder.base), request: () => fetch(`${forwarder.base}/api/v1/finance/balance`, { headers: bearer }) },
  };
  for (const a of against) {
    sides[a.name] = { pgid: groupOf(a.base), request: () => fetch(`${a.base}/api/v1/finance/balance`, { headers: bearer }) };
  }
  const measured = await cpuPerRequest(sides, { warm: 300, block: BLOCK, rounds: ROUNDS, pauseMs: PAUSE_MS });
  const result = Object.fromEntries(
    Object.entries(measured).map(([name, m]) => [name, { cpuMicrosPerRequest: m.micros, spread: m.spread }]),
  );
  console.log(
    JSON.stringify({ block: BLOCK, rounds: ROUNDS, ...result, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() }, null, 2),
  );
  printSummary({
    bench: "passthrough-cpu",
    ponteCpuMicros: result.viaPonte.cpuMicrosPerRequest,
    forwarderCpuMicros: result.bareForwarder.cpuMicrosPerRequest,
    addedCpuMicros: result.viaPonte.cpuMicrosPerRequest - result.bareForwarder.cpuMicrosPerRequest,
    cpuRatio: +fmt(result.bareForwarder.cpuMicrosPerRequest / result.viaPonte.cpuMicrosPerRequest, 3),
    ...(against.length === 1
      ? { against: AGAINST, againstAddedCpuMicros: result.viaAgainst.cpuMicrosPerRequest - result.bareForwarder.cpuMicrosPerRequest }
      : {}),
    ...(against.length > 1
      ? {
          against: against.map((a) => ({
            checkout: a.checkout,
            addedCpuMicros: result[a.name].cpuMicrosPerRequest - result.bareForwarder.cpuMicrosPerRequest,
          })),
        }
      : {}),
  });
} finally {
  await Promise.all([ponte.stop(), forwarder.stop(), ...against.map((a) => a.stop())]);
}
