// A workspace at real size for the generated list test (list-pages.test.ts): the demo history that
// `npm start` writes (scripts/lib/demo-history.mjs: ~12 months, ~240 customers, ~1,300 charges, plans,
// subscriptions, refunds, suppliers, expenses) in a fresh tenant with every permission and an active
// gateway account on its own simulated upstream account. Built once per test file, straight into D1:
// the generated SQL carries literals only (no bound parameters), so its statements go in one batch.
import { env } from "cloudflare:test";
import { demoHistorySql, type DemoHistory } from "../../scripts/lib/demo-history.mjs";
import { createDb } from "../../src/db/client";
import { costCategories } from "../../src/db/schema";
import { defaultCostCategoryRows } from "../../src/modules/cost-categories/service";
import { seedGatewayAccount, simKey } from "./gateway-support";
import { seedTenant, type TestTenant } from "./support";

export interface DemoWorkspace extends TestTenant {
  upstreamKey: string;
  gatewayAccountId: string;
  counts: DemoHistory["counts"];
  /** How long the build took (tenant, categories, gateway account and the history's SQL), in ms. */
  buildMs: number;
}

/** The history's SQL as separate statements (each multi-row INSERT ends its line with `;`), comments dropped. */
export function statementsOf(sql: string): string[] {
  return sql
    .split(/;\n/)
    .map((s) => s.replace(/^--.*$/gm, "").trim())
    .filter((s) => s.length > 0)
    .map((s) => (s.endsWith(";") ? s.slice(0, -1) : s));
}

/** The tables whose rows carry the upstream's id once synced: the dialect answers these ids. */
const UPSTREAM_ID_TABLES = ["customers", "payments", "subscriptions", "installments"] as const;

export async function seedDemoWorkspace(): Promise<DemoWorkspace> {
  const started = performance.now();
  const tenant = await seedTenant();
  const now = new Date();
  // The history files its expenses under the default categories, looked up by key.
  await createDb(env.DB).insert(costCategories).values(defaultCostCategoryRows(tenant, now.toISOString()));
  const upstreamKey = simKey();
  const gatewayAccountId = await seedGatewayAccount(tenant, upstreamKey);
  const history = demoHistorySql({ organizationId: tenant.organizationId, workspaceId: tenant.workspaceId, now });
  await env.DB.batch(statementsOf(history.sql).map((s) => env.DB.prepare(s)));
  // Every synced record must name its upstream id, as the dialect answers it.
  for (const table of UPSTREAM_ID_TABLES) {
    const missing = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = ? AND upstream_id IS NULL`)
      .bind(tenant.workspaceId)
      .first<{ n: number }>();
    if (missing?.n) throw new Error(`${missing.n} ${table} rows of the demo history have no upstream id`);
  }
  const payments = await env.DB.prepare("SELECT count(*) AS n FROM payments WHERE workspace_id = ?")
    .bind(tenant.workspaceId)
    .first<{ n: number }>();
  if (payments?.n !== history.counts.payments)
    throw new Error(`the history wrote ${payments?.n} of its ${history.counts.payments} charges (is the workspace without plans?)`);
  return { ...tenant, upstreamKey, gatewayAccountId, counts: history.counts, buildMs: performance.now() - started };
}
