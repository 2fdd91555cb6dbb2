// The local worker as `npm start` runs it (the API and the upstream simulator under `wrangler dev --env local`),
// but on a free port with a throw-away state directory, for tests and tools that drive it from outside over
// HTTP: the Node-side end-to-end tests (test/e2e/), and anything else that needs a running Ponte. It builds the
// simulator and the static assets, seeds the demo tenant and a test key (optionally the demo history, mirrored
// into the simulator once it runs: demo-mirror.mjs), starts wrangler dev in its own process group, waits for
// /api/v1/health, points the simulator's webhooks at the API, and returns what a client needs. `stop()` ends the
// process group and removes the state.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pushDemoMirror, readDemoMirror } from "./demo-mirror.mjs";
import { DEMO, localDevArgs, ROOT, toolEnv } from "./local.mjs";

/** A port nobody listens on now (the OS picks it). */
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

/** Ends a detached child's whole process group (wrangler and the workerd it started); resolves once it exited. */
function stopGroup(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const kill = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  };
  return new Promise((resolve) => {
    const hard = setTimeout(() => kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(hard);
      kill("SIGKILL"); // workerd may outlive wrangler by a moment
      resolve();
    });
    kill("SIGINT");
  });
}

/**
 * Starts the local worker. `demoHistory`: also write the ~12 months of demo history (as `npm start` does on a
 * fresh state). Resolves to `{ baseUrl, apiKey, organizationId, workspaceId, demoHistory?, stop }`.
 */
export async function startLocalWorker({ demoHistory = false, timeoutMs = 120_000 } = {}) {
  execFileSync(process.execPath, [join(ROOT, "sim", "build.mjs")], { cwd: ROOT, stdio: "ignore" });
  if (!existsSync(join(ROOT, "public", "vendor"))) {
    execFileSync(process.execPath, [join(ROOT, "scripts", "build-assets.mjs")], { cwd: ROOT, stdio: "ignore" });
  }
  const state = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "ponte-local-"));
  const previous = process.env.PONTE_PERSIST_DIR;
  process.env.PONTE_PERSIST_DIR = state;
  const port = await freePort();
  let demo;
  let mirror = null;
  try {
    const { seed } = await import("../seed.mjs");
    demo = await seed({ port, demo: demoHistory });
    // The history's records, to import into the simulator once it runs (as `npm start` does).
    if (demoHistory) mirror = await readDemoMirror(demo.workspaceId);
  } finally {
    if (previous === undefined) delete process.env.PONTE_PERSIST_DIR;
    else process.env.PONTE_PERSIST_DIR = previous;
  }
  const child = spawn(
    join(ROOT, "node_modules", ".bin", "wrangler"),
    localDevArgs(port, ["--ip", "127.0.0.1", "--persist-to", state, "--log-level", "warn"]),
    { cwd: ROOT, detached: true, stdio: ["ignore", "ignore", "pipe"], env: toolEnv({ CI: "true", NO_UPDATE_NOTIFIER: "1" }) },
  );
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const stop = async () => {
    await stopGroup(child);
    rmSync(state, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`wrangler dev exited early: ${stderr}`);
    }
    const up = await fetch(`${baseUrl}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > until) {
      await stop();
      throw new Error(`the local worker did not answer /api/v1/health in ${timeoutMs} ms: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const { connectUpstreamWebhooks, rebuildDemoRollupsIfMissing } = await import("../seed.mjs");
  const running = { ...demo, baseUrl };
  if (!(await connectUpstreamWebhooks(running).catch(() => false))) {
    await stop();
    throw new Error("could not point the simulator's webhooks at the local worker");
  }
  if (mirror) await pushDemoMirror(baseUrl, mirror, DEMO.upstreamApiKey);
  if (demoHistory) await rebuildDemoRollupsIfMissing(running);
  return { ...running, stop };
}
