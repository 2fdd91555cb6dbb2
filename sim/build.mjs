#!/usr/bin/env node
// Bundles the simulator to sim/dist/index.js (one ES module) for use as an auxiliary worker
// in Ponte's own tests: miniflare `workers: [{ name: "ponte-upstream-sim", modules: true, scriptPath: "sim/dist/index.js" }]`.
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

await build({
  entryPoints: [join(here, "src/index.ts")],
  outfile: join(here, "dist/index.js"),
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  mainFields: ["module", "main"],
  conditions: ["workerd", "worker", "browser", "import"],
  external: ["cloudflare:*"],
  legalComments: "none",
  logLevel: "info",
});
