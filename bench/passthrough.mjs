#!/usr/bin/env node
// Passthrough overhead: the same upstream GET through Ponte (auth, gateway account, forward, log)
// and straight to the simulator, in one run. Local only (127.0.0.1), bounded, stops what it starts.
//   node bench/passthrough.mjs [--sequential 1000] [--concurrent 4000] [--concurrency 32]
import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gatewayAccountSql, uuidv7 } from "../scripts/lib/seed-gateway.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const wrangler = join(root, "node_modules/.bin/wrangler");
// node_modules/.bin first, so wrangler runs on the repo's pinned Node 22 even if the system Node is older.
const childEnv = { ...process.env, CI: "1", PATH: `${join(root, "node_modules/.bin")}:${process.env.PATH}` };
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SEQUENTIAL = arg("sequential", 1000);
const CONCURRENT = arg("concurrent", 4000);
const CONCURRENCY = arg("concurrency", 32);
const WARMUP = 200;
const DEADLINE_MS = 10 * 60 * 1000;

const persist = mkdtempSync(join(tmpdir(), "ponte-bench-"));
const children = [];

function stopAll() {
  for (const child of children) {
    try {
      process.kill(-child.pid, "SIGTERM"); // the whole process group this script started (wrangler + workerd)
    } catch {
      /* already gone */
    }
  }
  children.length = 0;
  rmSync(persist, { recursive: true, force: true });
}
process.on("exit", stopAll);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));
setTimeout(() => {
  console.error("bench: deadline passed, stopping");
  process.exit(1);
}, DEADLINE_MS).unref();

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

function run(args) {
  execFileSync(wrangler, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: childEnv });
}

function start(name, args) {
  const child = spawn(wrangler, args, { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"], env: childEnv });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  child.on("exit", (code) => {
    if (children.includes(child)) console.error(`bench: ${name} exited (${code})\n${output.slice(-2000)}`);
  });
  children.push(child);
  return child;
}

async function waitFor(url, name) {
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} did not come up at ${url}`);
}

const q = (v) => `'${String(v).replace(/'/g, "''")}'`;

async function seed() {
  const organizationId = uuidv7();
  const workspaceId = uuidv7();
  const apiKeyId = uuidv7();
  const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const apiKey = `ponte_test_${[...randomBytes(40)].map((b) => base62[b % 62]).join("")}`;
  const upstreamKey = `$aact_hmlg_bench${randomBytes(12).toString("hex")}`;
  const now = new Date().toISOString();
  const account = await gatewayAccountSql({ organizationId, workspaceId, upstreamApiKey: upstreamKey });
  const sql = [
    `INSERT INTO organizations (id, name, default_workspace_id, created_at, updated_at) VALUES (${[organizationId, "Bench Ltda", workspaceId, now, now].map(q).join(", ")});`,
    `INSERT INTO workspaces (id, organization_id, name, created_at, updated_at) VALUES (${[workspaceId, organizationId, "Default", now, now].map(q).join(", ")});`,
    `INSERT INTO api_keys (id, organization_id, workspace_id, environment, name, key_hash, display_prefix, last4, permissions, created_by, created_at, updated_at) VALUES (${[
      apiKeyId, organizationId, null, "test", "bench", createHash("sha256").update(apiKey).digest("hex"), apiKey.slice(0, 15), apiKey.slice(-4), JSON.stringify(["gateway_accounts.read"]), "bench", now, now,
    ].map((v) => (v === null ? "NULL" : q(v))).join(", ")});`,
    account.sql,
  ].join("\n");
  const file = join(persist, "seed.sql");
  writeFileSync(file, sql);
  run(["d1", "execute", "DB", "--local", "--env", "local", "--persist-to", persist, "--file", file]);
  return { apiKey, upstreamKey, accountId: account.accountId };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function timed(url, headers) {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - t0;
}

async function throughput(url, headers) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < CONCURRENT) await timed(url, headers);
    }),
  );
  return CONCURRENT / ((performance.now() - t0) / 1000);
}

async function main() {
  const [simPort, pontePort, simInspector, ponteInspector] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  console.log(`bench: applying migrations and seeding into ${persist}`);
  run(["d1", "migrations", "apply", "DB", "--local", "--env", "local", "--persist-to", persist]);
  const { apiKey, upstreamKey, accountId } = await seed();

  // One dev session runs Ponte and the simulator together (the UPSTREAM service binding stays
  // in-process). sim/wrangler.toml has no [env.local], so under `--env local` wrangler would name it
  // `ponte-upstream-sim-local` and leave UPSTREAM unconnected: the session gets a copy that has one.
  const simConfig = join(persist, "sim-local.toml");
  writeFileSync(
    simConfig,
    [`name = "ponte-upstream-sim"`, `main = ${JSON.stringify(join(root, "sim/src/index.ts"))}`, `compatibility_date = "2026-11-01"`, "",
      "[vars]", `WEBHOOK_DELIVERY = "sync"`, "", "[env.local]", `name = "ponte-upstream-sim"`, `vars = { WEBHOOK_DELIVERY = "sync" }`, ""].join("\n"),
  );
  const common = ["--ip", "127.0.0.1", "--persist-to", persist, "--show-interactive-dev-session=false", "--log-level", "warn"];
  start("ponte + simulator", ["dev", "-c", "wrangler.toml", "-c", simConfig, "--env", "local", "--port", String(pontePort), "--inspector-port", String(ponteInspector), ...common]);
  // A second simulator on its own port is the baseline: the same worker, called directly.
  start("simulator (direct)", ["dev", "-c", simConfig, "--name", "ponte-upstream-sim-direct", "--port", String(simPort), "--inspector-port", String(simInspector), ...common]);
  await waitFor(`http://127.0.0.1:${simPort}/__sim/health`, "simulator");
  await waitFor(`http://127.0.0.1:${pontePort}/api/v1/health`, "ponte");

  const viaPonte = [`http://127.0.0.1:${pontePort}/api/v1/finance/balance`, { Authorization: `Bearer ${apiKey}` }];
  const direct = [`http://127.0.0.1:${simPort}/v3/finance/balance`, { access_token: upstreamKey, "User-Agent": "bench" }];
  // Ponte answering without auth, D1 or the upstream: what the dev session and the framework cost alone.
  const health = [`http://127.0.0.1:${pontePort}/api/v1/health`, {}];
  // Authentication, rate limit and one D1 read, but no upstream call and no log write.
  const authedRead = [`http://127.0.0.1:${pontePort}/api/v1/gateway-accounts/${accountId}`, { Authorization: `Bearer ${apiKey}` }];
  for (let i = 0; i < 100; i++) {
    try {
      await timed(...viaPonte);
      break;
    } catch (err) {
      if (i === 99) throw err; // the service binding connects once both sessions are registered
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  console.log(`bench: warm-up ${WARMUP} each`);
  for (let i = 0; i < WARMUP; i++) {
    await timed(...viaPonte);
    await timed(...direct);
    await timed(...authedRead);
  }
  console.log(`bench: ${SEQUENTIAL} sequential requests each, interleaved`);
  const ponte = [];
  const sim = [];
  const bare = [];
  const authed = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    ponte.push(await timed(...viaPonte));
    sim.push(await timed(...direct));
    bare.push(await timed(...health));
    authed.push(await timed(...authedRead));
  }
  for (const series of [ponte, sim, bare, authed]) series.sort((a, b) => a - b);
  console.log(`bench: ${CONCURRENT} requests each at concurrency ${CONCURRENCY}`);
  const directRps = await throughput(...direct);
  const ponteRps = await throughput(...viaPonte);

  const f = (ms) => ms.toFixed(2);
  const result = {
    sequential: SEQUENTIAL,
    concurrent: CONCURRENT,
    concurrency: CONCURRENCY,
    ponte: { p50: percentile(ponte, 50), p99: percentile(ponte, 99), rps: ponteRps },
    direct: { p50: percentile(sim, 50), p99: percentile(sim, 99), rps: directRps },
    ponteHealth: { p50: percentile(bare, 50), p99: percentile(bare, 99) },
    ponteAuthedRead: { p50: percentile(authed, 50), p99: percentile(authed, 99) },
  };
  console.log("");
  console.log(`                      p50 ms   p99 ms   req/s (c=${CONCURRENCY})`);
  console.log(`through Ponte     ${f(result.ponte.p50).padStart(9)} ${f(result.ponte.p99).padStart(8)} ${ponteRps.toFixed(0).padStart(9)}`);
  console.log(`direct to sim     ${f(result.direct.p50).padStart(9)} ${f(result.direct.p99).padStart(8)} ${directRps.toFixed(0).padStart(9)}`);
  console.log(`Ponte /health     ${f(result.ponteHealth.p50).padStart(9)} ${f(result.ponteHealth.p99).padStart(8)}`);
  console.log(`Ponte auth+D1 read${f(result.ponteAuthedRead.p50).padStart(9)} ${f(result.ponteAuthedRead.p99).padStart(8)}`);
  console.log(`added latency     p50 ${f(result.ponte.p50 - result.direct.p50)} ms, p99 ${f(result.ponte.p99 - result.direct.p99)} ms`);
  console.log(`throughput ratio  ${((100 * ponteRps) / directRps).toFixed(1)}% of direct`);
  mkdirSync(join(root, "bench/results"), { recursive: true });
  writeFileSync(join(root, "bench/results/passthrough.json"), JSON.stringify({ ...result, at: new Date().toISOString() }, null, 2));
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    console.error(`bench failed: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  });
