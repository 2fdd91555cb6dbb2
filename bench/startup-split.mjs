#!/usr/bin/env node
// The A/B behind the worker's build: start-up CPU of the split build Ponte deploys (scripts/build-worker.mjs:
// esbuild's code splitting, one ES module per lazily imported part, uploaded module by module) beside the single
// bundle it replaced (the same build with `splitting: false`, one module, as `wrangler deploy` bundled
// src/index.ts until 2026-11-27), alternating RUNS times, both through `wrangler check startup` (no_bundle,
// every module uploaded as it is). What the single bundle pays for: esbuild hoists every module's function
// declarations (~1,500) and every namespace's export getters (~1,060, mostly zod's) to the one module's top level,
// so start-up evaluates them although most modules run later. Prints one JSON line: start-up CPU of each
// (median; bench/lib/startup-profile.mjs).
//   npm run bench:startup-split          (RUNS=7 to change)
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWorker } from "../scripts/build-worker.mjs";
import { ROOT } from "../scripts/lib/local.mjs";
import { envNumber, loadAverage, printSummary } from "./lib/harness.mjs";
import { median, profileStartup } from "./lib/startup-profile.mjs";

const RUNS = envNumber("RUNS", 7);
const dir = mkdtempSync(join(tmpdir(), "ponte-bench-startup-split-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const wranglerToml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
const setting = (name) => new RegExp(`^${name} = (.+)$`, "m").exec(wranglerToml)?.[1];

/** A config directory whose worker is `modules` (the main one first) uploaded as they are. */
function configFor(name, modulesDir) {
  const config = join(dir, name);
  mkdirSync(config);
  writeFileSync(
    join(config, "wrangler.toml"),
    [
      `name = "ponte-startup-${name.replace("-config", "")}"`,
      `main = "${join(modulesDir, "index.ponte.mjs")}"`,
      `compatibility_date = ${setting("compatibility_date")}`,
      `compatibility_flags = ${setting("compatibility_flags")}`,
      "no_bundle = true",
      "find_additional_modules = true",
      `base_dir = "${modulesDir}"`,
      'rules = [{ type = "ESModule", globs = ["**/*.ponte.mjs"] }]',
      "",
    ].join("\n"),
  );
  return config;
}

const loadBefore = loadAverage();
// The single bundle and the split build, the same options otherwise (no source maps: only modules are uploaded).
await buildWorker({ outdir: join(dir, "bundle"), splitting: false });
await buildWorker({ outdir: join(dir, "split") });
for (const d of ["bundle", "split"]) for (const f of readdirSync(join(dir, d))) if (f.endsWith(".map")) rmSync(join(dir, d, f));
const sizeOf = (d) => readdirSync(d).reduce((sum, f) => sum + statSync(join(d, f)).size, 0);
const variants = { bundle: configFor("bundle-config", join(dir, "bundle")), split: configFor("split-config", join(dir, "split")) };
const runs = { bundle: [], split: [] };
for (let i = 0; i < RUNS; i++) {
  for (const [name, config] of Object.entries(variants)) runs[name].push(profileStartup(join(dir, `${name}-${i}.cpuprofile`), config));
}
const ms = (n) => +n.toFixed(1);
const cpu = (name) => runs[name].map((r) => ms(r.cpuMs));
console.log(JSON.stringify({ runs: { bundle: cpu("bundle"), split: cpu("split") }, load: { before: loadBefore, after: loadAverage() } }));
printSummary({
  bench: "startup-split",
  bundleCpuMs: ms(median(runs.bundle.map((r) => r.cpuMs))),
  splitCpuMs: ms(median(runs.split.map((r) => r.cpuMs))),
  bundleBytes: sizeOf(join(dir, "bundle")),
  splitModules: readdirSync(join(dir, "split")).length,
  splitBytes: sizeOf(join(dir, "split")),
});
