// Shared benchmark harness: start wrangler dev processes on free ports, wait until they answer,
// and drive load from this process (sequential for latency, concurrent for throughput).
// Bounded in requests and time; talks to 127.0.0.1 only; stops what it started.
import { spawn } from "node:child_process";
import { build } from "esbuild";
import os from "node:os";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/lib/local-worker.mjs";
import { ROOT, toolEnv, wrangler } from "../../scripts/lib/local.mjs";

/** The last line every benchmark prints: one JSON object (`npm run bench` collects them). */
export function printSummary(summary) {
  console.log(JSON.stringify(summary));
}

export { freePort };

const children = new Set();
// Each wrangler runs in its own process group, so stopping it also stops the workerd it started.
const killGroup = (child, signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
};
process.on("exit", () => {
  for (const c of children) killGroup(c, "SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => process.exit(130));

/** Stops one started process group; resolves once it has exited (SIGKILL after 5 s). */
function stopChild(child) {
  children.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => killGroup(child, "SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(hard);
      killGroup(child, "SIGKILL"); // workerd may outlive wrangler by a moment
      resolve();
    });
    killGroup(child, "SIGINT");
  });
}

/** Exits the process (stopping every started wrangler) if the run outlives `seconds`. */
export function deadline(seconds) {
  setTimeout(() => {
    console.error(`bench: ${seconds} s deadline passed, stopping`);
    process.exit(1);
  }, seconds * 1000).unref();
}

/**
 * wrangler dev's local trace collector (X_LOCAL_OBSERVABILITY, on by default in the pinned wrangler)
 * streams every worker invocation's spans — each request, each service-binding call, each local
 * D1/rate-limiter Durable Object call — to a collector worker that stores them on disk. It is a dev
 * tool with no production counterpart, it costs about 1.2 ms per invocation on this machine, and it
 * payments Ponte (several invocations per request) more than a one-invocation baseline. Benchmarks
 * switch it off on every side; X_LOCAL_OBSERVABILITY=true measures with wrangler's default instead.
 */
export const LOCAL_TRACING = process.env.X_LOCAL_OBSERVABILITY === "true";
let tracingNoticePrinted = false;

/**
 * The worker's own socket in a `wrangler dev` session: the address of the workerd that runs the worker (miniflare's
 * entry worker, then the assets router, then the worker, as at the edge), which the dev proxy in front of it (a
 * second workerd: its entry worker, the ProxyWorker Durable Object, one more HTTP hop over loopback) forwards every
 * request to. wrangler writes it, as the ProxyController's "reloadComplete" message, to its debug log file
 * (WRANGLER_LOG_PATH; written whatever --log-level says). Resolves once the line is there.
 */
async function workerSocketFrom(logFile, child, deadlineAt) {
  const pattern = /"userWorkerUrl":\{"protocol":"(https?:)","hostname":"([^"]+)","port":"(\d+)"\}/g;
  while (Date.now() < deadlineAt && child.exitCode === null) {
    const found = existsSync(logFile) ? [...readFileSync(logFile, "utf8").matchAll(pattern)].at(-1) : undefined; // the last reload's
    if (found) return `${found[1]}//${found[2]}:${found[3]}`;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("wrangler dev logged no user worker address");
}

/**
 * Starts `wrangler dev <args>` on a free port and resolves when `readyPath` answers.
 * `stop()` resolves once the process group is gone. With `workerSocket`, also resolves `workerBase`: the
 * worker's own socket behind the dev proxy (see workerSocketFrom), for a bench that must not time the proxy's hop.
 */
export async function startWrangler(args, { readyPath = "/", timeoutMs = 90_000, vars = [], workerSocket = false } = {}) {
  const [port, inspector] = [await freePort(), await freePort()];
  const logDir = workerSocket ? mkdtempSync(join(tmpdir(), "ponte-bench-wrangler-log-")) : null;
  if (logDir) process.on("exit", () => rmSync(logDir, { recursive: true, force: true }));
  const logEnv = logDir ? { WRANGLER_LOG_PATH: join(logDir, "wrangler.log") } : {};
  const varArgs = vars.flatMap((v) => ["--var", v]);
  if (!tracingNoticePrinted) {
    tracingNoticePrinted = true;
    console.log(
      `wrangler local tracing: ${LOCAL_TRACING ? "on (X_LOCAL_OBSERVABILITY=true)" : "off (the default here; X_LOCAL_OBSERVABILITY=true turns it on)"}`,
    );
  }
  const child = spawn(
    join(ROOT, "node_modules", ".bin", "wrangler"),
    [
      "dev",
      ...args,
      "--port",
      String(port),
      "--inspector-port",
      String(inspector),
      "--ip",
      "127.0.0.1",
      "--show-interactive-dev-session=false",
      "--log-level",
      "warn",
      ...varArgs,
    ],
    {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
      env: toolEnv({ CI: "true", X_LOCAL_OBSERVABILITY: String(LOCAL_TRACING), ...logEnv }),
    },
  );
  let stderr = "";
  child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
  children.add(child);
  const base = `http://127.0.0.1:${port}`;
  const deadlineAt = Date.now() + timeoutMs;
  const started = { base, inspectorPort: inspector, stop: () => stopChild(child), stderr: () => stderr };
  while (Date.now() < deadlineAt) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early: ${stderr}`);
    try {
      const res = await fetch(base + readyPath);
      await res.arrayBuffer();
    } catch {
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    if (!logDir) return started;
    try {
      return { ...started, workerBase: await workerSocketFrom(join(logDir, "wrangler.log"), child, deadlineAt) };
    } catch (err) {
      await stopChild(child);
      throw err;
    }
  }
  await stopChild(child);
  throw new Error(`wrangler dev did not become ready: ${stderr}`);
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** `count` sequential requests; returns sorted latencies in ms. */
export async function measureLatency(request, count) {
  const samples = [];
  for (let i = 0; i < count; i++) samples.push(await timed(request));
  return samples.sort((a, b) => a - b);
}

/** `concurrency` workers for `durationMs`; returns requests per second. */
export async function measureThroughput(request, { concurrency, durationMs }) {
  let done = 0;
  const end = performance.now() + durationMs;
  const worker = async () => {
    while (performance.now() < end) {
      await timed(request);
      done++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((performance.now() - t0) / 1000);
}

export const fmt = (n, d = 2) => Number(n).toFixed(d);

/** Sends one request and returns its latency in ms; a non-2xx answer fails the run. */
async function timed(request) {
  const t0 = performance.now();
  const res = await request();
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`unexpected status ${res.status}`);
  return performance.now() - t0;
}

/**
 * Measures named targets fairly on a shared, possibly busy machine: latency requests go round-robin
 * over all targets (A, B, C, A, B, C…); throughput alternates one-second slices of the targets named
 * in `throughputOf` (default: all). Every target sees the same noise.
 * Returns { name: { latencies (sorted ms), rps (undefined if not measured) } }.
 */
export async function compareAll(targets, { requests, concurrency, seconds, throughputOf = Object.keys(targets) }) {
  const names = Object.keys(targets);
  const out = Object.fromEntries(names.map((n) => [n, { latencies: [], rps: undefined }]));
  for (let i = 0; i < requests; i++) for (const n of names) out[n].latencies.push(await timed(targets[n]));
  for (const n of names) out[n].latencies.sort((x, y) => x - y);
  for (const n of throughputOf) out[n].rps = 0;
  for (let s = 0; s < seconds; s++) {
    for (const n of throughputOf) out[n].rps += await measureThroughput(targets[n], { concurrency, durationMs: 1000 });
  }
  for (const n of throughputOf) out[n].rps /= seconds;
  return out;
}

/** Two targets, A and B, measured as compareAll does. */
export async function compare(a, b, options) {
  return compareAll({ a, b }, options);
}

/** p50/p99 (ms) and rps of one compareAll result, rounded for printing. */
export const summary = ({ latencies, rps }) => ({
  p50Ms: +fmt(percentile(latencies, 50)),
  p99Ms: +fmt(percentile(latencies, 99)),
  ...(rps === undefined ? {} : { rps: +fmt(rps, 0) }),
});

/** The load average (1, 5, 15 min) of this machine, to print beside the figures. */
export const loadAverage = () => os.loadavg().map((n) => +n.toFixed(2));

/**
 * The run's bounds from REQUESTS / CONCURRENCY / SECONDS (defaults given), with a hard deadline
 * (DEADLINE_SECONDS, default 300) after which the run stops everything it started.
 */
export function loadOptions({ requests, concurrency, seconds }) {
  deadline(envNumber("DEADLINE_SECONDS", 300));
  return {
    requests: envNumber("REQUESTS", requests),
    concurrency: envNumber("CONCURRENCY", concurrency),
    seconds: envNumber("SECONDS", seconds),
  };
}

/** Reads an integer env var, e.g. REQUESTS, with a default. */
export const envNumber = (name, fallback) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number`);
  return n;
};

/**
 * A fresh state directory for a run's local D1, queues and rate limiter, on tmpfs when the machine
 * has one: every side of a comparison then stores in memory, as the real services do, and the
 * figures measure Ponte rather than this machine's disk flushes.
 */
export function benchStateDir(prefix) {
  const base = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
  return mkdtempSync(join(base, `${prefix}-`));
}

/**
 * A fresh state directory (removed when the process exits) that the seed and every `wrangler dev`
 * started with `--persist-to state` share, seeded with the demo tenant: `{ state, demo }`.
 */
export async function seededState(prefix) {
  const state = benchStateDir(prefix);
  process.on("exit", () => rmSync(state, { recursive: true, force: true }));
  process.env.PONTE_PERSIST_DIR = state;
  const { seed } = await import("../../scripts/seed.mjs");
  return { state, demo: await seed() };
}

/**
 * Ponte's seeded state beside a bare baseline's empty one with its own migrations applied (`bareConfig`), both
 * under one directory (`dir`, removed when the process exits): the create benches' two sides.
 */
export async function seededStateWithBaseline(prefix, bareConfig) {
  const dir = benchStateDir(prefix);
  const [state, bareState] = [join(dir, "ponte"), join(dir, "bare")];
  mkdirSync(state);
  mkdirSync(bareState);
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  process.env.PONTE_PERSIST_DIR = state;
  const { seed } = await import("../../scripts/seed.mjs");
  const demo = await seed();
  wrangler(["d1", "migrations", "apply", "DB", "--local", "-c", bareConfig, "--persist-to", bareState]);
  return { dir, state, bareState, demo };
}

/**
 * The Ponte of each checkout `against` names (AGAINST: `/a`, or `/a,/b` for several; each built there first:
 * `npm run build:worker`) with the simulator, each on its own copy of `state` (removed when the process exits), for an
 * A/B of commits in one run. Each started session also has its `checkout` and the `name` its side goes by in the
 * bench's results: `viaAgainst`, then `viaAgainst2`, `viaAgainst3`…
 */
export async function startPontesAgainst(against, state, { vars = [] } = {}) {
  const started = [];
  for (const [i, checkout] of (against ?? "").split(",").filter(Boolean).entries()) {
    const copy = `${state}-against${i === 0 ? "" : `-${i}`}`;
    cpSync(state, copy, { recursive: true });
    process.on("exit", () => rmSync(copy, { recursive: true, force: true }));
    const session = await startWrangler(
      ["-c", join(checkout, "wrangler.toml"), "-c", "sim/wrangler.toml", "--env", "local", "--persist-to", copy],
      { readyPath: "/api/v1/health", vars },
    );
    started.push({ ...session, checkout, name: `viaAgainst${i === 0 ? "" : i + 1}` });
  }
  return started;
}

/**
 * Bundles Ponte source (`entry`, TypeScript) into `outfile` as the worker's bundle resolves it (workerd
 * conditions, `cloudflare:*` left external), so a benchmark can import it in Node; resolves to the module.
 */
export async function importBundled(entry, outfile, { nodePaths = [] } = {}) {
  await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile,
    external: ["cloudflare:*", "node:*"],
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "import"],
    logLevel: "error",
    nodePaths,
  });
  return import(outfile);
}
