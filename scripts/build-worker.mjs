#!/usr/bin/env node
// The worker's build (wrangler.toml `[build] command`: wrangler runs it before `wrangler dev`, `wrangler deploy`,
// `wrangler check startup`, and again in dev whenever src/ changes). esbuild bundles src/index.ts with code
// splitting into dist/worker/ — one ES module for the entry and what it imports statically, and one per part
// of the API that src/index.ts, src/lazy-app.ts and src/route-groups.ts import on first use — and wrangler
// uploads those modules as they are (`no_bundle`, `find_additional_modules`, `base_dir`). A single bundle made
// start-up evaluate every module's hoisted functions and export getters (~10 ms); the split entry ~2–3 ms
// (docs/architecture.md, "The worker build"). The options are wrangler's own bundler's (its conditions, target,
// names kept, NODE_ENV defined), so modules resolve as they did when wrangler bundled `src/index.ts`.
//   node scripts/build-worker.mjs [--outdir DIR] [--no-splitting]
// `--no-splitting` writes the same build as one module (bench:startup-split's A/B of the single bundle).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const WORKER_OUTDIR = join(ROOT, "dist", "worker");

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir, prefix = "") {
  let entries;
  try {
    entries = readdirSync(join(dir, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)]));
}

/**
 * Builds the worker into `outdir`. Each file is written to a temporary name and renamed into place, and only
 * when its content changed, so a `wrangler dev` reading the directory while another session rebuilds it never
 * sees a half-written module; files of an earlier build that this one no longer has are removed, since
 * `find_additional_modules` uploads every module in the directory. Resolves to the module paths written.
 */
export async function buildWorker({ outdir = WORKER_OUTDIR, splitting = true } = {}) {
  const nodeEnv = JSON.stringify(process.env.NODE_ENV || "production");
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { index: "src/index.ts" },
    outdir,
    write: false,
    bundle: true,
    splitting,
    format: "esm",
    // As wrangler's bundler: the browser platform's main fields with the workerd conditions, its target and
    // the newer syntax workerd runs natively. Unlike it, names are not kept: `keepNames` wraps every function
    // expression in `__name(fn, "name")` (an Object.defineProperty) where it is created, which is on every
    // request for the ~20 arrow-function fields of each Hono Context and HonoRequest (2–3 % of Ponte's isolate
    // under the passthrough load, docs/benchmarks.md "The passthrough"). Unminified, JavaScript names functions
    // and classes itself; only a symbol esbuild renames for a clash in its chunk (`Hono2`) shows the new name,
    // and no code reads a function's name except the logs' error class (src/lib/log.ts: no error class is renamed).
    // KEEP_NAMES=on builds with them (for an A/B).
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    target: "es2024",
    supported: { "import-source": true, using: true },
    keepNames: process.env.KEEP_NAMES === "on",
    define: {
      "process.env.NODE_ENV": nodeEnv,
      "global.process.env.NODE_ENV": nodeEnv,
      "globalThis.process.env.NODE_ENV": nodeEnv,
    },
    // The runtime's own modules: cloudflare:workers, and node:* under the nodejs_compat flag.
    external: ["cloudflare:*", "node:*"],
    // *.ponte.mjs: the one suffix wrangler.toml's ESModule rule names (no package in node_modules has it; see there).
    outExtension: { ".js": ".ponte.mjs" },
    sourcemap: "linked",
    logLevel: "warning",
  });
  mkdirSync(outdir, { recursive: true });
  const written = new Set();
  for (const file of result.outputFiles) {
    const name = relative(outdir, file.path);
    written.add(name);
    let current = null;
    try {
      current = readFileSync(file.path);
    } catch {
      /* new file */
    }
    if (current?.equals(file.contents)) continue;
    mkdirSync(dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  for (const name of filesUnder(outdir)) {
    if (!written.has(name) && !name.endsWith(".tmp")) rmSync(join(outdir, name), { force: true });
  }
  return [...written].filter((name) => name.endsWith(".mjs"));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { outdir: { type: "string" }, "no-splitting": { type: "boolean", default: false } } });
  const started = performance.now();
  const modules = await buildWorker({ outdir: values.outdir ? resolve(values.outdir) : WORKER_OUTDIR, splitting: !values["no-splitting"] });
  console.log(
    `worker built: ${modules.length} module${modules.length === 1 ? "" : "s"} in ${relative(process.cwd(), values.outdir ? resolve(values.outdir) : WORKER_OUTDIR) || "."} (${Math.round(performance.now() - started)} ms)`,
  );
}
