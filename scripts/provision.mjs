#!/usr/bin/env node
// `npm run provision -- --env sandbox|production [--hostname api.example.com] [--dry-run]` (scripts/lib/provision.mjs):
// creates or finds what wrangler.toml's environment needs on the Cloudflare account, writes the ids into wrangler.toml,
// applies the D1 migrations remotely and lists the secrets still to set. Run `npx wrangler login` first.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DEPLOYED_ENVIRONMENTS } from "./lib/deploy-config.mjs";
import { ROOT, wrangler } from "./lib/local.mjs";
import { provision } from "./lib/provision.mjs";

const { values } = parseArgs({
  options: { env: { type: "string" }, hostname: { type: "string" }, "dry-run": { type: "boolean", default: false } },
});
if (!DEPLOYED_ENVIRONMENTS.includes(values.env ?? "")) {
  console.error(`usage: npm run provision -- --env ${DEPLOYED_ENVIRONMENTS.join("|")} [--hostname api.example.com] [--dry-run]`);
  process.exit(2);
}
const environment = values.env;
const dryRun = values["dry-run"];
const path = join(ROOT, "wrangler.toml");
const tomlText = readFileSync(path, "utf8");
try {
  const result = await provision({
    environment,
    tomlText,
    dryRun,
    hostname: values.hostname,
    run: (args) => wrangler(args),
    say: console.log,
  });
  if (result.tomlChanged) {
    if (dryRun) console.log("wrangler.toml would change (run without --dry-run to write it)");
    else {
      writeFileSync(path, result.tomlText);
      console.log("✓ wrangler.toml updated: commit it");
    }
  }
  const envFlag = environment === "production" ? "" : ` --env ${environment}`;
  if (result.secrets.length > 0) console.log("\nSecrets not set yet (each command asks for the value):");
  for (const s of result.secrets) console.log(`  ${s.command}    # ${s.required ? "required" : "optional"}: ${s.what}`);
  console.log(
    `\nThen deploy and smoke-test:\n  npx wrangler deploy${envFlag}\n  npm run smoke -- --base ${result.resources.publicBaseUrl} --key <a ponte_test_ key>`,
  );
} catch (err) {
  console.error(`✗ provision failed: ${err.stderr || err.message}`);
  process.exit(1);
}
