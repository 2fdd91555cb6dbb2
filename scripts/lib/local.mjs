// Local state for `npm start` and `npm run seed`: the same .wrangler/state that `wrangler dev --env local` uses.
import { execFileSync } from "node:child_process";
import { createHash, randomInt } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
// The pinned Node 22 (every npm script runs it) strips the types of a .ts module, so scripts import the worker's tables.
import { PERMISSIONS } from "../../src/lib/permissions.ts";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const BIN = join(ROOT, "node_modules", ".bin");
const WRANGLER = join(BIN, "wrangler");

/** The repo's pinned Node 22 (node_modules/.bin/node) first on PATH: wrangler needs Node >= 22. */
export const toolEnv = (extra = {}) => ({
  ...process.env,
  PATH: `${BIN}:${process.env.PATH ?? ""}`,
  WRANGLER_SEND_METRICS: "false",
  // No network is needed locally: Request.cf gets wrangler's placeholder instead of a failed fetch from workers.cloudflare.com.
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  ...extra,
});

// Fixed ids so repeated runs find the same demo tenant.
export const DEMO = {
  organizationId: "01900000-0000-7000-8000-00000000d001",
  workspaceId: "01900000-0000-7000-8000-00000000d002",
  gatewayAccountId: "01900000-0000-7000-8000-00000000d003",
  /** The simulator accepts any `$aact_` key; each is its own simulated upstream account. */
  upstreamApiKey: "$aact_hmlg_ponte_demo_account",
};

/** Every permission, for the seeded key: the worker's own table (src/lib/permissions.ts), imported, not copied. */
export const PERMISSIONS_ALL = [...PERMISSIONS];

/** `wrangler dev` of the API with the upstream simulator beside it (`--env local`) on `port`: `npm start`, the e2e and browser tests. */
export const localDevArgs = (port, extra = []) => [
  "dev",
  "-c",
  "wrangler.toml",
  "-c",
  "sim/wrangler.toml",
  "--env",
  "local",
  "--port",
  String(port),
  "--show-interactive-dev-session=false",
  ...extra,
];

/** Runs wrangler quietly; its chatter goes to stderr so `--json` stdout stays one object. */
export function wrangler(args, { quiet = true } = {}) {
  return execFileSync(WRANGLER, args, {
    cwd: ROOT,
    env: toolEnv({ CI: "true", NO_UPDATE_NOTIFIER: "1" }),
    stdio: ["ignore", quiet ? "pipe" : "inherit", quiet ? "pipe" : "inherit"],
    encoding: "utf8",
  });
}

/** PONTE_PERSIST_DIR points seeding (and the matching `wrangler dev --persist-to`) at another state directory, e.g. for benchmarks. */
const persistArgs = () => (process.env.PONTE_PERSIST_DIR ? ["--persist-to", process.env.PONTE_PERSIST_DIR] : []);

export function applyMigrations() {
  wrangler(["d1", "migrations", "apply", "DB", "--local", "--env", "local", ...persistArgs()]);
}

export function executeSql(sql) {
  const dir = mkdtempSync(join(tmpdir(), "ponte-seed-"));
  const file = join(dir, "seed.sql");
  writeFileSync(file, sql);
  try {
    return wrangler(["d1", "execute", "DB", "--local", "--env", "local", ...persistArgs(), "--file", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One read against the local D1: the rows of its (single) result. */
export function querySql(sql) {
  const out = wrangler(["d1", "execute", "DB", "--local", "--env", "local", ...persistArgs(), "--json", "--command", sql]);
  const parsed = JSON.parse(out.slice(out.indexOf("[")));
  return parsed[0]?.results ?? [];
}

export const sqlString = (v) => (v === null || v === undefined ? "NULL" : `'${String(v).replaceAll("'", "''")}'`);

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Same format and hashing as src/access/api-key-secret.ts. */
export function newTestKey() {
  let secret = "";
  for (let i = 0; i < 40; i++) secret += BASE62[randomInt(62)];
  const key = `ponte_test_${secret}`;
  return { key, hash: createHash("sha256").update(key).digest("hex"), displayPrefix: key.slice(0, 15), last4: key.slice(-4) };
}

export { uuidv7 } from "./seed-gateway.mjs";
