#!/usr/bin/env node
// `npm run seed [-- --json] [-- --demo]`: applies local migrations; makes sure the demo organization,
// workspace and gateway account (wired to the upstream simulator) exist; then issues a fresh test API
// key with every permission (a new key per call). With --demo, a demo workspace without plans also
// gets about 12 months of history (scripts/lib/demo-history.mjs, one SQL file) and, if the API is
// running, its rollups are rebuilt (otherwise `npm start` rebuilds them when it comes up). With --json,
// stdout is exactly one JSON object: {"baseUrl","organizationId","workspaceId","apiKey","consoleSignIn"}. Locally the demo
// organization also gets an owner with a password generated on each run (scripts/lib/demo-owner.mjs): consoleSignIn.
import { fileURLToPath } from "node:url";
import { demoHistorySql } from "./lib/demo-history.mjs";
import { mirrorIntoRunningSimulator } from "./lib/demo-mirror.mjs";
import { demoOwnerSql } from "./lib/demo-owner.mjs";
import { DEMO, PERMISSIONS_ALL, applyMigrations, executeSql, newTestKey, sqlString, uuidv7 } from "./lib/local.mjs";
import { DEFAULT_COST_CATEGORIES } from "../src/modules/cost-categories/defaults.ts";
import { gatewayAccountSql } from "./lib/seed-gateway.mjs";

/** `demo`: add the demo history if the demo workspace has no plans yet (`demoHistory`: what it holds). */
export async function seed({ port = Number(process.env.PORT ?? 8787), demo = false } = {}) {
  applyMigrations();
  // Guarded in SQL: inserted only if the demo workspace has no plans (one wrangler call, no read first).
  const history = demo ? demoHistorySql({ organizationId: DEMO.organizationId, workspaceId: DEMO.workspaceId }) : null;
  const now = new Date().toISOString();
  const { key, hash, displayPrefix, last4 } = newTestKey();
  const owner = await demoOwnerSql({ organizationId: DEMO.organizationId }); // local only: a console sign-in for the demo
  const gateway = await gatewayAccountSql({
    id: DEMO.gatewayAccountId,
    organizationId: DEMO.organizationId,
    workspaceId: DEMO.workspaceId,
    upstreamApiKey: DEMO.upstreamApiKey,
  });
  executeSql(`
INSERT OR IGNORE INTO organizations (id, name, default_workspace_id, created_at, updated_at)
  VALUES (${sqlString(DEMO.organizationId)}, 'Ponte Demo', ${sqlString(DEMO.workspaceId)}, ${sqlString(now)}, ${sqlString(now)});
INSERT OR IGNORE INTO workspaces (id, organization_id, name, created_at, updated_at)
  VALUES (${sqlString(DEMO.workspaceId)}, ${sqlString(DEMO.organizationId)}, 'Demo workspace', ${sqlString(now)}, ${sqlString(now)});
${defaultCostCategoriesSql(now)}
${gateway.sql.replace(/^INSERT INTO/, "INSERT OR IGNORE INTO")}
INSERT INTO api_keys (id, organization_id, workspace_id, environment, name, key_hash, display_prefix, last4, permissions, created_by, created_at, updated_at)
  VALUES (${sqlString(uuidv7())}, ${sqlString(DEMO.organizationId)}, NULL, 'test', 'demo key (npm run seed)', ${sqlString(hash)},
          ${sqlString(displayPrefix)}, ${sqlString(last4)}, ${sqlString(JSON.stringify(PERMISSIONS_ALL))}, 'seed', ${sqlString(now)}, ${sqlString(now)});
${owner?.sql ?? ""}
${history?.sql ?? ""}
`);
  return {
    baseUrl: `http://localhost:${port}`,
    organizationId: DEMO.organizationId,
    workspaceId: DEMO.workspaceId,
    apiKey: key,
    ...(owner ? { consoleSignIn: { email: owner.email, password: owner.password } } : {}),
    ...(history ? { demoHistory: { ...history.counts, from: history.from, to: history.to } } : {}),
  };
}

/**
 * Rebuilds the demo workspace's daily rollups through the running API when they are missing: the
 * workspace has customers but nothing was ever billed in the rollups (e.g. the history was just
 * written straight to the tables). Returns the rebuild's answer, or null when nothing was needed.
 */
export async function rebuildDemoRollupsIfMissing(demo) {
  const headers = { Authorization: `Bearer ${demo.apiKey}`, "X-Workspace-Id": demo.workspaceId };
  const get = async (path) => {
    const res = await fetch(`${demo.baseUrl}/api/v1${path}`, { headers });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body.error ?? body)}`);
    return body;
  };
  const customers = await get("/customers?limit=1");
  if ((customers.meta?.pagination?.totalCount ?? customers.totalCount ?? 0) === 0) return null;
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 1800 * 86_400_000).toISOString().slice(0, 10);
  const billed = await get(`/metrics/billed?from=${from}&to=${to}&interval=month`);
  if (billed.data?.total !== "0.00") return null;
  const res = await fetch(`${demo.baseUrl}/api/v1/metrics/rebuild`, { method: "POST", headers });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`metrics rebuild: ${res.status} ${JSON.stringify(body.error ?? body)}`);
  return body.data;
}

/** The demo workspace's default cost categories: the set every workspace starts with (src/modules/cost-categories/defaults.ts). */
function defaultCostCategoriesSql(now) {
  return DEFAULT_COST_CATEGORIES.map(
    ({ key, name, kind }) =>
      `INSERT OR IGNORE INTO cost_categories (id, organization_id, workspace_id, parent_id, key, name, kind, description, archived, created_at, updated_at)
  VALUES (${sqlString(uuidv7())}, ${sqlString(DEMO.organizationId)}, ${sqlString(DEMO.workspaceId)}, NULL, ${sqlString(key)}, ${sqlString(name)}, ${sqlString(kind)}, NULL, 0, ${sqlString(now)}, ${sqlString(now)});`,
  ).join("\n");
}

/**
 * Points the simulator's webhooks at this API: rotating the demo account's inbound token makes the
 * API store the new token's hash and configure the upstream (the simulator) with the URL and token.
 * The simulator keeps its state in memory, so this runs each time the API comes up.
 */
export async function connectUpstreamWebhooks(demo) {
  const res = await fetch(`${demo.baseUrl}/api/v1/gateway-accounts/${DEMO.gatewayAccountId}/rotate-webhook-token`, {
    method: "POST",
    headers: { Authorization: `Bearer ${demo.apiKey}` },
  });
  const body = await res.json().catch(() => ({}));
  return res.ok && body?.data?.upstreamWebhook?.configured === true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const started = performance.now();
    const { demoHistory, ...result } = await seed({ demo: process.argv.includes("--demo") });
    // If the API is already running, wire the simulator's webhooks now (best effort) and put the demo records into it.
    const running = await connectUpstreamWebhooks(result).catch(() => false);
    if (running && demoHistory) await mirrorIntoRunningSimulator(result.baseUrl, result.workspaceId).catch(() => null);
    const rebuilt = demoHistory ? await rebuildDemoRollupsIfMissing(result).catch((err) => err) : null;
    if (process.argv.includes("--json")) process.stdout.write(`${JSON.stringify(result)}\n`);
    else {
      if (demoHistory) {
        const h = demoHistory;
        console.log(
          `Demo history (added only if the demo workspace had no plans) ${h.from} → ${h.to}: ${h.customers} customers, ` +
            `${h.subscriptions} subscriptions (${h.canceledSubscriptions} canceled), ${h.payments} charges, ${h.refunds} refunds, ` +
            `${h.expenses} expenses from ${h.suppliers} suppliers.`,
        );
        console.log(
          rebuilt instanceof Error
            ? "Rollups: the API is not running; `npm start` rebuilds them when it comes up (or run `npm run metrics:rebuild`)."
            : rebuilt
              ? `Rollups rebuilt: ${rebuilt.rows} daily rows.`
              : "Rollups: already in place.",
        );
        console.log(`Took ${((performance.now() - started) / 1000).toFixed(1)} s.`);
      }
      console.log(`Demo organization ${result.organizationId}, workspace ${result.workspaceId}`);
      console.log(`API key (test, every permission): ${result.apiKey}`);
      if (result.consoleSignIn) console.log(`Console sign-in: ${result.consoleSignIn.email} / ${result.consoleSignIn.password}`);
      console.log(`Base URL: ${result.baseUrl}/api/v1`);
    }
  } catch (err) {
    console.error(`seed failed: ${err.stderr ?? err.message}`);
    process.exit(1);
  }
}
