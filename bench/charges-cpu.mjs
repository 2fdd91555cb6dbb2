#!/usr/bin/env node
// The PIX create's CPU per create, as the machine counts it: Ponte (with its simulator) and the bare safe create
// (bench/baselines/safe-create, with its own), each `wrangler dev` in its own process group, and the CPU every
// workerd thread of each group used (bench/lib/process-cpu.mjs) over blocks of sequential creates, the sides
// alternating block by block, each block followed by the same pause so the work a create leaves for after its
// response is counted on its side. The group holds the worker, its local D1 and the simulator: everything a create
// costs. On a shared machine this moves far less with other load than throughput; on a quiet one the throughput
// ratio at saturation tends to `cpuRatio` (bare CPU / Ponte CPU).
//   npm run bench:charges-cpu   (BLOCK=60 ROUNDS=8 to change; Linux only; AGAINST=/path/to/another/checkout adds
//                                  that checkout's Ponte, on its own state seeded by its own seed script, to the rounds)
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DEMO } from "../scripts/lib/local.mjs";
import { envNumber, fmt, loadAverage, printSummary, seededStateWithBaseline, startWrangler } from "./lib/harness.mjs";
import { cpuPerRequest, groupOf } from "./lib/process-cpu.mjs";

const BLOCK = envNumber("BLOCK", 60);
const ROUNDS = envNumber("ROUNDS", 8);
const AGAINST = process.env.AGAINST;
const PAUSE_MS = 200;

const loadBefore = loadAverage();
const {
  dir: tmp,
  state,
  bareState,
  demo,
} = await seededStateWithBaseline("ponte-bench-charges-cpu", "bench/baselines/safe-create/wrangler.toml");
const ponteArgs = (config, persist) => ["-c", config, "-c", "sim/wrangler.toml", "--env", "local", "--persist-to", persist];
let against;
let againstKey;
if (AGAINST) {
  // Its own state, seeded by its own seed script (its own migrations: a schema change is part of what is compared).
  const own = join(tmp, "against");
  mkdirSync(own);
  process.env.PONTE_PERSIST_DIR = own;
  againstKey = (await (await import(join(AGAINST, "scripts/seed.mjs"))).seed()).apiKey;
  process.env.PONTE_PERSIST_DIR = state;
  against = await startWrangler(ponteArgs(join(AGAINST, "wrangler.toml"), own), { readyPath: "/api/v1/health" });
}
const ponte = await startWrangler(ponteArgs("wrangler.toml", state), { readyPath: "/api/v1/health" });
const bare = await startWrangler(
  ["-c", "bench/baselines/safe-create/wrangler.toml", "-c", "sim/wrangler.toml", "--persist-to", bareState],
  { vars: [`BENCH_KEY:${demo.apiKey}`, `UPSTREAM_KEY:${DEMO.upstreamApiKey}`] },
);
try {
  const authOf = (apiKey) => ({ Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" });
  const auth = authOf(demo.apiKey);
  const dueDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  /** A Ponte session's create, billing a customer created through that session. */
  const ponteCreate = async (base, headers = auth) => {
    const res = await fetch(`${base}/api/v1/customers`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Bench Cliente", cpfCnpj: "52998224725" }),
    });
    const customer = await res.json();
    if (!res.ok) throw new Error(`customer create: ${res.status} ${JSON.stringify(customer)}`);
    const body = JSON.stringify({ customer: customer.data.id, billingType: "PIX", value: "129.90", dueDate });
    return () => fetch(`${base}/api/v1/payments`, { method: "POST", headers: { ...headers, "Idempotency-Key": randomUUID() }, body });
  };
  const bareBody = JSON.stringify({ customer: "cus_bench", billingType: "PIX", value: "129.90", dueDate });
  const sides = {
    ponte: { pgid: groupOf(ponte.base), request: await ponteCreate(ponte.base) },
    bareSafeCreate: {
      pgid: groupOf(bare.base),
      request: () => fetch(`${bare.base}/api/v1/payments`, { method: "POST", headers: auth, body: bareBody }),
    },
  };
  if (against) sides.against = { pgid: groupOf(against.base), request: await ponteCreate(against.base, authOf(againstKey)) };
  const measured = await cpuPerRequest(sides, { warm: 40, block: BLOCK, rounds: ROUNDS, pauseMs: PAUSE_MS });
  const result = Object.fromEntries(
    Object.entries(measured).map(([name, m]) => [name, { cpuMicrosPerCreate: m.micros, spread: m.spread }]),
  );
  console.log(
    JSON.stringify({ block: BLOCK, rounds: ROUNDS, ...result, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() }, null, 2),
  );
  printSummary({
    bench: "charges-cpu",
    ponteCpuMicros: result.ponte.cpuMicrosPerCreate,
    bareCpuMicros: result.bareSafeCreate.cpuMicrosPerCreate,
    cpuRatio: +fmt(result.bareSafeCreate.cpuMicrosPerCreate / result.ponte.cpuMicrosPerCreate, 3),
    ...(against
      ? {
          against: AGAINST,
          againstCpuMicros: result.against.cpuMicrosPerCreate,
          againstCpuRatio: +fmt(result.bareSafeCreate.cpuMicrosPerCreate / result.against.cpuMicrosPerCreate, 3),
        }
      : {}),
  });
} finally {
  await Promise.all([ponte.stop(), bare.stop(), against?.stop()]);
}
