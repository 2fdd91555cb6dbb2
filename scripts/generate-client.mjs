#!/usr/bin/env node
// `npm run client:generate`: writes clients/typescript/src/schema.d.ts, the typed client's schema,
// from the OpenAPI document the worker serves, without running a server: esbuild bundles src/app.ts
// (as sim/build.mjs bundles the simulator) into a temporary file, which this script imports to build
// the app and generate its document (openApiDocumentOf, the same call GET /api/v1/openapi.json makes).
import { build } from "esbuild";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { renderSchema } from "./lib/typescript-client.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const SCHEMA_FILE = join(ROOT, "clients", "typescript", "src", "schema.d.ts");

const dir = mkdtempSync(join(tmpdir(), "ponte-client-"));
try {
  const bundle = join(dir, "app.mjs");
  await build({
    entryPoints: [join(ROOT, "src", "app.ts")],
    outfile: bundle,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "es2022",
    external: ["cloudflare:*"],
    legalComments: "none",
    logLevel: "warning",
  });
  const { buildApp, openApiDocumentOf } = await import(pathToFileURL(bundle).href);
  const schema = await renderSchema(await openApiDocumentOf(await buildApp()));
  writeFileSync(SCHEMA_FILE, schema);
  console.log(`wrote ${SCHEMA_FILE.slice(ROOT.length + 1)} (${schema.length} characters)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
