// Shared benchmark harness: start wrangler dev processes on free ports, wait until they answer,
// and drive load from this process (sequential for latency, concurrent for throughput).
// Bounded in requests and time; talks to 127.0.0.1 only; stops what it started.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT, toolEnv } from "../../scripts/lib/local.mjs";

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const children = new Set();
process.on("exit", () => {
  for (const c of children) c.kill("SIGKILL");
});

/** Starts `wrangler dev <args>` on a free port and resolves when `readyPath` answers. */
export async function startWrangler(args, { readyPath = "/", timeoutMs = 90_000, vars = [] } = {}) {
  const port = await freePort();
  const varArgs = vars.flatMap((v) => ["--var", v]);
  const child = spawn(join(ROOT, "node_modules", ".bin", "wrangler"), ["dev", ...args, "--port", String(port), "--ip", "127.0.0.1", "--show-interactive-dev-session=false", "--log-level", "warn", ...varArgs], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    env: toolEnv({ CI: "true" }),
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
  children.add(child);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early: ${stderr}`);
    try {
      const res = await fetch(base + readyPath);
      await res.arrayBuffer();
      return { base, stop: () => (child.kill("SIGINT"), children.delete(child)) };
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  child.kill("SIGKILL");
  throw new Error(`wrangler dev did not become ready: ${stderr}`);
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** `count` sequential requests; returns sorted latencies in ms. */
export async function measureLatency(request, count) {
  const samples = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await request();
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`unexpected status ${res.status}`);
    samples.push(performance.now() - t0);
  }
  return samples.sort((a, b) => a - b);
}

/** `concurrency` workers for `durationMs`; returns requests per second. */
export async function measureThroughput(request, { concurrency, durationMs }) {
  let done = 0;
  const end = performance.now() + durationMs;
  const worker = async () => {
    while (performance.now() < end) {
      const res = await request();
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`unexpected status ${res.status}`);
      done++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((performance.now() - t0) / 1000);
}

export const fmt = (n, d = 2) => Number(n).toFixed(d);
