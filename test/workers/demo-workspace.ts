// A workspace at real size for the generated list test (list-pages.test.ts): the demo history that
// `npm start` writes (scripts/lib/demo-history.mjs: ~12 months, ~240 customers, ~1,300 charges, plans,
// subscriptions, refunds, suppliers, expenses) in a fresh tenant with every permission and an active
// gateway account on its own simulated upstream account. Built once per test file, straight into D1:
// the generated SQL carries literals only (no bound parameters), so its statements go in one batch.
import { env } from "cloudflare:test";
import { demoHistorySql, type DemoHistory } from "../../scripts/lib/demo-history.mjs";
import { getTableColumns } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { createDb } from "../../src/db/client";
import { auditLogs, costCategories, gatewayApiLogs, invitations, webhookDeliveries, webhookEndpoints } from "../../src/db/schema";
import { defaultCostCategoryRows } from "../../src/modules/cost-categories/service";
import { seedGatewayAccount, simKey } from "./gateway-support";
import { seedTenant, type TestTenant } from "./support";

export interface DemoWorkspace extends TestTenant {
  upstreamKey: string;
  gatewayAccountId: string;
  counts: DemoHistory["counts"];
  /** Rows of each platform log the fixture adds (audit, gateway calls, webhook deliveries, invitations). */
  activityRows: number;
  /** How long the build took (tenant, categories, gateway account, the history's SQL and the activity), in ms. */
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
  await seedActivity(tenant, gatewayAccountId);
  return {
    ...tenant,
    upstreamKey,
    gatewayAccountId,
    counts: history.counts,
    activityRows: ACTIVITY_ROWS,
    buildMs: performance.now() - started,
  };
}

/** More than a page of each platform log: what a workspace that has been running a year shows. */
const ACTIVITY_ROWS = 150;

/** Inserts in statements of at most 100 bound parameters (D1's limit), all in one batch. */
function chunkedInserts<T extends SQLiteTable>(table: T, rows: T["$inferInsert"][]) {
  const db = createDb(env.DB);
  const perRow = Object.keys(getTableColumns(table)).length; // drizzle binds every column of the table
  const size = Math.max(1, Math.floor(100 / perRow));
  const out = [];
  for (let i = 0; i < rows.length; i += size) out.push(db.insert(table).values(rows.slice(i, i + size)));
  return out;
}

async function seedActivity(tenant: TestTenant, gatewayAccountId: string) {
  const scope = { organizationId: tenant.organizationId, workspaceId: tenant.workspaceId };
  const at = (i: number) => new Date(Date.now() - (ACTIVITY_ROWS - i) * 3_600_000).toISOString();
  const n = Array.from({ length: ACTIVITY_ROWS }, (_, i) => i);
  const endpointId = crypto.randomUUID();
  const now = new Date().toISOString();
  const inserts = [
    ...chunkedInserts(
      auditLogs,
      n.map((i) => ({
        id: crypto.randomUUID(),
        ...scope,
        actorType: "api_key" as const,
        actorId: tenant.apiKeyId,
        action: ["customer.created", "expense.updated", "api_key.created"][i % 3] ?? "customer.created",
        targetType: "customer",
        targetId: crypto.randomUUID(),
        requestId: `req_${i}`,
        createdAt: at(i),
      })),
    ),
    ...chunkedInserts(
      gatewayApiLogs,
      n.map((i) => ({
        id: crypto.randomUUID(),
        ...scope,
        gatewayAccountId,
        operationId: ["listar-cobrancas-com-dados-resumidos", "native:create-payment", "listar-parcelamentos"][i % 3] ?? "",
        method: "GET",
        surfacePath: "/api/v1/lean/payments",
        upstreamPath: "/v3/lean/payments",
        upstreamStatus: [200, 200, 404][i % 3] ?? 200,
        latencyMs: 20 + (i % 50),
        requestId: `req_${i}`,
        createdAt: at(i),
      })),
    ),
    createDb(env.DB)
      .insert(webhookEndpoints)
      .values({
        id: endpointId,
        ...scope,
        url: "https://hooks.example.com/ponte",
        eventKinds: ["*"],
        enabled: true,
        secretSealed: "sealed",
        createdAt: now,
        updatedAt: now,
      }),
    ...chunkedInserts(
      webhookDeliveries,
      n.map((i) => ({
        id: crypto.randomUUID(),
        ...scope,
        endpointId,
        eventId: crypto.randomUUID(),
        eventType: ["payment.created", "payment.received", "subscription.canceled"][i % 3] ?? "payment.created",
        status: (["succeeded", "succeeded", "failed", "retrying"] as const)[i % 4] ?? "succeeded",
        attemptCount: 1,
        createdAt: at(i),
        updatedAt: at(i),
      })),
    ),
    ...chunkedInserts(
      invitations,
      n.map((i) => ({
        id: crypto.randomUUID(),
        organizationId: tenant.organizationId,
        email: `convidado${i}@example.com`,
        role: "viewer" as const,
        tokenHash: crypto.randomUUID().replace(/-/g, "").repeat(2),
        invitedBy: tenant.apiKeyId,
        createdAt: at(i),
        expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      })),
    ),
  ];
  const [first, ...rest] = inserts;
  if (first) await createDb(env.DB).batch([first, ...rest]);
}
