// `npm run provision -- --env sandbox|production [--hostname api.example.com] [--dry-run]`: makes an empty Cloudflare
// account ready for `wrangler deploy`, and is safe to run again. Everything it creates is read from wrangler.toml
// (never a hard-coded list): each D1 database is found by name in `wrangler d1 list --json` or created, and its id
// written into wrangler.toml; each queue is found with `wrangler queues info` or created; D1 migrations are applied
// remotely; the secrets of the SECRETS table not yet set are listed with their `wrangler secret put` commands.
// Durable Objects need nothing here: `wrangler deploy` applies the [[migrations]] tags. The command runner is
// injected, so tests replay recorded wrangler outputs and nothing reaches the network.
import { SECRETS, environmentConfig } from "./deploy-config.mjs";

const list = (v) => (Array.isArray(v) ? v : []);
const envArgs = (environment) => (environment === "production" ? [] : ["--env", environment]);
const sectionPrefix = (environment) => (environment === "production" ? "" : `env.${environment}.`);

/** What one environment of wrangler.toml needs to exist on the account. */
export function requiredResources(environment, tomlText) {
  const { section } = environmentConfig(environment, tomlText);
  const queues = new Set([...list(section.queues?.producers), ...list(section.queues?.consumers)].map((q) => q.queue));
  return {
    worker: section.name,
    databases: list(section.d1_databases).map((d) => ({ binding: d.binding, name: d.database_name, id: d.database_id })),
    queues: [...queues],
    durableObjects: list(section.durable_objects?.bindings).map((d) => ({ binding: d.name, className: d.class_name })),
    migrationTags: list(section.migrations).map((m) => m.tag),
    routes: list(section.routes).map((r) => (typeof r === "string" ? r : r.pattern)),
    publicBaseUrl: section.vars?.PUBLIC_BASE_URL,
  };
}

/** The key lines of the table whose header is at `at` (-1: the top level, before any header): [start, end). */
function tableAt(lines, at) {
  let end = at + 1;
  while (end < lines.length && !/^\s*\[/.test(lines[end])) end++;
  return [at + 1, end];
}

/** The tables headed `header` (`null`: the top level), as line ranges. */
function tables(lines, header) {
  if (header === null) return [tableAt(lines, -1)];
  const found = lines.flatMap((l, i) => (l.trim() === header ? [tableAt(lines, i)] : []));
  if (found.length === 0) throw new Error(`wrangler.toml has no ${header}`);
  return found;
}

/** Sets `key = value` (value: TOML text) in a table, replacing its line or adding one at the table's end. */
function setKey(lines, [start, end], key, value) {
  const at = lines.slice(start, end).findIndex((l) => new RegExp(`^\\s*${key}\\s*=`).test(l));
  if (at >= 0) lines[start + at] = `${key} = ${value}`;
  else {
    let last = end;
    while (last > start && lines[last - 1].trim() === "") last--;
    lines.splice(last, 0, `${key} = ${value}`);
  }
}

/** wrangler.toml with one database's id set (the [[…d1_databases]] table whose database_name is `name`). */
export function withDatabaseId(tomlText, environment, name, id) {
  const lines = tomlText.split("\n");
  const header = `[[${sectionPrefix(environment)}d1_databases]]`;
  const range = tables(lines, header).find(([s, e]) => lines.slice(s, e).some((l) => l.replace(/\s/g, "") === `database_name="${name}"`));
  if (!range) throw new Error(`wrangler.toml has no ${header} named ${name}`);
  setKey(lines, range, "database_id", JSON.stringify(id));
  return lines.join("\n");
}

/**
 * wrangler.toml with the environment served on `hostname` (a Custom Domain: Cloudflare creates its DNS record and
 * certificate on deploy) and PUBLIC_BASE_URL, which every link Ponte hands out is built on, set to match.
 */
export function withHostname(tomlText, environment, hostname) {
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(hostname)) {
    throw new Error(`--hostname ${hostname} is not a host name (e.g. api.example.com)`);
  }
  const lines = tomlText.split("\n");
  const [range] = tables(lines, environment === "production" ? null : `[env.${environment}]`);
  setKey(lines, range, "routes", `[{ pattern = ${JSON.stringify(hostname)}, custom_domain = true }]`);
  const origin = `https://${hostname}`;
  if (environment === "production") {
    setKey(lines, tables(lines, "[vars]")[0], "PUBLIC_BASE_URL", JSON.stringify(origin));
  } else {
    const [s, e] = range;
    const at = lines.slice(s, e).findIndex((l) => /^\s*vars\s*=\s*\{.*PUBLIC_BASE_URL\s*=/.test(l));
    if (at < 0) throw new Error(`[env.${environment}] has no inline vars with PUBLIC_BASE_URL`);
    lines[s + at] = lines[s + at].replace(/PUBLIC_BASE_URL\s*=\s*"[^"]*"/, `PUBLIC_BASE_URL = ${JSON.stringify(origin)}`);
  }
  return lines.join("\n");
}

const notFound = (err) => /not[ _]?found|does not exist|10006|11000/i.test(`${err.stderr ?? ""}${err.stdout ?? ""}${err.message ?? ""}`);

/**
 * Provisions one environment. `run(args)` runs wrangler and returns its stdout (throws on a non-zero exit, with
 * `stderr`); with `dryRun` nothing is run and every command is only shown. `say(line)` reports each step. Returns the
 * commands run (or shown), the configuration as it should now be, and the secrets still to set.
 */
export async function provision({ environment, tomlText, run, dryRun = false, hostname, say = () => {} }) {
  const commands = [];
  const exec = (args, { reads = false } = {}) => {
    commands.push(["wrangler", ...args].join(" "));
    if (dryRun) {
      say(`  would run: wrangler ${args.join(" ")}`);
      return reads ? null : "";
    }
    say(`  $ wrangler ${args.join(" ")}`);
    return run(args);
  };
  let toml = tomlText;
  if (hostname) {
    toml = withHostname(toml, environment, hostname);
    say(`hostname: ${environment} served on https://${hostname} (Custom Domain; PUBLIC_BASE_URL set to match)`);
  }
  const needs = requiredResources(environment, toml);
  say(`${environment}: worker ${needs.worker}`);

  // D1: found by name, created when missing; its id goes into wrangler.toml.
  const listDatabases = () => {
    const out = exec(["d1", "list", "--json"], { reads: true });
    return out === null ? null : JSON.parse(out.slice(out.indexOf("[")));
  };
  let databases = needs.databases.length > 0 ? listDatabases() : [];
  for (const db of needs.databases) {
    let found = databases?.find((d) => d.name === db.name);
    if (databases !== null && found) say(`✓ D1 ${db.name} exists (${found.uuid})`);
    else {
      exec(["d1", "create", db.name]);
      if (dryRun) {
        say(`  (only if ${db.name} is not in the list) then its id is written into wrangler.toml as database_id`);
        continue;
      }
      databases = listDatabases();
      found = databases.find((d) => d.name === db.name);
      if (!found) throw new Error(`D1 ${db.name} was created but is not in \`wrangler d1 list\``);
      say(`✓ D1 ${db.name} created (${found.uuid})`);
    }
    if (found.uuid !== db.id) {
      toml = withDatabaseId(toml, environment, db.name, found.uuid);
      say(`  wrangler.toml: database_id = "${found.uuid}" for ${db.name}`);
    }
  }

  // Queues: `wrangler queues list` prints only a table, so each is asked for by name.
  for (const queue of needs.queues) {
    if (dryRun) {
      exec(["queues", "info", queue], { reads: true });
      exec(["queues", "create", queue]);
      say(`  (create only if info says the queue does not exist)`);
      continue;
    }
    try {
      exec(["queues", "info", queue], { reads: true });
      say(`✓ queue ${queue} exists`);
    } catch (err) {
      if (!notFound(err)) throw err;
      exec(["queues", "create", queue]);
      say(`✓ queue ${queue} created`);
    }
  }

  const classes = needs.durableObjects.map((d) => `${d.binding} (${d.className})`).join(", ");
  say(`• Durable Objects ${classes}: created by \`wrangler deploy\` from the [[migrations]] tags ${needs.migrationTags.join(", ")}`);
  for (const route of needs.routes) say(`• ${route}: attached by \`wrangler deploy\` (DNS record and certificate included)`);

  for (const db of needs.databases) exec(["d1", "migrations", "apply", db.binding, "--remote", ...envArgs(environment)]);

  // Secrets: those already set on the worker are listed by name (the worker may not exist before its first deploy).
  let set = [];
  if (!dryRun) {
    try {
      set = JSON.parse(exec(["secret", "list", "--format", "json", ...envArgs(environment)], { reads: true })).map((s) => s.name);
    } catch {
      set = [];
    }
  } else exec(["secret", "list", "--format", "json", ...envArgs(environment)], { reads: true });
  const missing = SECRETS.filter((s) => !s.rotation && !set.includes(s.name));
  const secretCommands = missing.map((s) => ({
    name: s.name,
    required: s.required,
    command: ["npx", "wrangler", "secret", "put", s.name, ...envArgs(environment)].join(" "),
    what: s.what,
  }));
  return { commands, tomlText: toml, secrets: secretCommands, resources: needs, tomlChanged: toml !== tomlText };
}
