#!/usr/bin/env node
// `npm run deploy:check`: what CI runs to know that production and sandbox still deploy. For each deployed
// environment it compares the bindings, vars and secrets the code reads (the Env type of src/config.ts) with
// wrangler.toml and the secrets list (scripts/lib/deploy-config.mjs), then bundles the worker exactly as
// `wrangler deploy` would, with --dry-run (offline: nothing is uploaded, no account is needed). Exits 1 on any problem.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configurationProblems, DEPLOYED_ENVIRONMENTS, envProperties, SECRETS } from "./lib/deploy-config.mjs";
import { wrangler } from "./lib/local.mjs";

const properties = envProperties();
let failed = false;
for (const environment of DEPLOYED_ENVIRONMENTS) {
  const problems = configurationProblems(environment, { properties });
  for (const p of problems) console.error(`✗ ${p}`);
  const out = mkdtempSync(join(tmpdir(), `ponte-deploy-${environment}-`));
  try {
    wrangler(["deploy", "--dry-run", "--outdir", out, ...(environment === "production" ? [] : ["--env", environment])]);
    if (problems.length === 0) {
      const secrets = SECRETS.map((s) => `${s.name}${s.required ? "" : " (optional)"}`).join(", ");
      console.log(
        `✓ ${environment}: configuration matches the code's ${properties.length} Env names; bundle built (secrets to set: ${secrets})`,
      );
    }
  } catch (err) {
    console.error(`✗ ${environment}: wrangler deploy --dry-run failed\n${err.stderr ?? err.stdout ?? err.message}`);
    failed = true;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  if (problems.length > 0) failed = true;
}
process.exit(failed ? 1 : 0);
