#!/usr/bin/env node
// Webhook delivery benchmark. Starts `wrangler dev --env local` (own temporary state) and local
// receivers on 127.0.0.1, registers N endpoints, writes M event rows straight into D1 as "lost"
// enqueues (created 2 min ago, never enqueued), then fires the cron (`/cdn-cgi/local/scheduled`): the sweeper
// enqueues them, the queue consumer fans out N×M deliveries, EndpointDOs POST them. It reports
// deliveries/second, trigger-to-receipt latency p50/p99, and the signing cost per delivery. Then, one
// at a time, it creates PIX payments through the API (the simulator as upstream) and times each
// payment.created from the create request to its receipt: the normal outbox → queue → delivery path.
// Bounded: M events, N endpoints, a 120 s deadline; stops wrangler and the receivers itself.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { DEMO, ROOT, executeSql, sqlString as q } from "../scripts/lib/local.mjs";
import {
  deadline as stopAfter,
  envNumber,
  freePort,
  importBundled,
  loadAverage,
  percentile,
  startWrangler,
  benchStateDir,
  printSummary,
} from "./lib/harness.mjs";
import { connectInspector, notPonteWarning } from "./lib/inspector.mjs";

// wrangler and the TypeScript import below need Node >= 22: re-run under the pinned one.
if (Number(process.versions.node.split(".")[0]) < 22) {
  const bin = join(ROOT, "node_modules/.bin");
  const r = spawnSync(join(bin, "node"), process.argv.slice(1), {
    stdio: "inherit",
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
  });
  process.exit(r.status ?? 1);
}

const ENDPOINTS = envNumber("BENCH_ENDPOINTS", 5);
const EVENTS = Math.min(envNumber("BENCH_EVENTS", 200), 500); // the sweeper takes 500 per run
const DEADLINE_MS = 120_000;
const SIGN_ITERATIONS = 20_000;
const SINGLE_EVENTS = envNumber("BENCH_SINGLE_EVENTS", 30);
/** PROFILE=dir: a V8 CPU profile of the Ponte isolate (worker, EndpointDOs, OrgLogDO) over the burst, into dir. */
const PROFILE = process.env.PROFILE;
stopAfter(300);
const state = benchStateDir("ponte-bench-webhooks");
process.env.PONTE_PERSIST_DIR = state;
process.on("exit", () => rmSync(state, { recursive: true, force: true }));
const servers = [];
let dev;

async function main() {
  const loadBefore = loadAverage();

  // 1. Signing cost in Node (the same code the worker runs).
  // Bundled as the worker bundles it (signature.ts imports other source modules without extensions).
  const { buildSignatureHeader, generateSigningSecret } = await importBundled(
    join(ROOT, "src/events/signature.ts"),
    join(state, "signature.mjs"),
  );
  const secret = generateSigningSecret();
  const sampleBody = JSON.stringify({
    id: randomUUID(),
    type: "payment.received",
    createdAt: new Date().toISOString(),
    environment: "local",
    apiVersion: "1.0",
    data: { id: randomUUID(), value: "129.90", customer: "cus_000001", billingType: "PIX" },
  });
  for (let i = 0; i < 1000; i++) await buildSignatureHeader([secret], 1_700_000_000, sampleBody);
  let t = performance.now();
  for (let i = 0; i < SIGN_ITERATIONS; i++) await buildSignatureHeader([secret], 1_700_000_000 + i, sampleBody);
  const signOne = ((performance.now() - t) * 1000) / SIGN_ITERATIONS;
  t = performance.now();
  for (let i = 0; i < SIGN_ITERATIONS; i++) await buildSignatureHeader([secret, secret], 1_700_000_000 + i, sampleBody);
  const signTwo = ((performance.now() - t) * 1000) / SIGN_ITERATIONS;

  // 2. Receivers on 127.0.0.1.
  const receipts = [];
  const receiverPort = await freePort();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const envelope = JSON.parse(Buffer.concat(chunks).toString());
      receipts.push({
        at: performance.now() + performance.timeOrigin,
        path: req.url,
        eventId: envelope.id,
        type: envelope.type,
        resourceId: envelope.data?.id,
        delivery: req.headers["x-service-delivery"],
      });
      res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  servers.push(server);
  // TCP connections the receivers accepted (how much of their CPU is connection set-up rather than requests).
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise((r) => server.listen(receiverPort, "127.0.0.1", r));

  // 3. Database and tenant (the demo organization, workspace and an all-permission key).
  const { seed } = await import("../scripts/seed.mjs");
  const { apiKey: key } = await seed();

  // 4. The worker (its cron can be fired through /cdn-cgi/local/scheduled).
  dev = await startWrangler(["-c", "wrangler.toml", "-c", "sim/wrangler.toml", "--env", "local", "--persist-to", state], {
    readyPath: "/api/v1/health",
  });
  const base = dev.base;

  // 5. Endpoints.
  for (let i = 0; i < ENDPOINTS; i++) {
    const res = await fetch(`${base}/api/v1/webhook-endpoints`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/e${i}`, eventKinds: ["*"] }),
    });
    if (res.status !== 201) throw new Error(`endpoint create: ${res.status} ${await res.text()}`);
  }

  // 6. Events, written as lost enqueues so the sweeper → queue → consumer → EndpointDO path carries them.
  const old = new Date(Date.now() - 120_000).toISOString();
  const rows = Array.from(
    { length: EVENTS },
    (_, i) =>
      `(${q(randomUUID())}, ${q(DEMO.organizationId)}, ${q(DEMO.workspaceId)}, 'payment.received', ${q(JSON.stringify({ id: randomUUID(), value: "129.90", seq: i }))}, ${q(old)}, NULL)`,
  );
  executeSql(`INSERT INTO events (id, organization_id, workspace_id, type, data, created_at, fanned_out_at) VALUES\n${rows.join(",\n")};`);

  const expected = EVENTS * ENDPOINTS;
  const deadline = Date.now() + DEADLINE_MS;
  const inspector = PROFILE ? await connectInspector(`ws://127.0.0.1:${dev.inspectorPort}/ws`) : null;
  if (inspector) {
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.setSamplingInterval", { interval: 100 });
    await inspector.send("Profiler.start");
  }
  const cpuBefore = workerdCpuMs();
  const receiverCpuBefore = process.cpuUsage();
  const trigger = performance.now() + performance.timeOrigin;
  const cron = await fetch(`${base}/cdn-cgi/local/scheduled?cron=*+*+*+*+*`);
  if (!cron.ok) throw new Error(`/cdn-cgi/local/scheduled: ${cron.status}`);
  while (new Set(receipts.map((r) => r.delivery)).size < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const burstCpuMs = workerdCpuMs() - cpuBefore;
  const receiverCpu = process.cpuUsage(receiverCpuBefore);
  const burstConnections = connections;
  if (inspector) {
    const { profile } = await inspector.send("Profiler.stop");
    inspector.close();
    mkdirSync(PROFILE, { recursive: true });
    writeFileSync(join(PROFILE, "webhooks-burst.cpuprofile"), JSON.stringify(profile));
    const warning = notPonteWarning(profile, join(PROFILE, "webhooks-burst.cpuprofile"));
    if (warning) console.error(warning);
    console.log(`burst profile (Ponte isolate): ${join(PROFILE, "webhooks-burst.cpuprofile")} (node bench/profile-top.mjs <file>)`);
  }

  const unique = new Map();
  for (const r of receipts) if (!unique.has(r.delivery)) unique.set(r.delivery, r);
  const got = [...unique.values()];
  const latencies = got.map((r) => r.at - trigger).sort((a, b) => a - b);
  const first = Math.min(...got.map((r) => r.at));
  const last = Math.max(...got.map((r) => r.at));
  const burstReceipts = receipts.length;

  // 7. Single events through the normal path: create a payment, time its payment.created to each endpoint.
  const auth = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const customer = await (
    await fetch(`${base}/api/v1/customers`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "Bench Cliente", cpfCnpj: "52998224725" }),
    })
  ).json();
  const single = [];
  const createMs = [];
  for (let i = 0; i < SINGLE_EVENTS && Date.now() < deadline; i++) {
    const started = performance.now() + performance.timeOrigin;
    const res = await fetch(`${base}/api/v1/payments`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ customer: customer.data.id, billingType: "PIX", value: "10.00", dueDate: "2026-12-31" }),
    });
    const payment = await res.json();
    createMs.push(performance.now() + performance.timeOrigin - started);
    if (!res.ok) throw new Error(`payment create: ${res.status} ${JSON.stringify(payment)}`);
    const mine = () => receipts.filter((r) => r.type === "payment.created" && r.resourceId === payment.data.id);
    while (mine().length < ENDPOINTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    for (const r of mine()) single.push(r.at - started);
  }
  single.sort((a, b) => a - b);
  createMs.sort((a, b) => a - b);

  const result = {
    endpoints: ENDPOINTS,
    events: EVENTS,
    deliveriesExpected: expected,
    deliveriesReceived: got.length,
    duplicates: burstReceipts - got.length,
    deliveriesPerSecond: Number((got.length / ((last - first) / 1000)).toFixed(1)),
    triggerToReceiptMs: {
      p50: Math.round(percentile(latencies, 50)),
      p99: Math.round(percentile(latencies, 99)),
      max: Math.round(latencies[latencies.length - 1]),
    },
    singleEvents: {
      payments: SINGLE_EVENTS,
      deliveries: single.length,
      createToReceiptMs: { p50: Math.round(percentile(single, 50)), p99: Math.round(percentile(single, 99)) },
      // The create request alone (its response), the part of create → receipt before the delivery path starts.
      createResponseMs: { p50: Math.round(percentile(createMs, 50)), p99: Math.round(percentile(createMs, 99)) },
    },
    // CPU time (user + system) of wrangler's workerd processes over the burst, per delivery: what the
    // delivery path costs, much less sensitive than deliveries/s to other load on the machine.
    burstCpuMsPerDelivery: Number((burstCpuMs / Math.max(1, got.length)).toFixed(3)),
    // The same for this process over the burst: the receivers (Node's HTTP server, one JSON.parse per POST)
    // and the bench's polling. Beside the figure above it says whether the receiving end could be what
    // limits deliveries/s on a 2-core machine (it is not while it is a small fraction of workerd's).
    receiverCpuMsPerDelivery: Number(((receiverCpu.user + receiverCpu.system) / 1000 / Math.max(1, got.length)).toFixed(3)),
    receiverConnections: burstConnections,
    signingMicrosecondsPerDelivery: { oneSecret: Number(signOne.toFixed(1)), twoSecretsDuringRotation: Number(signTwo.toFixed(1)) },
    load: { loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() },
  };
  console.log(JSON.stringify(result, null, 2));
  printSummary({
    bench: "webhooks",
    deliveriesPerSecond: result.deliveriesPerSecond,
    createToReceiptP50Ms: result.singleEvents.createToReceiptMs.p50,
    lost: result.deliveriesExpected - result.deliveriesReceived,
    duplicates: result.duplicates,
  });
  if (got.length < expected) process.exitCode = 1;
}

/** CPU ms (user + system) of every workerd process descended from this one (Linux /proc; 0 elsewhere). */
function workerdCpuMs() {
  let pids;
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  const stat = new Map();
  for (const pid of pids) {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, "utf8");
      const close = text.lastIndexOf(")");
      const name = text.slice(text.indexOf("(") + 1, close);
      const fields = text.slice(close + 2).split(" ");
      stat.set(Number(pid), { name, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // gone meanwhile
    }
  }
  const mine = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 10; p = stat.get(p)?.ppid ?? 0, hops++) if (p === process.pid) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, s] of stat) if (s.name.startsWith("workerd") && mine(pid)) ticks += s.ticks;
  return (ticks * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100; // USER_HZ on Linux

async function cleanup() {
  for (const s of servers) s.close();
  await dev?.stop();
  rmSync(state, { recursive: true, force: true });
}

main()
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanup();
    process.exit();
  });
