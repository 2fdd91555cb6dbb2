#!/usr/bin/env node
// Where a PIX create's wall time goes, Ponte vs the bare safe create, step by step (issue 29): Ponte started with
// SERVER_TIMING=on (its stages: `chain` the request up to the handler, `pending-batch` the first D1 batch,
// `prepare`/`upstream`/`read`/`log` the simulator's charge, `link-build` and `link-batch` the second batch,
// `after` the answer), the bare safe create wrapped so that each of its I/O steps is timed
// (bench/lib/timed-safe-create: `insert`, `upstream`, `batch`, `own`). Each side first sequentially (one request
// at a time, alternating), then under the bench's concurrency (alternating one-second slices): per stage, the mean.
//   npm run bench:charges-split   (REQUESTS=200 CONCURRENCY=8 SECONDS=6 to change)
import { randomUUID } from "node:crypto";
import { DEMO } from "../scripts/lib/local.mjs";
import { fmt, loadAverage, loadOptions, printSummary, seededStateWithBaseline, startWrangler } from "./lib/harness.mjs";

const load = loadOptions({ requests: 200, concurrency: 8, seconds: 6 });
const bareConfig = "bench/lib/timed-safe-create/wrangler.toml";
const loadBefore = loadAverage();
const { state, bareState, demo } = await seededStateWithBaseline("ponte-bench-charges-split", bareConfig);
const ponte = await startWrangler(["-c", "wrangler.toml", "-c", "sim/wrangler.toml", "--env", "local", "--persist-to", state], {
  readyPath: "/api/v1/health",
  vars: ["SERVER_TIMING:on"],
});
const bare = await startWrangler(["-c", bareConfig, "-c", "sim/wrangler.toml", "--persist-to", bareState], {
  vars: [`BENCH_KEY:${demo.apiKey}`, `UPSTREAM_KEY:${DEMO.upstreamApiKey}`],
});
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
try {
  const auth = { Authorization: `Bearer ${demo.apiKey}`, "Content-Type": "application/json" };
  const post = (base, path, body, headers = auth) => fetch(base + path, { method: "POST", headers, body: JSON.stringify(body) });
  const created = await post(ponte.base, "/api/v1/customers", { name: "Bench Cliente", cpfCnpj: "52998224725" });
  const customer = await created.json();
  if (!created.ok) throw new Error(`customer create: ${created.status} ${JSON.stringify(customer)}`);
  const dueDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const payment = { customer: customer.data.id, billingType: "PIX", value: "129.90", dueDate };
  const sides = {
    ponte: () => post(ponte.base, "/api/v1/payments", payment, { ...auth, "Idempotency-Key": randomUUID() }),
    bare: () => post(bare.base, "/api/v1/payments", payment),
  };
  const record = (into) => async (send) => {
    const t0 = performance.now();
    const res = await send();
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`create: ${res.status}`);
    into.client.push(performance.now() - t0);
    for (const part of (res.headers.get("server-timing") ?? "").split(",")) {
      const [stage, dur] = part.trim().split(";dur=");
      if (!stage || dur === undefined) continue;
      into.stages[stage] ??= [];
      into.stages[stage].push(Number(dur));
    }
  };
  const fresh = () => Object.fromEntries(Object.keys(sides).map((n) => [n, { client: [], stages: {} }]));
  const sequential = fresh();
  for (let i = 0; i < 30; i++) for (const send of Object.values(sides)) await (await send()).arrayBuffer(); // warm-up
  for (let i = 0; i < load.requests; i++) for (const [n, send] of Object.entries(sides)) await record(sequential[n])(send);
  const concurrent = fresh();
  const counts = { ponte: 0, bare: 0 };
  for (let s = 0; s < load.seconds; s++) {
    for (const [n, send] of Object.entries(sides)) {
      const end = performance.now() + 1000;
      await Promise.all(
        Array.from({ length: load.concurrency }, async () => {
          while (performance.now() < end) {
            await record(concurrent[n])(send);
            counts[n]++;
          }
        }),
      );
    }
  }
  const report = (phase) =>
    Object.fromEntries(
      Object.entries(phase).map(([n, { client, stages }]) => [
        n,
        {
          clientMeanMs: +fmt(mean(client), 3),
          ...Object.fromEntries(Object.entries(stages).map(([stage, xs]) => [stage, +fmt(mean(xs), 3)])),
        },
      ]),
    );
  const result = {
    sequentialMeanMs: report(sequential),
    concurrentMeanMs: { concurrency: load.concurrency, ...report(concurrent) },
    concurrentCreatesPerSecond: { ponte: +fmt(counts.ponte / load.seconds, 1), bare: +fmt(counts.bare / load.seconds, 1) },
    load: { ...load, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() },
  };
  console.log(JSON.stringify(result, null, 2));
  printSummary({
    bench: "charges-split",
    sequentialPonteMs: result.sequentialMeanMs.ponte.clientMeanMs,
    sequentialBareMs: result.sequentialMeanMs.bare.clientMeanMs,
    concurrentRatio: +fmt(counts.ponte / counts.bare, 3),
  });
} finally {
  await Promise.all([ponte.stop(), bare.stop()]);
}
