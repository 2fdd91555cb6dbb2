// Start-up CPU of a worker, as `wrangler check startup` profiles it (the main module's import in a fresh
// isolate), shared by bench/startup.mjs and bench/startup-split.mjs.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, toolEnv } from "../../scripts/lib/local.mjs";

export const wranglerBin = join(ROOT, "node_modules", ".bin", "wrangler");

/** Runs wrangler in `cwd` (default: the repository) and returns its stdout. */
export const runWrangler = (args, cwd = ROOT) =>
  execFileSync(wranglerBin, args, { cwd, env: toolEnv(), stdio: ["ignore", "pipe", "pipe"] });

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Span and non-idle CPU of one start-up profile, in ms, of the worker configured in `cwd`. The profiler
 * samples the isolate's thread about once per millisecond (`interval`, the lower quartile of the profile's
 * gaps) and each sample's time delta is the wall time since the previous one: when the thread is off the CPU
 * (other processes on a busy machine) no sample is taken and the next one carries the whole gap, so one
 * preempted sample used to add 20–150 ms to `sampledMs` (the old figure, still reported). `cpuMs` counts each
 * non-idle sample for at most one interval: the thread's time on the CPU, which is what the start-up limit
 * counts. On a quiet machine the two agree. With ~1 ms samples the figure moves in steps of about 1 ms.
 */
export function profileStartup(outfile, cwd = ROOT) {
  runWrangler(["check", "startup", "--outfile", outfile], cwd);
  const profile = JSON.parse(readFileSync(outfile, "utf8"));
  const idle = new Set(profile.nodes.filter((n) => ["(idle)", "(program)"].includes(n.callFrame.functionName)).map((n) => n.id));
  const gaps = profile.timeDeltas.filter((d) => d > 0).sort((a, b) => a - b);
  const interval = gaps[Math.floor(gaps.length / 4)]; // the lower quartile: a busy machine stretches many gaps
  let sampled = 0;
  let busy = 0;
  profile.samples.forEach((id, k) => {
    if (idle.has(id)) return;
    const delta = profile.timeDeltas[k + 1] ?? 0;
    sampled += delta;
    busy += Math.min(delta, interval);
  });
  return {
    spanMs: (profile.endTime - profile.startTime) / 1000,
    cpuMs: busy / 1000,
    sampledMs: sampled / 1000,
    intervalMs: interval / 1000,
  };
}
