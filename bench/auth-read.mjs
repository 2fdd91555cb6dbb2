#!/usr/bin/env node
// Issue 2 benchmark: an authenticated read through Ponte vs a bare worker answering the same
// request with no logic, in one run. Prints p50/p99 latency, throughput and their ratio, and the
// D1 round trips of the read (X-D1-Queries: this run sets D1_QUERY_COUNTING=1 and one probe request asks
// for the count; the measured requests do not, so they take the normal path).
//   node bench/auth-read.mjs            (REQUESTS=1000 CONCURRENCY=16 SECONDS=8 to change the load)
import { compare, fmt, measureLatency, percentile, startWrangler, seededState, printSummary } from "./lib/harness.mjs";

const REQUESTS = Number(process.env.REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const SECONDS = Number(process.env.SECONDS ?? 8);

const { state, demo } = await seededState("ponte-bench-auth");

const ponte = await startWrangler(["--env", "local", "--persist-to", state], {
  readyPath: "/api/v1/health",
  vars: ["D1_QUERY_COUNTING:1"],
});
const bare = await startWrangler(["-c", "bench/bare/wrangler.toml"]);
try {
  const path = "/api/v1/organizations/current";
  const headers = { Authorization: `Bearer ${demo.apiKey}` };
  const viaPonte = () => fetch(ponte.base + path, { headers });
  const viaBare = () => fetch(bare.base + path, { headers });

  // Warm both isolates (and refresh last_used_at once) before measuring.
  await measureLatency(viaPonte, 200);
  await measureLatency(viaBare, 200);
  // The count includes work started before the response, such as the key cache's background re-read
  // (at most once a second per key); back-to-back probes show the request path alone.
  const probeOnce = async () => {
    const res = await fetch(ponte.base + path, { headers: { ...headers, "X-D1-Query-Count": "1" } });
    await res.arrayBuffer();
    return Number(res.headers.get("X-D1-Queries"));
  };
  const probes = [await probeOnce(), await probeOnce(), await probeOnce()];
  const d1Queries = Math.min(...probes);

  const { a, b } = await compare(viaPonte, viaBare, { requests: REQUESTS, concurrency: CONCURRENCY, seconds: SECONDS });
  const [ponteLat, bareLat, ponteRps, bareRps] = [a.latencies, b.latencies, a.rps, b.rps];

  const result = {
    request: `GET ${path} (bearer key, warm isolate)`,
    d1RoundTripsPerRequest: d1Queries,
    d1RoundTripsForAuth: d1Queries - 1, // warm isolate: the key lookup is served from memory (src/access/key-cache.ts)
    d1RoundTripsProbed: probes, // a probe may include the cache's background re-read (≤ 1 per key per second)
    ponte: { p50Ms: +fmt(percentile(ponteLat, 50)), p99Ms: +fmt(percentile(ponteLat, 99)), rps: +fmt(ponteRps, 0) },
    bare: { p50Ms: +fmt(percentile(bareLat, 50)), p99Ms: +fmt(percentile(bareLat, 99)), rps: +fmt(bareRps, 0) },
    throughputRatio: +fmt(ponteRps / bareRps, 3),
    load: { sequentialRequests: REQUESTS, concurrency: CONCURRENCY, seconds: SECONDS },
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(
    `\nthroughput ratio ${fmt(result.throughputRatio * 100, 1)}% (target ≥ 50%); auth D1 round trips: ${result.d1RoundTripsForAuth} (target ≤ 1)`,
  );
  printSummary({ bench: "auth", throughputRatio: result.throughputRatio, p50Ms: result.ponte.p50Ms });
} finally {
  ponte.stop();
  bare.stop();
}
