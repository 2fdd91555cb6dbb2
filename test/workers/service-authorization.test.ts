// One authorization path for the API and the console: each service states its permission, so a
// caller that reaches a service without it (a console page, a future job) is refused the same
// way a route's guard() refuses: 403 FORBIDDEN naming the permission, and nothing is written.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PERMISSIONS, type Permission } from "../../src/lib/permissions";
import type { Principal } from "../../src/access/principal";
import { CATALOGUE } from "../../src/compat/catalogue";
import { forwardPassthrough } from "../../src/compat/dispatch";
import { createApiKey, listApiKeys, revokeApiKey } from "../../src/modules/api-keys/service";
import { listAuditLogs } from "../../src/modules/audit/service";
import { createCustomer, listCustomers } from "../../src/modules/customers/service";
import { createGatewayAccount, listGatewayAccounts } from "../../src/modules/gateway-accounts/service";
import { listGatewayApiLogs } from "../../src/modules/gateway-api-logs/service";
import { currentOrganization, updateOrganization } from "../../src/modules/organizations/service";
import { tokenizeCard } from "../../src/modules/payment-methods/service";
import { refundPayment } from "../../src/modules/payments/refunds";
import { createPayment, getPixQrCode, listPayments } from "../../src/modules/payments/service";
import { createPlan, listPlans } from "../../src/modules/plans/service";
import { createSubscription, listSubscriptions } from "../../src/modules/subscriptions/service";
import { createEndpoint, listEndpoints, rotateSecret } from "../../src/modules/webhook-endpoints/service";
import { listDeliveries, redeliver } from "../../src/modules/webhook-logs/service";
import { createWorkspace, listWorkspaces } from "../../src/modules/workspaces/service";
import { seedMember, signUpUser } from "./auth-support";
import { testDeps } from "./billing-support";
import { BASE, seedTenant } from "./support";

/** A principal of the tenant holding every permission but `missing` (and, for a read, its manage). */
function principalWithout(t: { organizationId: string; workspaceId: string }, missing: Permission): Principal {
  const lacking = new Set<Permission>([missing, missing.replace(/\.read$/, ".manage") as Permission]);
  return {
    kind: "api_key",
    actorId: "test-actor",
    organizationId: t.organizationId,
    workspaceId: t.workspaceId,
    environment: "test",
    workspaceRestricted: false,
    permissions: new Set(PERMISSIONS.filter((p) => !lacking.has(p))),
  };
}

const ID = "01990000-0000-7000-8000-000000000000";
const passthrough = CATALOGUE.find((op) => op.kind === "passthrough" && op.permission === "gateway_accounts.manage")!;

// Every call below would reach the database or the upstream if the service did not refuse first.
const CASES: [string, Permission, (p: Principal) => Promise<unknown>][] = [
  ["createApiKey", "api_keys.manage", (p) => createApiKey(testDeps(), p, { name: "k", permissions: ["payments.read"] })],
  ["listApiKeys", "api_keys.read", (p) => listApiKeys(testDeps(), p, { limit: 10, offset: 0 })],
  ["revokeApiKey", "api_keys.manage", (p) => revokeApiKey(testDeps(), p, ID)],
  [
    "createEndpoint",
    "webhook_endpoints.manage",
    (p) => createEndpoint(testDeps(), p, { url: "https://merchant.example.com/hooks", eventKinds: ["*"] } as never),
  ],
  ["listEndpoints", "webhook_endpoints.read", (p) => listEndpoints(testDeps(), p, { limit: 10, offset: 0 })],
  ["rotateSecret", "webhook_endpoints.manage", (p) => rotateSecret(testDeps(), p, ID)],
  ["listDeliveries", "webhook_endpoints.read", (p) => listDeliveries(testDeps(), p, {}, { limit: 10, offset: 0 })],
  ["redeliver", "webhook_endpoints.manage", (p) => redeliver(testDeps(), p, ID)],
  [
    "createGatewayAccount",
    "gateway_accounts.manage",
    (p) => createGatewayAccount(testDeps(), p, { upstreamApiKey: "$aact_test_x" } as never),
  ],
  ["listGatewayAccounts", "gateway_accounts.read", (p) => listGatewayAccounts(testDeps(), p, { limit: 10, offset: 0 })],
  ["listGatewayApiLogs", "gateway_accounts.read", (p) => listGatewayApiLogs(testDeps(), p, {}, { limit: 10, offset: 0 })],
  ["createWorkspace", "workspaces.manage", (p) => createWorkspace(testDeps(), p, { name: "W" })],
  ["listWorkspaces", "workspaces.read", (p) => listWorkspaces(testDeps(), p, { limit: 10, offset: 0 })],
  ["currentOrganization", "organizations.read", (p) => currentOrganization(testDeps(), p)],
  ["updateOrganization", "organizations.manage", (p) => updateOrganization(testDeps(), p, { name: "Renamed" })],
  ["listAuditLogs", "audit_logs.read", (p) => listAuditLogs(testDeps(), p, {}, { limit: 10, offset: 0 })],
  ["createCustomer", "customers.manage", (p) => createCustomer(testDeps(), p, { name: "Maria", cpfCnpj: "52998224725" })],
  ["listCustomers", "customers.read", (p) => listCustomers(testDeps(), p, { limit: 10, offset: 0 }, {})],
  [
    "createPayment",
    "payments.manage",
    (p) => createPayment(testDeps(), p, { customer: ID, billingType: "PIX", value: "10.00", dueDate: "2030-01-01" }),
  ],
  ["listPayments", "payments.read", (p) => listPayments(testDeps(), p, { limit: 10, offset: 0 }, {})],
  ["getPixQrCode", "payments.read", (p) => getPixQrCode(testDeps(), p, ID)],
  ["refundPayment", "payments.manage", (p) => refundPayment(testDeps(), p, ID, {})],
  ["tokenizeCard", "payment_methods.manage", (p) => tokenizeCard(testDeps(), p, {} as never)],
  ["createPlan", "plans.manage", (p) => createPlan(testDeps(), p, { name: "P", value: "10.00", cycle: "MONTHLY" } as never)],
  ["listPlans", "plans.read", (p) => listPlans(testDeps(), p, { limit: 10, offset: 0 })],
  [
    "createSubscription",
    "subscriptions.manage",
    (p) => createSubscription(testDeps(), p, { plan: ID, customer: ID, nextDueDate: "2030-01-01" } as never),
  ],
  ["listSubscriptions", "subscriptions.read", (p) => listSubscriptions(testDeps(), p, { limit: 10, offset: 0 }, {})],
  [
    `forwardPassthrough (${passthrough.operationId})`,
    "gateway_accounts.manage",
    (p) =>
      forwardPassthrough(testDeps(), p, {
        operation: passthrough,
        params: {},
        query: "",
        body: null,
        contentType: null,
        surfacePath: passthrough.path,
      } as never),
  ],
];

describe("services state their permission", () => {
  it.each(CASES)("%s without %s throws FORBIDDEN naming it", async (_name, permission, run) => {
    const t = await seedTenant();
    await expect(run(principalWithout(t, permission))).rejects.toMatchObject({
      code: "FORBIDDEN",
      status: 403,
      details: { requiredPermission: permission },
    });
  });

  it("a refused write leaves nothing behind", async () => {
    const t = await seedTenant();
    const p = principalWithout(t, "webhook_endpoints.manage");
    await expect(
      createEndpoint(testDeps(), p, { url: "https://merchant.example.com/hooks", eventKinds: ["*"] } as never),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(createWorkspace(testDeps(), principalWithout(t, "workspaces.manage"), { name: "W" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const endpoints = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_endpoints WHERE organization_id = ?")
      .bind(t.organizationId)
      .first<{ n: number }>();
    const workspaces = await env.DB.prepare("SELECT COUNT(*) AS n FROM workspaces WHERE organization_id = ?")
      .bind(t.organizationId)
      .first<{ n: number }>();
    expect(endpoints!.n).toBe(0);
    expect(workspaces!.n).toBe(1);
  });

  it("the same principal with the permission goes through (the check is not a blanket refusal)", async () => {
    const t = await seedTenant();
    const p = principalWithout(t, "audit_logs.read"); // holds workspaces.manage
    const created = (await createWorkspace(testDeps(), p, { name: "Granted" })) as { name: string };
    expect(created.name).toBe("Granted");
  });
});

async function form(path: string, cookie: string, fields: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    redirect: "manual",
    headers: { Origin: BASE, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
}

describe("console pages get the service's refusal", () => {
  it("a viewer's forged webhook, API key and gateway actions are 403 naming the permission, with nothing changed", async () => {
    const { organizationId, workspaceId } = await signUpUser();
    const viewer = await seedMember(organizationId, "viewer");
    const owner = principalWithout({ organizationId, workspaceId }, "audit_logs.read");
    const endpoint = (await createEndpoint(testDeps(), owner, {
      url: "https://merchant.example.com/hooks",
      eventKinds: ["*"],
    } as never)) as { id: string; secret: string };
    const endpointId = endpoint.id;
    for (const [path, permission] of [
      ["/console/webhooks", "webhook_endpoints.manage"],
      [`/console/webhooks/${endpointId}/rotate-secret`, "webhook_endpoints.manage"],
      ["/console/api-keys", "api_keys.manage"],
      [`/console/api-keys/${ID}/revoke`, "api_keys.manage"],
      [`/console/gateway/${ID}/verify`, "gateway_accounts.manage"],
    ] as const) {
      const res = await form(
        path,
        viewer.cookie,
        path === "/console/webhooks"
          ? { url: "https://merchant.example.com/h", eventKinds: "*" }
          : { name: "k", permissions: "payments.read" },
      );
      expect(res.status, path).toBe(403);
      expect(await res.text(), path).toContain(permission);
    }
    const keys = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE organization_id = ?")
      .bind(organizationId)
      .first<{ n: number }>();
    expect(keys!.n).toBe(0);
    const endpoints = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_endpoints WHERE organization_id = ?")
      .bind(organizationId)
      .first<{ n: number }>();
    expect(endpoints!.n).toBe(1);
  });
});
