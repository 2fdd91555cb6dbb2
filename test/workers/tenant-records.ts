// One factory per resource a path parameter names, creating a record in a given workspace: what the
// generated route-guard test uses to ask for another tenant's record. A route whose path parameter
// names a resource with no factory here fails that test, so a new resource gets one.
import { env } from "cloudflare:test";
import { createDb } from "../../src/db/client";
import { orgLogs } from "../../src/db/org-logs/stub";
import { organizations, webhookDeliveries, workspaces } from "../../src/db/schema";
import { PERMISSIONS } from "../../src/lib/permissions";
import { newId } from "../../src/lib/ids";
import { seedMember } from "./auth-support";
import { CPF, HOLDER, card, dueDate } from "./billing-support";
import { seedGatewayAccount, simKey } from "./gateway-support";
import { insertEvent } from "./webhooks-support";
import { call, type Envelope, seedApiKey, seedWorkspace, type TestTenant } from "./support";

/** A workspace to create records in, reached with an organization-wide key of its organization. */
export interface TenantWorkspace {
  organizationId: string;
  workspaceId: string;
  /** An organization-wide key with every permission; requests name the workspace in X-Workspace-Id. */
  key: string;
  gatewayAccountId: string;
  /** The simulated upstream account of the workspace's gateway account. */
  upstreamKey: string;
}

export interface CreatedRecord {
  id: string;
  /** The record's id at the upstream, when it has one (customers, payments, subscriptions). */
  upstreamId?: string;
}

export interface RecordFactory {
  /** `organization`: visible from every workspace of its organization (so only another organization's is out of reach). */
  scope: "organization" | "workspace";
  create(ws: TenantWorkspace): Promise<CreatedRecord>;
}

/** An organization with two workspaces, each with a gateway account, and an organization-wide key. */
export async function seedTenantWithTwoWorkspaces(): Promise<{ tenant: TestTenant; home: TenantWorkspace; sibling: TenantWorkspace }> {
  const organizationId = newId();
  const workspaceId = newId();
  const now = new Date().toISOString();
  const db = createDb(env.DB);
  await db.batch([
    db
      .insert(organizations)
      .values({ id: organizationId, name: "Acme Ltda", defaultWorkspaceId: workspaceId, createdAt: now, updatedAt: now }),
    db.insert(workspaces).values({ id: workspaceId, organizationId, name: "Default", createdAt: now, updatedAt: now }),
  ]);
  const { apiKeyId, key } = await seedApiKey(organizationId, null, { permissions: PERMISSIONS });
  const siblingId = await seedWorkspace(organizationId, "Sibling");
  const workspace = async (id: string): Promise<TenantWorkspace> => {
    const upstreamKey = simKey();
    const gatewayAccountId = await seedGatewayAccount({ organizationId, workspaceId: id }, upstreamKey);
    return { organizationId, workspaceId: id, key, gatewayAccountId, upstreamKey };
  };
  return {
    tenant: { organizationId, workspaceId, apiKeyId, key },
    home: await workspace(workspaceId),
    sibling: await workspace(siblingId),
  };
}

async function create(
  ws: TenantWorkspace,
  path: string,
  body: Record<string, unknown>,
  expected = [200, 201],
): Promise<{ id: string; upstreamId?: string }> {
  const res = await call("POST", path, { key: ws.key, body, headers: { "X-Workspace-Id": ws.workspaceId } });
  if (!expected.includes(res.status)) throw new Error(`factory POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as Envelope<{ id: string; upstreamId?: string }>).data;
}

const customer = async (ws: TenantWorkspace) => {
  const c = await create(ws, "/api/v1/customers", { name: "Maria Silva", cpfCnpj: CPF, email: "maria@example.com" });
  return { id: c.id as string, upstreamId: c.upstreamId as string };
};
const plan = async (ws: TenantWorkspace) => ({
  id: (await create(ws, "/api/v1/plans", { name: "Pro", value: "49.90", cycle: "MONTHLY", billingType: "PIX" })).id as string,
});

/** Keyed by the path before the parameter, after /api/v1 (see `paramResource`). */
export const RECORD_FACTORIES: Record<string, RecordFactory> = {
  workspaces: { scope: "organization", create: async (ws) => ({ id: await seedWorkspace(ws.organizationId, "Another") }) },
  "api-keys": {
    scope: "organization",
    create: async (ws) => ({ id: (await create(ws, "/api/v1/api-keys", { name: "factory", permissions: ["payments.read"] })).id }),
  },
  "webhook-endpoints": {
    scope: "workspace",
    create: async (ws) => ({
      id: (await create(ws, "/api/v1/webhook-endpoints", { url: "https://hooks.merchant.com.br/ponte", eventKinds: ["*"] })).id,
    }),
  },
  "webhook-logs": {
    scope: "workspace",
    create: async (ws) => {
      const endpointId = (await RECORD_FACTORIES["webhook-endpoints"]!.create(ws)).id;
      const event = await insertEvent({ organizationId: ws.organizationId, workspaceId: ws.workspaceId, apiKeyId: "", key: ws.key });
      const id = newId();
      const now = new Date().toISOString();
      await createDb(env.DB).insert(webhookDeliveries).values({
        id,
        organizationId: ws.organizationId,
        workspaceId: ws.workspaceId,
        endpointId,
        eventId: event.id,
        eventType: event.type,
        status: "failed",
        attemptCount: 1,
        createdAt: now,
        updatedAt: now,
      });
      return { id };
    },
  },
  "gateway-accounts": { scope: "workspace", create: async (ws) => ({ id: ws.gatewayAccountId }) },
  "gateway-api-logs": {
    scope: "workspace",
    create: async (ws) => {
      const id = newId();
      await orgLogs(env, ws.organizationId).append({
        gatewayCalls: [
          {
            id,
            workspaceId: ws.workspaceId,
            gatewayAccountId: ws.gatewayAccountId,
            operationId: "listar-clientes",
            method: "GET",
            surfacePath: "/api/v1/customers",
            upstreamPath: "/v3/customers",
            upstreamStatus: 200,
            latencyMs: 12,
            errorCode: null,
            requestId: "req_factory",
            createdAt: new Date().toISOString(),
          },
        ],
      });
      return { id };
    },
  },
  "organizations/current/members": {
    scope: "organization",
    create: async (ws) => {
      const { userId } = await seedMember(ws.organizationId, "developer");
      const row = await env.DB.prepare("SELECT id FROM memberships WHERE user_id = ? AND organization_id = ?")
        .bind(userId, ws.organizationId)
        .first<{ id: string }>();
      return { id: row!.id };
    },
  },
  "organizations/current/invitations": {
    scope: "organization",
    create: async (ws) => ({
      id: (await create(ws, "/api/v1/organizations/current/invitations", { email: `invitee-${newId()}@example.com.br`, role: "viewer" }))
        .id,
    }),
  },
  customers: { scope: "workspace", create: customer },
  "payment-methods": {
    scope: "workspace",
    create: async (ws) => ({
      id: (
        await create(ws, "/api/v1/payment-methods/tokenize", {
          customer: (await customer(ws)).id,
          creditCard: card(),
          creditCardHolderInfo: HOLDER,
          remoteIp: "203.0.113.7",
        })
      ).id,
    }),
  },
  plans: { scope: "workspace", create: plan },
  payments: {
    scope: "workspace",
    create: async (ws) => {
      const c = await create(ws, "/api/v1/payments", {
        customer: (await customer(ws)).id,
        billingType: "PIX",
        value: "100.00",
        dueDate: dueDate(),
      });
      return { id: c.id, upstreamId: c.upstreamId };
    },
  },
  formulas: {
    scope: "workspace",
    create: async (ws) => ({
      id: (
        await create(ws, "/api/v1/formulas", {
          key: `f_${newId().slice(-12).replace(/-/g, "")}`,
          name: "Factory",
          unit: "COUNT",
          expression: "new_customers * 2",
        })
      ).id,
    }),
  },
  /** A metric key names a catalogue metric (every tenant's) or the workspace's formula of that key: the factory makes a formula. */
  metrics: {
    scope: "workspace",
    create: async (ws) => {
      const key = `m_${newId().slice(-12).replace(/-/g, "")}`;
      await create(ws, "/api/v1/formulas", { key, name: "Factory metric", unit: "BRL", expression: "revenue" });
      return { id: key };
    },
  },
  "cost-categories": {
    scope: "workspace",
    create: async (ws) => ({ id: (await create(ws, "/api/v1/cost-categories", { name: "Factory costs", kind: "FIXED" })).id }),
  },
  suppliers: {
    scope: "workspace",
    create: async (ws) => ({ id: (await create(ws, "/api/v1/suppliers", { name: "Factory supplier" })).id }),
  },
  expenses: {
    scope: "workspace",
    create: async (ws) => {
      const category = await create(ws, "/api/v1/cost-categories", { name: `Factory ${newId().slice(-8)}`, kind: "VARIABLE" });
      const body = { description: "Factory expense", amount: "10.00", incurredOn: "2026-01-15", costCategoryId: category.id };
      return { id: (await create(ws, "/api/v1/expenses", body)).id };
    },
  },
  "aws-connections": {
    scope: "workspace",
    create: async (ws) => {
      const category = await create(ws, "/api/v1/cost-categories", { name: `Cloud ${newId().slice(-8)}`, kind: "VARIABLE" });
      const connection = await create(ws, "/api/v1/aws-connections", {
        name: "Factory AWS",
        authType: "ACCESS_KEY",
        accessKeyId: "AKIAFACTORYKEY000001",
        secretAccessKey: "factory-secret-access-key-0123456789",
        costCategoryId: category.id,
        exchangeRate: "5",
      });
      return { id: connection.id };
    },
  },
  subscriptions: {
    scope: "workspace",
    create: async (ws) => {
      const s = await create(ws, "/api/v1/subscriptions", {
        plan: (await plan(ws)).id,
        customer: (await customer(ws)).id,
        nextDueDate: dueDate(3),
      });
      return { id: s.id, upstreamId: s.upstreamId };
    },
  },
};

/**
 * Bodies that pass validation for operations whose body `{}` does not, so that a request reaches the
 * record lookup. The route-guard test fails naming an operation that needs one.
 */
export const VALID_BODIES: Record<string, Record<string, unknown>> = {
  "POST /api/v1/webhook-endpoints/{id}/recover": { since: "2026-01-01T00:00:00Z" },
  "PATCH /api/v1/gateway-accounts/{id}": { upstreamApiKey: simKey() },
  "PATCH /api/v1/organizations/current/members/{id}": { role: "viewer" },
};
