#!/usr/bin/env node
// `npm run seed [-- --json]`: applies local migrations; makes sure the demo organization, workspace
// and gateway account (wired to the upstream simulator) exist; then issues a fresh test API key with
// every permission (a new key per call). With --json, stdout is exactly one JSON object:
// {"baseUrl","organizationId","workspaceId","apiKey"}.
import { fileURLToPath } from "node:url";
import { DEMO, PERMISSIONS_ALL, applyMigrations, executeSql, newTestKey, sqlString, uuidv7 } from "./lib/local.mjs";
import { gatewayAccountSql } from "./lib/seed-gateway.mjs";

export async function seed({ port = Number(process.env.PORT ?? 8787) } = {}) {
  applyMigrations();
  const now = new Date().toISOString();
  const { key, hash, displayPrefix, last4 } = newTestKey();
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
`);
  return { baseUrl: `http://localhost:${port}`, organizationId: DEMO.organizationId, workspaceId: DEMO.workspaceId, apiKey: key };
}

/** The demo workspace's default cost categories (the same set as src/modules/cost-categories/service.ts). */
const DEFAULT_COST_CATEGORIES = [
  ["infrastructure", "Infrastructure", "VARIABLE"],
  ["software", "Software", "FIXED"],
  ["payroll", "Payroll", "FIXED"],
  ["taxes", "Taxes", "VARIABLE"],
  ["marketing", "Marketing", "VARIABLE"],
  ["payment_fees", "Payment fees", "VARIABLE"],
  ["other", "Other", "VARIABLE"],
];
function defaultCostCategoriesSql(now) {
  return DEFAULT_COST_CATEGORIES.map(
    ([key, name, kind]) =>
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
    const result = await seed();
    // If the API is already running, wire the simulator's webhooks now (best effort).
    await connectUpstreamWebhooks(result).catch(() => false);
    if (process.argv.includes("--json")) process.stdout.write(`${JSON.stringify(result)}\n`);
    else {
      console.log(`Demo organization ${result.organizationId}, workspace ${result.workspaceId}`);
      console.log(`API key (test, every permission): ${result.apiKey}`);
      console.log(`Base URL: ${result.baseUrl}/api/v1`);
    }
  } catch (err) {
    console.error(`seed failed: ${err.stderr ?? err.message}`);
    process.exit(1);
  }
}
