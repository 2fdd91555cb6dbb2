// In-process measurement shared by the JavaScript-cost benches (bench:js, bench/passthrough-js.mjs):
// cases run in interleaved rounds (A, B, C, A, B, C, …) so a busy machine weighs on all alike, each
// figure the median over the rounds, with the CPU spread. CPU time (user + system of this process,
// `process.cpuUsage`) is the steadier figure on a shared machine: waiting for a core does not inflate
// it; wall time does include that wait.
import { Session } from "node:inspector/promises";

/**
 * Times `n` sequential calls of `request` (then `settle`, when given: background work the requests
 * left, counted in the same figure); wall and CPU microseconds per request.
 */
export async function timeRequests(n, request, settle) {
  const [wall0, cpu0] = [performance.now(), process.cpuUsage()];
  for (let i = 0; i < n; i++) await request();
  if (settle) await settle();
  const cpu = process.cpuUsage(cpu0);
  return { wall: ((performance.now() - wall0) / n) * 1000, cpu: (cpu.user + cpu.system) / n };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const round1 = (x) => +x.toFixed(1);

/**
 * Warms every case (`warm` requests each: the JIT, caches, memos), then runs `rounds` rounds of
 * `requests / rounds` requests of each case in turn. `run(case, n)` is the bench's own loop (usually
 * built on `timeRequests`) and returns `{ wall, cpu }` per request. Returns the requests per round and,
 * per case name, `{ microsecondsPerRequest, cpuMicrosecondsPerRequest, cpuSpread: [min, max] }`.
 */
export async function interleavedRounds(cases, run, { requests, rounds, warm = 2000 }) {
  for (const c of cases) await run(c, warm);
  const perRound = Math.max(1, Math.round(requests / rounds));
  const samples = new Map(cases.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) for (const c of cases) samples.get(c.name).push(await run(c, perRound));
  const figures = {};
  for (const [name, runs] of samples) {
    const cpu = runs.map((x) => x.cpu);
    figures[name] = {
      microsecondsPerRequest: round1(median(runs.map((x) => x.wall))),
      cpuMicrosecondsPerRequest: round1(median(cpu)),
      cpuSpread: [round1(Math.min(...cpu)), round1(Math.max(...cpu))],
    };
  }
  return { perRound, figures };
}

/** A V8 CPU profile (50 µs sampling) of this process while `work()` runs, for DevTools or bench/profile-top.mjs. */
export async function profileInProcess(work) {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 50 });
    await session.post("Profiler.start");
    await work();
    const { profile } = await session.post("Profiler.stop");
    return profile;
  } finally {
    session.disconnect();
  }
}
