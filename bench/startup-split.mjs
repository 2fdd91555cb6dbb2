#!/usr/bin/env node
// What start-up would cost if the worker were uploaded as separate modules (an experiment, not how Ponte
// deploys): bench:startup's profile shows that what is left at start-up is the single bundle's own top level
// — esbuild's export getters for every namespace in the bundle (~1,060, mostly zod's, defined even for
// modules that are evaluated later) and the 2.5 MB module's ~1,500 hoisted function declarations — not the
// ~20 modules Ponte evaluates. This builds src/index.ts with esbuild's code splitting (one ES module per
// lazily imported part, as the dynamic imports in src/index.ts, src/lazy-app.ts and src/route-groups.ts
// already delimit them) and profiles its start-up beside the bundle `wrangler deploy` uploads, alternating
// RUNS times, both through `wrangler check startup` (no_bundle, every module uploaded, as a deploy of such a
// build would upload them). Prints one JSON line: start-up CPU of each (median; bench/lib/startup-profile.mjs).
//   npm run bench:startup-split          (RUNS=7 to change)
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { ROOT } from "../scripts/lib/local.mjs";
import { envNumber, loadAverage, printSummary } from "./lib/harness.mjs";
import { median, profileStartup, runWrangler } from "./lib/startup-profile.mjs";

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
      `main = "${join(modulesDir, "index.js")}"`,
      `compatibility_date = ${setting("compatibility_date")}`,
      `compatibility_flags = ${setting("compatibility_flags")}`,
      "no_bundle = true",
      "find_additional_modules = true",
      `base_dir = "${modulesDir}"`,
      'rules = [{ type = "ESModule", globs = ["**/*.js"], fallthrough = true }]',
      "",
    ].join("\n"),
  );
  return config;
}

const loadBefore = loadAverage();
// The bundle as deployed (wrangler's own build), and the same entry split by esbuild.
runWrangler(["deploy", "--dry-run", "--outdir", join(dir, "bundle")]);
rmSync(join(dir, "bundle", "index.js.map"));
rmSync(join(dir, "bundle", "README.md"), { force: true });
await build({
  entryPoints: [join(ROOT, "src/index.ts")],
  outdir: join(dir, "split"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  keepNames: true,
  external: ["cloudflare:*", "node:*"],
  mainFields: ["module", "main"],
  conditions: ["workerd", "worker", "import"],
  logLevel: "error",
});
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
