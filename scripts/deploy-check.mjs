#!/usr/bin/env node
// `npm run deploy:check`: what CI runs to know that production and sandbox still deploy. For each deployed
// environment it compares the bindings, vars and secrets the code reads (the Env type of src/config.ts) with
// wrangler.toml and the secrets list (scripts/lib/deploy-config.mjs), then builds the worker exactly as
// `wrangler deploy` would, with --dry-run (offline: nothing is uploaded, no account is needed): the [build] command
// (scripts/build-worker.mjs) and the modules it writes, which must include the entry and the parts it imports.
// Exits 1 on any problem.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configurationProblems, DEPLOYED_ENVIRONMENTS, envProperties, SECRETS } from "./lib/deploy-config.mjs";
import { wrangler } from "./lib/local.mjs";

const properties = envProperties();
let failed = false;
for (const environment of DEPLOYED_ENVIRONMENTS) {
  const problems = configurationProblems(environment, { properties });
  const out = mkdtempSync(join(tmpdir(), `ponte-deploy-${environment}-`));
  let modules = [];
  try {
    wrangler(["deploy", "--dry-run", "--outdir", out, ...(environment === "production" ? [] : ["--env", environment])]);
    modules = readdirSync(out).filter((f) => f.endsWith(".mjs"));
    if (!modules.includes("index.ponte.mjs") || modules.length < 2)
      problems.push(
        `${environment}: the dry run uploaded ${modules.length} module(s), not the split build (index.ponte.mjs and its parts)`,
      );
  } catch (err) {
    problems.push(`${environment}: wrangler deploy --dry-run failed\n${err.stderr ?? err.stdout ?? err.message}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  for (const p of problems) console.error(`✗ ${p}`);
  if (problems.length > 0) {
    failed = true;
    continue;
  }
  const secrets = SECRETS.map((s) => `${s.name}${s.required ? "" : " (optional)"}`).join(", ");
  console.log(
    `✓ ${environment}: configuration matches the code's ${properties.length} Env names; worker built, ${modules.length} modules (secrets to set: ${secrets})`,
  );
}
process.exit(failed ? 1 : 0);
