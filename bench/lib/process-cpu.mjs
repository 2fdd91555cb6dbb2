// CPU time of a `wrangler dev` session, as the machine counts it (Linux /proc): the process group serving a
// base URL, and the CPU every thread of its workerd processes used (schedstat, ns), for bench/passthrough-cpu.mjs
// and bench/charges-cpu.mjs.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { fmt, measureLatency } from "./harness.mjs";

const pgidOf = (pid) => Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[2]);
function readlinkSafe(p) {
  try {
    return readlinkSync(p);
  } catch {
    return null;
  }
}

/** The process group that serves `base`: the one of the workerd listening on its port. */
export function groupOf(base) {
  const port = Number(new URL(base).port);
  const inode = readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .find((f) => f[1]?.endsWith(`:${port.toString(16).toUpperCase().padStart(4, "0")}`) && f[3] === "0A")?.[9];
  if (!inode) throw new Error(`no listener on ${port}`);
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSafe(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`)) return pgidOf(pid);
    } catch {
      /* gone, or not ours */
    }
  }
  throw new Error(`no process holds port ${port}`);
}

/** CPU ns used so far by every thread of the workerd processes in process group `pgid` (wrangler's node process left out). */
export function groupCpuNs(pgid) {
  let ns = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (pgidOf(pid) !== pgid || readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "workerd") continue;
      for (const tid of readdirSync(`/proc/${pid}/task`))
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      /* exited between the listing and the read */
    }
  }
  return ns;
}

/**
 * CPU per request of each side (`{ name: { pgid, request } }`, sessions in distinct process groups), in µs: after
 * `warm` requests each, `rounds` rounds in which every side in turn sends `block` sequential requests and then
 * pauses `pauseMs` (so what a request leaves for after its response is counted on its side). Each side's
 * median block and the spread of its blocks. `send(request, count)` sends a block (default: measureLatency, which
 * fails the run on a non-2xx answer); `oneSession: true` lets the sides be kinds of request to the same sessions.
 */
export async function cpuPerRequest(sides, { warm, block, rounds, pauseMs, send = measureLatency, oneSession = false }) {
  if (!oneSession && new Set(Object.values(sides).map((s) => s.pgid)).size !== Object.keys(sides).length)
    throw new Error("two sessions in one process group");
  for (const side of Object.values(sides)) await send(side.request, warm);
  const samples = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, side] of Object.entries(sides)) {
      const before = groupCpuNs(side.pgid);
      await send(side.request, block);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      samples[name].push((groupCpuNs(side.pgid) - before) / block / 1000);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return Object.fromEntries(
    Object.entries(samples).map(([name, xs]) => [
      name,
      { micros: +fmt(median(xs), 0), spread: [+fmt(Math.min(...xs), 0), +fmt(Math.max(...xs), 0)] },
    ]),
  );
}
