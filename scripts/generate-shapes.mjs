#!/usr/bin/env node
// Generates src/compat/upstream-shapes.ts from scripts/catalogue/upstream-shapes.json, checked against
// the catalogue (scripts/catalogue/operations.tsv): every catalogue operation has a shape, with the same upstream
// method and path. The rendered module is passed through biome's formatter so the committed file is lint-clean.
//   node scripts/generate-shapes.mjs          write the module
//   node scripts/generate-shapes.mjs --check  exit 1 if it is stale (or the JSON is inconsistent)
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCatalogue } from "./catalogue/render.mjs";
import { renderShapes } from "./catalogue/shapes.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sourceJson = join(repoRoot, "scripts/catalogue/upstream-shapes.json");
const catalogueTsv = join(repoRoot, "scripts/catalogue/operations.tsv");
const outModule = join(repoRoot, "src/compat/upstream-shapes.ts");
const rel = (p) => relative(process.cwd(), p) || p;

function format(text) {
  const biome = join(repoRoot, "node_modules/.bin/biome");
  return execFileSync(biome, ["format", `--stdin-file-path=${outModule}`], { input: text, encoding: "utf8", cwd: repoRoot });
}

const check = process.argv.includes("--check");
let rendered;
try {
  rendered = format(renderShapes(readFileSync(sourceJson, "utf8"), parseCatalogue(readFileSync(catalogueTsv, "utf8"))));
} catch (err) {
  console.error(`shapes: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
if (check) {
  const committed = existsSync(outModule) ? readFileSync(outModule, "utf8") : null;
  if (committed !== rendered) {
    console.error(`shapes check failed: ${rel(outModule)} is not what ${rel(sourceJson)} generates. Run \`npm run shapes\` and commit.`);
    process.exit(1);
  }
  console.log("upstream shapes are up to date");
} else {
  writeFileSync(outModule, rendered);
  console.log(`wrote ${rel(outModule)} from ${rel(sourceJson)}`);
}
