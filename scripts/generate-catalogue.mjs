#!/usr/bin/env node
// Generates src/compat/catalogue.ts from the operation catalogue.
// Source of truth: ../shared/compat/operations.tsv (copied byte-for-byte to
// scripts/catalogue/operations.tsv); a fresh clone without ../shared uses the vendored copy.
//   node scripts/generate-catalogue.mjs          write the vendored TSV and the module
//   node scripts/generate-catalogue.mjs --check  exit 1 if either is stale
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { renderCatalogue } from "./catalogue/render.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sharedTsv = resolve(repoRoot, "../shared/compat/operations.tsv");
const vendoredTsv = join(repoRoot, "scripts/catalogue/operations.tsv");
const outModule = join(repoRoot, "src/compat/catalogue.ts");
const rel = (p) => relative(process.cwd(), p) || p;

const check = process.argv.includes("--check");
const hasShared = existsSync(sharedTsv);
const sourceBytes = readFileSync(hasShared ? sharedTsv : vendoredTsv);
const rendered = renderCatalogue(sourceBytes.toString("utf8"));

if (check) {
  const problems = [];
  if (hasShared) {
    const vendored = existsSync(vendoredTsv) ? readFileSync(vendoredTsv) : null;
    if (!vendored?.equals(sourceBytes)) {
      problems.push(`${rel(vendoredTsv)} differs from ${rel(sharedTsv)}`);
    }
  }
  const committed = existsSync(outModule) ? readFileSync(outModule, "utf8") : null;
  if (committed !== rendered) problems.push(`${rel(outModule)} is not what operations.tsv generates`);
  if (problems.length > 0) {
    for (const p of problems) console.error(`catalogue check failed: ${p}`);
    console.error("Run `node scripts/generate-catalogue.mjs` and commit the result.");
    process.exit(1);
  }
  console.log("catalogue is up to date");
} else {
  if (hasShared) {
    mkdirSync(dirname(vendoredTsv), { recursive: true });
    writeFileSync(vendoredTsv, sourceBytes);
  }
  mkdirSync(dirname(outModule), { recursive: true });
  writeFileSync(outModule, rendered);
  console.log(`wrote ${rel(outModule)} (${hasShared ? `from ${rel(sharedTsv)}` : "from vendored copy"})`);
}
