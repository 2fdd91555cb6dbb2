#!/usr/bin/env node
// What each kind of request costs the machine in a local session, as bench:charges-cpu counts it (the CPU of every
// workerd thread of the session's process group, bench/lib/process-cpu.mjs): one Ponte session (with its simulator)
// and the bare safe create (bench/baselines/safe-create, with its own), blocks of sequential requests of each kind in
// turn, each followed by the same pause. It separates the local runtime's fixed cost per request (`/health`, which
// does no I/O, and a bare 404) from what a request adds over it: authentication, a D1 read, the body's validation,
// the upstream call, the create with and without an Idempotency-Key.
//   npm run bench:request-cpu   (BLOCK=60 ROUNDS=6 to change; Linux only)
import { randomUUID } from "node:crypto";
import { DEMO } from "../scripts/lib/local.mjs";
import { envNumber, loadAverage, printSummary, seededStateWithBaseline, startWrangler } from "./lib/harness.mjs";
import { cpuPerRequest, groupOf } from "./lib/process-cpu.mjs";

const BLOCK = envNumber("BLOCK", 60);
const ROUNDS = envNumber("ROUNDS", 6);
const PAUSE_MS = 200;
const loadBefore = loadAverage();
const { state, bareState, demo } = await seededStateWithBaseline("ponte-bench-request-cpu", "bench/baselines/safe-create/wrangler.toml");
const ponte = await startWrangler(["-c", "wrangler.toml", "-c", "sim/wrangler.toml", "--env", "local", "--persist-to", state], {
  readyPath: "/api/v1/health",
});
const bare = await startWrangler(
  ["-c", "bench/baselines/safe-create/wrangler.toml", "-c", "sim/wrangler.toml", "--persist-to", bareState],
  { vars: [`BENCH_KEY:${demo.apiKey}`, `UPSTREAM_KEY:${DEMO.upstreamApiKey}`] },
);
/** `count` sequential requests, each answer read to its end (an error status is an answer too: the 401, the 400); cpuPerRequest's `send`. */
const send = async (request, count) => {
  for (let i = 0; i < count; i++) await (await request()).arrayBuffer();
};
try {
  const auth = { Authorization: `Bearer ${demo.apiKey}`, "Content-Type": "application/json" };
  const post = (base, path, body, headers = auth) => fetch(base + path, { method: "POST", headers, body });
  const created = await post(ponte.base, "/api/v1/customers", JSON.stringify({ name: "Bench Cliente", cpfCnpj: "52998224725" }));
  const customer = (await created.json()).data.id;
  const dueDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const pix = JSON.stringify({ customer, billingType: "PIX", value: "129.90", dueDate });
  const invalid = JSON.stringify({ customer, billingType: "PIX", value: "-1", dueDate });
  const kinds = {
    health: [ponte, () => fetch(`${ponte.base}/api/v1/health`)],
    unauthenticated401: [ponte, () => fetch(`${ponte.base}/api/v1/customers`)],
    organizationRead: [ponte, () => fetch(`${ponte.base}/api/v1/organizations/current`, { headers: auth })],
    invalidCreate400: [ponte, () => post(ponte.base, "/api/v1/payments", invalid)],
    passthrough: [ponte, () => fetch(`${ponte.base}/api/v1/finance/balance`, { headers: auth })],
    createWithoutKey: [ponte, () => post(ponte.base, "/api/v1/payments", pix)],
    createWithKey: [ponte, () => post(ponte.base, "/api/v1/payments", pix, { ...auth, "Idempotency-Key": randomUUID() })],
    bareNotFound: [bare, () => fetch(`${bare.base}/nope`)],
    bareSafeCreate: [
      bare,
      () => post(bare.base, "/api/v1/payments", JSON.stringify({ customer: "cus_bench", billingType: "PIX", value: "129.90", dueDate })),
    ],
  };
  const groups = new Map([
    [ponte, groupOf(ponte.base)],
    [bare, groupOf(bare.base)],
  ]);
  const sides = Object.fromEntries(
    Object.entries(kinds).map(([kind, [session, request]]) => [kind, { pgid: groups.get(session), request }]),
  );
  const measured = await cpuPerRequest(sides, { warm: 30, block: BLOCK, rounds: ROUNDS, pauseMs: PAUSE_MS, send, oneSession: true });
  const micros = Object.fromEntries(Object.entries(measured).map(([kind, m]) => [kind, m.micros]));
  console.log(
    JSON.stringify(
      { block: BLOCK, rounds: ROUNDS, cpuMicrosPerRequest: micros, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() },
      null,
      2,
    ),
  );
  printSummary({ bench: "request-cpu", ...micros });
} finally {
  await Promise.all([ponte.stop(), bare.stop()]);
}
