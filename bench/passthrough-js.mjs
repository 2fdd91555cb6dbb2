#!/usr/bin/env node
// What Ponte's own JavaScript costs per passthrough request (`GET /api/v1/finance/balance`, Bearer),
// apart from the runtime and the I/O: the `finance` segment's app (as src/lazy-app.ts builds it) is
// bundled with esbuild and driven in this Node process with stand-in bindings — a D1 that answers the
// key lookup and the gateway account at once, a rate limiter that always allows, an UPSTREAM that
// answers the simulator's balance body, log stores that accept every append. Authentication, the
// permission, the rate limiter's bookkeeping, the credential cache, the upstream call's headers and
// timeout, the call log's buffer and flush, the Bearer vocabulary and the envelope run for real.
// Beside it, the bare forwarder (bench/baselines/forwarder) through the same stand-ins: Ponte's own
// part is the difference in CPU per request.
//   node bench/passthrough-js.mjs     (REQUESTS=20000 ROUNDS=9; PROFILE=dir writes dir/passthrough.cpuprofile;
//                                      AGAINST=/path/to/another/checkout adds its app to the same interleaved rounds)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../scripts/lib/local.mjs";
import forwarder from "./baselines/forwarder/worker.js";
import { envNumber, importBundled, printSummary } from "./lib/harness.mjs";
import { interleavedRounds, profileInProcess, timeRequests } from "./lib/rounds.mjs";

// The runtime's `scheduler.wait` (the call log's batch delay, the upstream call's timeout), which Node lacks. The
// call log's short wait holds the process until its flush; the upstream's 30 s timeout, never cleared, does not.
globalThis.scheduler ??= {
  wait: (ms) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      if (ms > 1_000) timer.unref();
    }),
};

const REQUESTS = envNumber("REQUESTS", 20_000);
const ROUNDS = envNumber("ROUNDS", 9);
const PROFILE = process.env.PROFILE;
const AGAINST = process.env.AGAINST;

const dir = mkdtempSync(join(tmpdir(), "ponte-bench-passthrough-js-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
/** The finance segment's app of a checkout, and its secret box (to seal the stand-in gateway account's key). */
async function bundleOf(root, name, nodePaths) {
  writeFileSync(
    join(dir, `${name}.ts`),
    `import { groupsFor } from ${JSON.stringify(join(root, "src/route-groups"))};
import { createApp } from ${JSON.stringify(join(root, "src/app"))};
export { sealSecret } from ${JSON.stringify(join(root, "src/lib/secret-box"))};
export async function appFor(segment: string) { return createApp(await Promise.all(groupsFor(segment).map((g) => g.load(segment)))); }`,
  );
  return importBundled(join(dir, `${name}.ts`), join(dir, `${name}.mjs`), { nodePaths });
}
const own = await bundleOf(ROOT, "ponte", []);

const SECRETS_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString("base64");
const UPSTREAM_KEY = `$aact_bench_${"u".repeat(40)}`;
const key = `ponte_test_${"b".repeat(40)}`;
const organizationId = "01900000-0000-7000-8000-00000000d001";
const workspaceId = "01900000-0000-7000-8000-00000000d002";
const accountId = "01900000-0000-7000-8000-00000000a001";
const keyRow = {
  id: "01900000-0000-7000-8000-00000000000a",
  organization_id: organizationId,
  workspace_id: null,
  environment: "test",
  permissions: JSON.stringify(["gateway_accounts.read"]),
  revoked_at: null,
  last_used_at: new Date().toISOString(),
  default_workspace_id: workspaceId,
  selected_workspace_id: workspaceId,
  selected_workspace_archived_at: null,
};
const sealed = await own.sealSecret({ SECRETS_ENCRYPTION_KEY }, UPSTREAM_KEY, accountId);
const statement = (sql) => ({
  bind: () => statement(sql),
  first: async () => (sql.includes("api_keys k") ? keyRow : null),
  all: async () => ({ results: [], success: true, meta: {} }),
  raw: async () => (sql.includes("gateway_accounts") ? [[accountId, sealed]] : []),
  run: async () => ({ success: true, meta: {} }),
});
const DB = { prepare: statement, batch: async (s) => s.map(() => ({ results: [] })) };
DB.withSession = () => ({ ...DB, getBookmark: () => null });
// The simulator's answer to GET /v3/finance/balance, with its headers.
const balance = JSON.stringify({ balance: 1234.56 });
const UPSTREAM = {
  fetch: async (req) => {
    if (req.headers.get("access_token") !== UPSTREAM_KEY) return new Response('{"errors":[]}', { status: 401 });
    return new Response(balance, { headers: { "Content-Type": "application/json;charset=UTF-8" } });
  },
};
let appended = 0;
const logStore = {
  append: async ({ gatewayCalls }) => {
    appended += gatewayCalls.length;
  },
};
const ORG_LOGS = { idFromName: (name) => name, get: () => logStore };
const env = {
  DB,
  UPSTREAM,
  ORG_LOGS,
  SECRETS_ENCRYPTION_KEY,
  ENVIRONMENT: "local",
  API_RATE_LIMITER: { limit: async () => ({ success: true }) },
  BENCH_KEY: key,
  UPSTREAM_KEY,
};
const pending = [];
const ctx = { waitUntil: (p) => void pending.push(p), passThroughOnException() {} };

const cases = [
  { name: "bareForwarder", app: forwarder },
  { name: "passthrough", app: await own.appFor("finance") },
];
if (AGAINST) {
  const against = await bundleOf(AGAINST, "against", [join(ROOT, "node_modules")]);
  cases.push({ name: "passthroughAgainst", app: await against.appFor("finance") });
}
const headers = { Authorization: `Bearer ${key}` };
/** Runs `n` requests of a case; wall and CPU microseconds per request, the log flushes and limiter calls they left included. */
const run = ({ app }, n) =>
  timeRequests(
    n,
    async () => {
      const res = await app.fetch(new Request("http://127.0.0.1/api/v1/finance/balance", { headers }), env, ctx);
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${res.status}: ${body}`);
    },
    () => Promise.all(pending.splice(0)),
  );
// Warm (JIT, the key and credential caches, the router's memo), then interleaved rounds.
const { perRound, figures } = await interleavedRounds(cases, run, { requests: REQUESTS, rounds: ROUNDS });
const result = Object.fromEntries(
  Object.entries(figures).map(([name, f]) => [name, { cpuMicrosecondsPerRequest: f.cpuMicrosecondsPerRequest, cpuSpread: f.cpuSpread }]),
);
if (PROFILE) {
  mkdirSync(PROFILE, { recursive: true });
  const profile = await profileInProcess(() => run(cases[1], Math.max(perRound * 2, Math.round(REQUESTS / 2))));
  writeFileSync(join(PROFILE, "passthrough.cpuprofile"), JSON.stringify(profile));
}
const over = (name) => +(result[name].cpuMicrosecondsPerRequest - result.bareForwarder.cpuMicrosecondsPerRequest).toFixed(1);
console.log(JSON.stringify({ node: process.version, requests: REQUESTS, rounds: ROUNDS, logRowsAppended: appended, ...result }, null, 2));
printSummary({
  bench: "passthrough-js",
  passthroughOwnMicros: over("passthrough"),
  ...(AGAINST ? { against: AGAINST, againstOwnMicros: over("passthroughAgainst") } : {}),
});
