#!/usr/bin/env node
// `npm run types` (and `--check` in `npm run typecheck`): worker-configuration.d.ts from wrangler.toml, as
// `wrangler types --include-runtime=false --env-interface WorkerBindings` writes it, with the Durable Object
// classes typed from the source. wrangler types names the classes by `main` (`import("./src/index").EndpointDO`),
// and wrangler.toml's main is the built entry (dist/worker/index.ponte.mjs: scripts/build-worker.mjs), which has no
// types and is not there on a fresh clone; so wrangler types reads a copy of wrangler.toml whose main is
// src/index.ts, written beside it (relative paths resolve alike) and removed afterwards.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, toolEnv } from "./lib/local.mjs";

const BUILT_MAIN = 'main = "dist/worker/index.ponte.mjs"';
const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
if (!toml.includes(BUILT_MAIN)) throw new Error(`wrangler.toml has no \`${BUILT_MAIN}\` line; update scripts/worker-types.mjs`);
const config = join(ROOT, ".wrangler-types.toml");
writeFileSync(config, toml.replace(BUILT_MAIN, 'main = "src/index.ts"'));
try {
  execFileSync(
    join(ROOT, "node_modules", ".bin", "wrangler"),
    ["types", "-c", ".wrangler-types.toml", "--include-runtime=false", "--env-interface", "WorkerBindings", ...process.argv.slice(2)],
    { cwd: ROOT, env: toolEnv(), stdio: "inherit" },
  );
} catch (err) {
  process.exitCode = err.status ?? 1;
} finally {
  rmSync(config, { force: true });
}
