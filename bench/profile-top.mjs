#!/usr/bin/env node
// The functions with the most self time and the most inclusive time in a V8 CPU profile (.cpuprofile,
// as `PROFILE=dir npm run bench:js` or bench:profile write them), as shares of the profile.
//   node bench/profile-top.mjs dir/authenticatedRead.cpuprofile [TOP]
import { readFileSync } from "node:fs";

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error("usage: node bench/profile-top.mjs <file.cpuprofile> [TOP]");
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map();
for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
const nameOf = (n) => `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber + 1}`;

const sampled = new Map(); // node id → µs
profile.samples.forEach((id, i) => {
  sampled.set(id, (sampled.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const self = new Map();
const inclusive = new Map();
let total = 0;
for (const [id, us] of sampled) {
  if (byId.get(id).callFrame.url === "node:inspector") continue; // the profiler starting itself, not the code measured
  total += us;
  const name = nameOf(byId.get(id));
  self.set(name, (self.get(name) ?? 0) + us);
  const seen = new Set(); // a recursive function counts once per sample
  for (let cur = id; cur !== undefined; cur = parentOf.get(cur)) {
    const n = nameOf(byId.get(cur));
    if (!seen.has(n)) inclusive.set(n, (inclusive.get(n) ?? 0) + us);
    seen.add(n);
  }
}
const print = (title, m) => {
  console.log(`\n${title}`);
  for (const [name, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * us) / total).toFixed(1).padStart(6)} %  ${name}`);
};
print("self time", self);
print("inclusive time", inclusive);
