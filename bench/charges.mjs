#!/usr/bin/env node
// Native payment creation (PIX) through Ponte — auth, idempotency, D1 writes and the upstream call to the
// simulator — vs a bare safe create doing the same I/O (bench/baselines/safe-create: INSERT the pending
// row, create the charge at the simulator, one batch linking the upstream id and writing the event), each
// in one dev session with its own simulator, in one run. Ponte's creates carry a fresh Idempotency-Key
// (`throughputRatio`, the bar's figure: a careful client's create, which also claims the key and stores its
// answer, work the baseline does not do) and, alternating with them, none (`throughputRatioWithoutIdempotencyKey`:
// the baseline's own I/O). Prints p50/p99, throughput, their ratio, and the D1 round trips of a create (X-D1-Queries, counted only because this
// run sets D1_QUERY_COUNTING=1). The simulator's webhooks are not connected: a real upstream sends
// them later, while the simulator's "sync" delivery would put one inside every create.
//   npm run bench:charges             (REQUESTS=150 CONCURRENCY=8 SECONDS=5 to change the load)
//   PROFILE=dir npm run bench:charges (also: a V8 CPU profile of Ponte's isolate under the create load,
//                                      written to dir/charges.cpuprofile, its top functions printed)
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO, ROOT } from "../scripts/lib/local.mjs";
import { idleNodeIds, notPonteWarning, profileWhile } from "./lib/inspector.mjs";
import {
  compareAll,
  fmt,
  loadAverage,
  loadOptions,
  measureLatency,
  measureThroughput,
  printSummary,
  seededStateWithBaseline,
  startWrangler,
  summary,
} from "./lib/harness.mjs";

const load = loadOptions({ requests: 150, concurrency: 8, seconds: 5 });
const WARMUP = 30;

const loadBefore = loadAverage();
const { state, bareState, demo } = await seededStateWithBaseline("ponte-bench-payments", "bench/baselines/safe-create/wrangler.toml");

const ponte = await startWrangler(["-c", "wrangler.toml", "-c", "sim/wrangler.toml", "--env", "local", "--persist-to", state], {
  readyPath: "/api/v1/health",
  vars: ["D1_QUERY_COUNTING:1"],
});
const bare = await startWrangler(
  ["-c", "bench/baselines/safe-create/wrangler.toml", "-c", "sim/wrangler.toml", "--persist-to", bareState],
  { vars: [`BENCH_KEY:${demo.apiKey}`, `UPSTREAM_KEY:${DEMO.upstreamApiKey}`] },
);
try {
  const auth = { Authorization: `Bearer ${demo.apiKey}`, "Content-Type": "application/json" };
  const post = async (base, path, body, headers = auth) => fetch(base + path, { method: "POST", headers, body: JSON.stringify(body) });

  // The customer every payment bills; creating it also proves the simulator answers through the API.
  const created = await post(ponte.base, "/api/v1/customers", { name: "Bench Cliente", cpfCnpj: "52998224725" });
  const customer = await created.json();
  if (!created.ok) throw new Error(`customer create: ${created.status} ${JSON.stringify(customer)}`);
  const dueDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const payment = { customer: customer.data.id, billingType: "PIX", value: "129.90", dueDate };

  // Each create carries a fresh Idempotency-Key, as a careful client sends it.
  const viaPonte = () => post(ponte.base, "/api/v1/payments", payment, { ...auth, "Idempotency-Key": randomUUID() });
  // And without one: the same I/O as the bare safe create (the pending row, the upstream call, the link batch).
  const viaPonteWithoutKey = () => post(ponte.base, "/api/v1/payments", payment);
  const viaBare = () => post(bare.base, "/api/v1/payments", payment);

  const first = await viaPonte();
  const firstBody = await first.json();
  if (!first.ok || !firstBody.data?.id) throw new Error(`payment create: ${first.status} ${JSON.stringify(firstBody)}`);

  await measureLatency(viaPonte, WARMUP);
  await measureLatency(viaPonteWithoutKey, WARMUP);
  await measureLatency(viaBare, WARMUP);
  // Probed warm (last_used_at was refreshed at most a minute ago, so that write is not in the count).
  const probe = async (headers) => {
    const res = await post(ponte.base, "/api/v1/payments", payment, { ...headers, "X-D1-Query-Count": "1" });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`probe create: ${res.status}`);
    return Number(res.headers.get("X-D1-Queries"));
  };
  // The fewest of three: a gateway-account cache miss (every 5 s per isolate) adds one SELECT to some creates.
  const fewest = async (headers) => Math.min(await probe(headers()), await probe(headers()), await probe(headers()));
  const withKey = await fewest(() => ({ ...auth, "Idempotency-Key": randomUUID() }));
  const withoutKey = await fewest(() => auth);

  const { a, b, c } = await compareAll({ a: viaPonte, b: viaBare, c: viaPonteWithoutKey }, load);
  const result = {
    request: "POST /api/v1/payments {billingType: PIX} with a fresh Idempotency-Key, warm isolate, simulator as upstream",
    firstPayment: { status: firstBody.data.status, upstreamSynced: firstBody.data.syncStatus ?? "n/a" },
    // X-D1-Queries counts the statements started before the response. The gateway API log row is
    // written later, batched with other calls' rows (src/gateway/call-log.ts), so it is not counted.
    d1RoundTripsPerCreate: {
      onRequestPath: withKey,
      afterTheResponse: [
        "the payment.created fan-out: 3 round trips (src/events/fan-out.ts: the event, the endpoints, one write batch)",
        "not D1: the gateway-api-log row, batched per isolate, to the organization's log store (OrgLogDO, src/gateway/call-log.ts)",
      ],
      withoutIdempotencyKey: { onRequestPath: withoutKey },
      // From the code: src/access/authenticate.ts, src/http/idempotency.ts, src/modules/payments/service.ts + lifecycle.ts.
      onRequestPathStatements: [
        "batch 1: idempotency claim (one upsert) [key only] + INSERT payment (pending, only if the customer can be billed and the key holds no record; RETURNING the customer's upstream id); statements built once per isolate",
        "upstream: POST /v3/payments",
        "batch 2: link upstream id and the upstream's fields (UPDATE … RETURNING the record) + payment.created event + its rollups + the key's answer [key only], statements built once per isolate",
        "only when batch 1 wrote nothing (a retried key, a customer that cannot be billed): one more batch reading why (the payment holding the key, the customer)",
      ],
      notCounted: [
        "API key lookup: served from memory on a warm isolate (src/access/key-cache.ts); one SELECT when cold",
        "gateway account: cached 5 s per isolate (LIMITS.gatewayCredentialCacheMs); a miss adds one SELECT on the request path",
        "api_keys.last_used_at: waitUntil, at most once a minute per key",
      ],
    },
    ponte: summary(a),
    bareSafeCreate: summary(b),
    ponteWithoutIdempotencyKey: summary(c),
    throughputRatio: +fmt(a.rps / b.rps, 3),
    throughputRatioWithoutIdempotencyKey: +fmt(c.rps / b.rps, 3),
    p50Ratio: +fmt(a.latencies[Math.floor(a.latencies.length / 2)] / b.latencies[Math.floor(b.latencies.length / 2)], 2),
    load: { ...load, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() },
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(`\nPonte create: p50 ${result.ponte.p50Ms} ms, p99 ${result.ponte.p99Ms} ms, ${result.ponte.rps} req/s`);
  console.log(
    `bare create:  p50 ${result.bareSafeCreate.p50Ms} ms, p99 ${result.bareSafeCreate.p99Ms} ms, ${result.bareSafeCreate.rps} req/s`,
  );
  console.log(
    [
      `throughput ratio ${fmt(result.throughputRatio * 100, 1)}% of the bare safe create`,
      `(${fmt(result.throughputRatioWithoutIdempotencyKey * 100, 1)}% without Idempotency-Key);`,
      `D1 round trips per create on the request path: ${withKey} (${withoutKey} without Idempotency-Key), plus the batched gateway-log row`,
    ].join(" "),
  );
  if (process.env.PROFILE) await profileCreates(ponte.inspectorPort, viaPonte, process.env.PROFILE);
  printSummary({
    bench: "charges",
    throughputRatio: result.throughputRatio,
    throughputRatioWithoutIdempotencyKey: result.throughputRatioWithoutIdempotencyKey,
    d1RoundTrips: withoutKey,
    d1RoundTripsWithIdempotencyKey: withKey,
  });
} finally {
  await Promise.all([ponte.stop(), bare.stop()]);
}

/**
 * Ponte's isolate under the create load alone (CONCURRENCY, SECONDS): the profile goes to
 * dir/charges.cpuprofile; prints the isolate's busy (non-idle) time per create and the top functions.
 */
async function profileCreates(inspectorPort, create, dir) {
  const { profile, result: rps } = await profileWhile(inspectorPort, () =>
    measureThroughput(create, { concurrency: load.concurrency, durationMs: load.seconds * 1000 }),
  );
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "charges.cpuprofile");
  writeFileSync(file, JSON.stringify(profile));
  const warning = notPonteWarning(profile, file);
  if (warning) console.error(warning);
  const idle = idleNodeIds(profile);
  const busyUs = profile.samples.reduce((sum, id, i) => sum + (idle.has(id) ? 0 : (profile.timeDeltas[i] ?? 0)), 0);
  console.log(
    `\nprofile: ${rps.toFixed(1)} creates/s; Ponte's isolate busy ${(busyUs / 1000 / (rps * load.seconds)).toFixed(2)} ms per create`,
  );
  console.log(execFileSync(process.execPath, [join(ROOT, "bench/profile-top.mjs"), file, "25"], { encoding: "utf8" }));
}
