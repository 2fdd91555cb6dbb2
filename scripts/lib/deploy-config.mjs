// What a deployed environment (production, sandbox) must be given, in one place: the secrets that are set with
// `wrangler secret put` (never written in wrangler.toml), and the check that every binding, var or secret the
// worker's code reads is provided by each environment's configuration or by that secrets list. Used by
// `npm run deploy:check` (scripts/deploy-check.mjs) and documented in docs/operating.md ("Operating Ponte").
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import ts from "typescript";
import { ROOT } from "./local.mjs";

export const DEPLOYED_ENVIRONMENTS = ["production", "sandbox"];

/**
 * Secrets per deployed environment: `wrangler secret put NAME [--env sandbox]`. `required`: the worker refuses to work
 * without it; `rotation`: set only while a key is being rotated (provisioning does not ask for it).
 */
export const SECRETS = [
  {
    name: "SECRETS_ENCRYPTION_KEY",
    required: true,
    what: "AES-256-GCM key (base64 of 32 random bytes) that seals upstream keys and webhook secrets at rest: `openssl rand -base64 32`",
  },
  {
    name: "SECRETS_ENCRYPTION_KEY_PREVIOUS",
    required: false,
    rotation: true,
    what: "during a rotation of SECRETS_ENCRYPTION_KEY only: the key(s) being retired, comma-separated; they open values sealed before the rotation until the cron's re-seal sweep logs that none is left, then `wrangler secret delete` it",
  },
  {
    name: "AWS_PLATFORM_ACCESS_KEY_ID",
    required: false,
    what: "Ponte's own AWS access key id, with which ROLE-type AWS connections assume the merchant's role (only if you offer AWS cost imports by role)",
  },
  {
    name: "AWS_PLATFORM_SECRET_ACCESS_KEY",
    required: false,
    what: "the secret access key of AWS_PLATFORM_ACCESS_KEY_ID",
  },
];

/** The worker's configuration for one environment (`production` is the top level of wrangler.toml). */
export function environmentConfig(environment, tomlText = readFileSync(join(ROOT, "wrangler.toml"), "utf8")) {
  const config = parse(tomlText);
  const section = environment === "production" ? config : config.env?.[environment];
  if (!section) throw new Error(`wrangler.toml has no [env.${environment}]`);
  return { section, top: config };
}

/** Every name the configuration gives the worker's `env` in one environment: vars and bindings of every kind. */
export function providedNames(environment, tomlText) {
  const { section, top } = environmentConfig(environment, tomlText);
  const names = new Set(Object.keys(section.vars ?? {}));
  const list = (v) => (Array.isArray(v) ? v : []);
  for (const d of list(section.d1_databases)) names.add(d.binding);
  for (const q of list(section.queues?.producers)) names.add(q.binding);
  for (const d of list(section.durable_objects?.bindings)) names.add(d.name);
  for (const s of list(section.services)) names.add(s.binding);
  for (const r of list(section.ratelimits)) names.add(r.name);
  for (const k of list(section.kv_namespaces)) names.add(k.binding);
  for (const r of list(section.r2_buckets)) names.add(r.binding);
  // `assets` is inherited by environments from the top level (wrangler's inheritable keys).
  const assets = section.assets ?? top.assets;
  if (assets?.binding) names.add(assets.binding);
  names.delete(undefined);
  return names;
}

/** The properties of the worker's `Env` type (src/config.ts), as TypeScript resolves them: name and whether optional. */
export function envProperties() {
  const configPath = join(ROOT, "src", "config.ts");
  const program = ts.createProgram([configPath, join(ROOT, "worker-configuration.d.ts")], {
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es5.d.ts"], // Omit and friends; nothing else is needed to list the properties
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [], // property names and optionality are all this needs; the binding types stay unresolved
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(configPath);
  const declaration = file?.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === "Env");
  if (!declaration) throw new Error("src/config.ts declares no `interface Env`");
  const type = checker.getTypeAtLocation(declaration.name);
  return checker.getPropertiesOfType(type).map((p) => ({ name: p.name, optional: (p.flags & ts.SymbolFlags.Optional) !== 0 }));
}

/**
 * What is wrong with one environment's configuration: a required `Env` name neither configured nor a listed
 * secret, a listed secret the code never reads, or a secret written into wrangler.toml as a plain var.
 */
export function configurationProblems(environment, { properties = envProperties(), tomlText, secrets = SECRETS } = {}) {
  const provided = providedNames(environment, tomlText);
  const known = new Set(properties.map((p) => p.name));
  const secretNames = new Set(secrets.map((s) => s.name));
  const problems = [];
  for (const p of properties) {
    if (p.optional || provided.has(p.name) || secretNames.has(p.name)) continue;
    problems.push(`${environment}: the code reads env.${p.name}, which wrangler.toml does not bind and no secret provides`);
  }
  for (const s of secrets) {
    if (!known.has(s.name)) problems.push(`${environment}: secret ${s.name} is listed but the Env type has no such name`);
    if (provided.has(s.name))
      problems.push(`${environment}: ${s.name} is a secret but wrangler.toml sets it as a var (use wrangler secret put)`);
  }
  problems.push(...hostnameProblems(environment, tomlText));
  return problems;
}

/** PUBLIC_BASE_URL (what links are built on) must name a host the environment is served on (its routes), when it has routes. */
export function hostnameProblems(environment, tomlText) {
  const { section } = environmentConfig(environment, tomlText);
  const routes = (Array.isArray(section.routes) ? section.routes : []).map((r) => (typeof r === "string" ? r : r.pattern));
  if (routes.length === 0) return [];
  let host;
  try {
    host = new URL(section.vars?.PUBLIC_BASE_URL ?? "").host;
  } catch {
    return [`${environment}: PUBLIC_BASE_URL is not a URL`];
  }
  const served = routes.some((r) => r.split("/")[0] === host);
  return served ? [] : [`${environment}: PUBLIC_BASE_URL host ${host} is none of the routes (${routes.join(", ")})`];
}
