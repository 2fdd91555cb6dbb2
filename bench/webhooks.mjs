#!/usr/bin/env node
// Webhook delivery benchmark. Starts `wrangler dev --env local` (own temporary state) and local
// receivers on 127.0.0.1, registers N endpoints, writes M event rows straight into D1 as "lost"
// enqueues (created 2 min ago, never enqueued), then fires the cron (`/__scheduled`): the sweeper
// enqueues them, the queue consumer fans out N×M deliveries, EndpointDOs POST them. It reports
// deliveries/second, trigger-to-receipt latency p50/p99, and the signing cost per delivery.
// Bounded: M events, N endpoints, a 120 s deadline; stops wrangler and the receivers itself.
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "node_modules/.bin");
// wrangler and the TypeScript import below need Node >= 22: re-run under the pinned one.
if (Number(process.versions.node.split(".")[0]) < 22) {
  const r = spawnSync(join(bin, "node"), process.argv.slice(1), { stdio: "inherit", env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
  process.exit(r.status ?? 1);
}

const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 5);
const EVENTS = Math.min(Number(process.env.BENCH_EVENTS ?? 200), 500); // the sweeper takes 500 per run
const DEADLINE_MS = 120_000;
const SIGN_ITERATIONS = 20_000;
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, WRANGLER_SEND_METRICS: "false" };
const state = mkdtempSync(join(tmpdir(), "ponte-webhooks-bench-"));
const children = [];
const servers = [];

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function wrangler(args) {
  const r = spawnSync(join(bin, "wrangler"), args, { cwd: root, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`wrangler ${args.join(" ")} failed:\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

function d1File(sql) {
  const file = join(state, `sql-${randomUUID()}.sql`);
  writeFileSync(file, sql);
  wrangler(["d1", "execute", "DB", "--local", "--env", "local", "--persist-to", state, "--file", file]);
}

const q = (v) => `'${String(v).replace(/'/g, "''")}'`;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const deadline = Date.now() + DEADLINE_MS;

  // 1. Signing cost in Node (the same code the worker runs).
  const { buildSignatureHeader, generateSigningSecret } = await import(pathToFileURL(join(root, "src/events/signature.ts")).href);
  const secret = generateSigningSecret();
  const sampleBody = JSON.stringify({ id: randomUUID(), type: "payment.received", createdAt: new Date().toISOString(), environment: "local", apiVersion: "1.0", data: { id: randomUUID(), value: "129.90", customer: "cus_000001", billingType: "PIX" } });
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
      receipts.push({ at: performance.now() + performance.timeOrigin, path: req.url, eventId: JSON.parse(Buffer.concat(chunks).toString()).id, delivery: req.headers["x-service-delivery"] });
      res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  servers.push(server);
  await new Promise((r) => server.listen(receiverPort, "127.0.0.1", r));

  // 3. Database and tenant.
  wrangler(["d1", "migrations", "apply", "DB", "--local", "--env", "local", "--persist-to", state]);
  const org = randomUUID(), ws = randomUUID(), keyId = randomUUID(), now = new Date().toISOString();
  const key = `ponte_test_${randomBytes(30).toString("base64").replace(/[^0-9A-Za-z]/g, "").slice(0, 40).padEnd(40, "x")}`;
  const hash = createHash("sha256").update(key).digest("hex");
  d1File(`INSERT INTO organizations (id, name, default_workspace_id, created_at, updated_at) VALUES (${q(org)}, 'Bench', ${q(ws)}, ${q(now)}, ${q(now)});
INSERT INTO workspaces (id, organization_id, name, created_at, updated_at) VALUES (${q(ws)}, ${q(org)}, 'Default', ${q(now)}, ${q(now)});
INSERT INTO api_keys (id, organization_id, workspace_id, environment, name, key_hash, display_prefix, last4, permissions, created_by, created_at, updated_at)
VALUES (${q(keyId)}, ${q(org)}, NULL, 'test', 'bench', ${q(hash)}, ${q(key.slice(0, 15))}, ${q(key.slice(-4))}, '["webhook_endpoints.manage"]', 'bench', ${q(now)}, ${q(now)});`);

  // 4. The worker.
  const port = await freePort();
  const dev = spawn(join(bin, "wrangler"), ["dev", "--env", "local", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", state, "--test-scheduled", "--show-interactive-dev-session=false"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(dev);
  let devLog = "";
  dev.stdout.on("data", (d) => (devLog += d));
  dev.stderr.on("data", (d) => (devLog += d));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`wrangler dev did not start:\n${devLog.slice(-2000)}`);
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) break;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }

  // 5. Endpoints.
  for (let i = 0; i < ENDPOINTS; i++) {
    const res = await fetch(`${base}/api/v1/webhook-endpoints`, { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/e${i}`, eventKinds: ["*"] }) });
    if (res.status !== 201) throw new Error(`endpoint create: ${res.status} ${await res.text()}`);
  }

  // 6. Events, written as lost enqueues so the sweeper → queue → consumer → EndpointDO path carries them.
  const old = new Date(Date.now() - 120_000).toISOString();
  const rows = Array.from({ length: EVENTS }, (_, i) => `(${q(randomUUID())}, ${q(org)}, ${q(ws)}, 'payment.received', ${q(JSON.stringify({ id: randomUUID(), value: "129.90", seq: i }))}, ${q(old)}, NULL)`);
  d1File(`INSERT INTO events (id, organization_id, workspace_id, type, data, created_at, fanned_out_at) VALUES\n${rows.join(",\n")};`);

  const expected = EVENTS * ENDPOINTS;
  const trigger = performance.now() + performance.timeOrigin;
  const cron = await fetch(`${base}/__scheduled?cron=*+*+*+*+*`);
  if (!cron.ok) throw new Error(`/__scheduled: ${cron.status}`);
  while (new Set(receipts.map((r) => r.delivery)).size < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

  const unique = new Map();
  for (const r of receipts) if (!unique.has(r.delivery)) unique.set(r.delivery, r);
  const got = [...unique.values()];
  const latencies = got.map((r) => r.at - trigger).sort((a, b) => a - b);
  const first = Math.min(...got.map((r) => r.at));
  const last = Math.max(...got.map((r) => r.at));
  const result = {
    endpoints: ENDPOINTS,
    events: EVENTS,
    deliveriesExpected: expected,
    deliveriesReceived: got.length,
    duplicates: receipts.length - got.length,
    deliveriesPerSecond: Number((got.length / ((last - first) / 1000)).toFixed(1)),
    triggerToReceiptMs: { p50: Math.round(percentile(latencies, 50)), p99: Math.round(percentile(latencies, 99)), max: Math.round(latencies[latencies.length - 1]) },
    signingMicrosecondsPerDelivery: { oneSecret: Number(signOne.toFixed(1)), twoSecretsDuringRotation: Number(signTwo.toFixed(1)) },
  };
  console.log(JSON.stringify(result, null, 2));
  if (got.length < expected) process.exitCode = 1;
}

function cleanup() {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  for (const s of servers) s.close();
  try { rmSync(state, { recursive: true, force: true }); } catch { /* best effort */ }
}

main()
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(() => {
    cleanup();
    setTimeout(() => process.exit(), 500).unref();
  });
