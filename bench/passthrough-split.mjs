#!/usr/bin/env node
// Where a passthrough's time goes (issue 29): Ponte started with SERVER_TIMING=on (src/http/server-timing.ts),
// the bare forwarder and the simulator direct, each called sequentially in turn; prints the medians of the
// outside latency and of Ponte's stages, and what each side sends on the wire (status line, headers, body bytes).
//   npm run bench:passthrough-split     (REQUESTS=300 to change; AGAINST=/path/to/another/checkout adds that checkout's
//                                      Ponte, built there first with `npm run build:worker`, on a copy of the same seeded
//                                      state, to the same alternation: its latency and stages beside this one's;
//                                      AGAINST=/a,/b adds several, each on its own copy, e.g. to bisect a change)
import { DEMO } from "../scripts/lib/local.mjs";
import { envNumber, fmt, loadAverage, printSummary, seededState, startPontesAgainst, startWrangler } from "./lib/harness.mjs";

const REQUESTS = envNumber("REQUESTS", 300);
const AGAINST = process.env.AGAINST;
const loadBefore = loadAverage();
const { state, demo } = await seededState("ponte-bench-passthrough-split");
const ponte = await startWrangler(["-c", "wrangler.toml", "-c", "sim/wrangler.toml", "--env", "local", "--persist-to", state], {
  readyPath: "/api/v1/health",
  vars: ["SERVER_TIMING:on"],
});
const against = await startPontesAgainst(AGAINST, state, { vars: ["SERVER_TIMING:on"] });
const forwarder = await startWrangler(["-c", "bench/baselines/forwarder/wrangler.toml", "-c", "sim/wrangler.toml"], {
  vars: [`BENCH_KEY:${demo.apiKey}`, `UPSTREAM_KEY:${DEMO.upstreamApiKey}`],
});
const sim = await startWrangler(["-c", "sim/wrangler.toml", "--env", "local", "--name", "ponte-upstream-sim-direct"], {
  readyPath: "/__sim/health",
});
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
// workerd's local clock ticks in whole milliseconds: a stage's median is 0 or 1, its mean over many requests is the estimate.
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
try {
  const bearer = { Authorization: `Bearer ${demo.apiKey}` };
  const sides = {
    viaPonte: () => fetch(`${ponte.base}/api/v1/finance/balance`, { headers: bearer }),
    ...Object.fromEntries(against.map((a) => [a.name, () => fetch(`${a.base}/api/v1/finance/balance`, { headers: bearer })])),
    bareForwarder: () => fetch(`${forwarder.base}/api/v1/finance/balance`, { headers: bearer }),
    direct: () => fetch(`${sim.base}/v3/finance/balance`, { headers: { access_token: DEMO.upstreamApiKey, "User-Agent": "bench" } }),
  };
  const wire = {};
  for (const [name, send] of Object.entries(sides)) {
    const res = await send();
    const body = await res.text();
    const headers = [...res.headers].filter(([k]) => k !== "server-timing");
    wire[name] = {
      status: res.status,
      headerBytes: headers.reduce((n, [k, v]) => n + k.length + v.length + 4, 0),
      bodyBytes: Buffer.byteLength(body),
      headers: Object.fromEntries(headers),
    };
  }
  const latency = Object.fromEntries(Object.keys(sides).map((n) => [n, []]));
  const stages = { viaPonte: {}, ...Object.fromEntries(against.map((a) => [a.name, {}])) };
  for (let i = 0; i < REQUESTS + 50; i++) {
    for (const [name, send] of Object.entries(sides)) {
      const t0 = performance.now();
      const res = await send();
      await res.arrayBuffer();
      const ms = performance.now() - t0;
      if (i < 50) continue; // warm-up
      latency[name].push(ms);
      const timed = stages[name];
      if (!timed) continue;
      for (const part of (res.headers.get("server-timing") ?? "").split(",")) {
        const [stage, dur] = part.trim().split(";dur=");
        if (!stage || dur === undefined) continue;
        timed[stage] ??= [];
        timed[stage].push(Number(dur));
      }
    }
  }
  const p50 = Object.fromEntries(Object.entries(latency).map(([n, xs]) => [n, +fmt(median(xs), 3)]));
  const meanMs = Object.fromEntries(Object.entries(latency).map(([n, xs]) => [n, +fmt(mean(xs), 3)]));
  const meansOf = (timed) => Object.fromEntries(Object.entries(timed).map(([n, xs]) => [n, +fmt(mean(xs), 3)]));
  const stageMean = meansOf(stages.viaPonte);
  const againstStageMeans = against.map((a) => meansOf(stages[a.name]));
  console.log(JSON.stringify({ wire }, null, 2));
  console.log(JSON.stringify({ p50Ms: p50, meanMs, ponteStagesMeanMs: stageMean, againstStagesMeanMs: againstStageMeans }, null, 2));
  printSummary({
    bench: "passthrough-split",
    addedP50Ms: +fmt(p50.viaPonte - p50.bareForwarder, 3),
    addedMeanMs: +fmt(meanMs.viaPonte - meanMs.bareForwarder, 3),
    ponteWorkerMeanMs: stageMean.worker,
    ponteOwnStagesMeanMs: +fmt((stageMean.worker ?? 0) - (stageMean.upstream ?? 0), 3),
    upstreamCallMeanMs: stageMean.upstream,
    ...(against.length === 1
      ? {
          against: AGAINST,
          againstAddedP50Ms: +fmt(p50.viaAgainst - p50.bareForwarder, 3),
          againstAddedMeanMs: +fmt(meanMs.viaAgainst - meanMs.bareForwarder, 3),
          againstOwnStagesMeanMs: +fmt((againstStageMeans[0].worker ?? 0) - (againstStageMeans[0].upstream ?? 0), 3),
        }
      : {}),
    ...(against.length > 1
      ? {
          against: against.map((a, i) => ({
            checkout: a.checkout,
            addedP50Ms: +fmt(p50[a.name] - p50.bareForwarder, 3),
            addedMeanMs: +fmt(meanMs[a.name] - meanMs.bareForwarder, 3),
            ownStagesMeanMs: +fmt((againstStageMeans[i].worker ?? 0) - (againstStageMeans[i].upstream ?? 0), 3),
          })),
        }
      : {}),
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadAverage(),
  });
} finally {
  await Promise.all([ponte.stop(), ...against.map((a) => a.stop()), forwarder.stop(), sim.stop()]);
}
