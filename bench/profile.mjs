#!/usr/bin/env node
// Where a passthrough request's time goes inside Ponte's worker: a V8 CPU profile of the Ponte
// isolate (not the simulator's) taken through wrangler dev's inspector while the passthrough load of
// bench:passthrough runs. Prints the functions with the most self time and writes the whole profile
// to bench/results/passthrough.cpuprofile (open it in Chrome DevTools → Performance).
//   npm run bench:profile         (PROFILE_PATH=/api/v1/customers SECONDS=5 CONCURRENCY=16 to change it)
// Native time (bindings, D1, the service-binding hop) shows as `fetch`, `(program)` and friends. The µs columns
// charge each sample the time since the previous one; under load that stretches, so compare runs by the busy
// sample count per request the script prints first.
// The modules the profile's `<module>.mjs:LINE` names refer to (the built worker wrangler dev served, dist/worker/)
// are kept in bench/results/passthrough-worker/.
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../scripts/lib/local.mjs";
import { seededState, envNumber, loadOptions, measureLatency, measureThroughput, startWrangler } from "./lib/harness.mjs";
import { connectInspector, idleNodeIds, isPonteProfile } from "./lib/inspector.mjs";

const bounds = loadOptions({ requests: 300, concurrency: 16, seconds: 5 });
const path = process.env.PROFILE_PATH ?? "/api/v1/finance/balance";
const TOP = envNumber("TOP", 30);

const { state, demo } = await seededState("ponte-bench-profile");

// wrangler's inspector proxy (--inspector-port) follows whichever worker of the session finished loading last, so
// with Ponte and the simulator in one session it may be the simulator's: a short probe profile says whose isolate it
// is (Ponte's modules are `*.ponte.mjs`), and the session is started again until it is Ponte's (at most ATTEMPTS).
const ATTEMPTS = envNumber("ATTEMPTS", 4);
const startPonte = () =>
  startWrangler(["-c", "wrangler.toml", "-c", "sim/wrangler.toml", "--env", "local", "--persist-to", state], {
    readyPath: "/api/v1/health",
  });

let ponte = await startPonte();
try {
  const request = () => fetch(ponte.base + path, { headers: { Authorization: `Bearer ${demo.apiKey}` } });
  let inspector;
  for (let attempt = 1; ; attempt++) {
    inspector = await connectInspector(`ws://127.0.0.1:${ponte.inspectorPort}/ws`);
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.start");
    await measureLatency(request, 20);
    const { profile: probe } = await inspector.send("Profiler.stop");
    if (isPonteProfile(probe)) break;
    inspector.close();
    if (attempt >= ATTEMPTS) throw new Error(`the inspector showed the simulator's isolate in ${ATTEMPTS} sessions; try again`);
    console.log(`the inspector shows the simulator's isolate; starting the session again (${attempt}/${ATTEMPTS})`);
    await ponte.stop();
    ponte = await startPonte();
  }
  await measureLatency(request, bounds.requests); // warm: JIT, caches, the first D1 reads

  await inspector.send("Profiler.setSamplingInterval", { interval: 50 });
  await inspector.send("Profiler.start");
  const rps = await measureThroughput(request, { concurrency: bounds.concurrency, durationMs: bounds.seconds * 1000 });
  const { profile } = await inspector.send("Profiler.stop");
  inspector.close();

  const requests = rps * bounds.seconds;
  const rows = selfTimeByFunction(profile);
  const totalUs = rows.reduce((sum, r) => sum + r.us, 0);
  console.log(`\n${path}: ${rps.toFixed(0)} req/s at c=${bounds.concurrency} for ${bounds.seconds} s; Ponte isolate, self time`);
  // The sampler's count of busy samples: under load the time between samples stretches (and is charged to the
  // sample after a gap, often a request's first frame), so a count compares two runs better than the µs do.
  const idle = idleNodeIds(profile);
  const busy = profile.samples.filter((id) => !idle.has(id)).length;
  console.log(
    `busy samples: ${busy}, ${(busy / requests).toFixed(2)} per request (one asked for every 50 µs; under load the runtime takes far fewer)`,
  );
  console.log(`  share   µs/req  function`);
  for (const r of rows.slice(0, TOP))
    console.log(`${((100 * r.us) / totalUs).toFixed(1).padStart(6)}% ${(r.us / requests).toFixed(1).padStart(8)}  ${r.name}`);
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(ROOT, "bench/results/passthrough.cpuprofile"), JSON.stringify(profile));
  const kept = keepServedModules();
  console.log(
    `\nfull profile: bench/results/passthrough.cpuprofile${kept ? ` (its ${kept} modules: bench/results/passthrough-worker/)` : ""}`,
  );
} finally {
  await ponte.stop();
}

/**
 * Copies the built worker wrangler dev served (dist/worker/: scripts/build-worker.mjs, run by wrangler as the
 * [build] command, and served as it is) to bench/results/passthrough-worker/; returns the number of modules.
 */
function keepServedModules() {
  const served = join(ROOT, "dist/worker");
  const kept = join(ROOT, "bench/results/passthrough-worker");
  let files;
  try {
    files = readdirSync(served);
  } catch {
    return 0;
  }
  rmSync(kept, { recursive: true, force: true });
  mkdirSync(kept, { recursive: true });
  for (const f of files) copyFileSync(join(served, f), join(kept, f));
  return files.filter((f) => f.endsWith(".mjs")).length;
}

/** Self time (µs) per function, largest first; a sample's time delta is charged to the sampled node. */
function selfTimeByFunction(profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byName = new Map();
  profile.samples.forEach((nodeId, i) => {
    const { functionName, url, lineNumber } = nodes.get(nodeId).callFrame;
    const where = url ? ` ${url.split("/").pop()}:${lineNumber + 1}` : "";
    const name = `${functionName || "(anonymous)"}${where}`;
    byName.set(name, (byName.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return [...byName].map(([name, us]) => ({ name, us })).sort((a, b) => b.us - a.us);
}
