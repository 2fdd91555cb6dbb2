#!/usr/bin/env node
// Copies the browser files Ponte serves as Workers static assets (wrangler.toml [assets]) from the
// installed packages into public/vendor/, so the console's charts and the API reference work
// offline and never load anything from a CDN. public/vendor/ is generated (git-ignored); run by
// `npm start`, `npm test` and before a deploy. The versions come from package-lock.json.
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const VENDOR = join(ROOT, "public", "vendor");

/** [package, file inside the package, name under public/vendor/<package>/]. */
export const VENDOR_FILES = [
  ["uplot", "dist/uPlot.iife.min.js", "uPlot.iife.min.js"],
  ["uplot", "dist/uPlot.min.css", "uPlot.min.css"],
  ["swagger-ui-dist", "swagger-ui-bundle.js", "swagger-ui-bundle.js"],
  ["swagger-ui-dist", "swagger-ui.css", "swagger-ui.css"],
];

rmSync(VENDOR, { recursive: true, force: true });
for (const [pkg, from, to] of VENDOR_FILES) {
  const target = join(VENDOR, pkg, to);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(ROOT, "node_modules", pkg, from), target);
}
