// Gateway accounts (the workspace's upstream credential) and the gateway API log.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { openSecret, sha256Hex } from "../../src/lib/secret-box";
import { BASE, call, type Envelope, expectError, seedApiKey, seedTenant, type ApiResponse } from "./support";
import {
  addFault,
  seedGatewayAccount,
  simKey,
  simRequests,
  type UpstreamList,
  type UpstreamWebhookConfig,
  upstream,
  waitForLogs,
} from "./gateway-support";
import type { DeletedGatewayAccount, GatewayAccount, GatewayAccountWithToken, GatewayApiLog, Reply } from "./bodies";
import { auditTrail } from "./audit-support";

/** The stored gateway account columns these tests read. */
interface StoredGatewayAccount {
  id: string;
  status: string;
  environment: string;
  upstream_key_last4: string;
  upstream_key_sealed: string;
  webhook_token_hash: string;
}

const dbRow = (id: string) => env.DB.prepare("SELECT * FROM gateway_accounts WHERE id = ?").bind(id).first<StoredGatewayAccount>();
const auditActions = async (tenant: { organizationId: string }, targetId: string) =>
  (await auditTrail(tenant.organizationId, { targetId })).map(({ action, metadata }) => ({ action, metadata }));

function expectNoSecrets(res: ApiResponse, ...secrets: string[]) {
  const text = JSON.stringify(res.body) + JSON.stringify([...res.headers]);
  for (const s of secrets) expect(text).not.toContain(s);
  expect(text).not.toContain("upstreamKeySealed");
  expect(text).not.toContain("webhookTokenHash");
}

async function createAccount(key: string, upstreamApiKey = simKey()) {
  const res = await call<Reply<GatewayAccountWithToken>>("POST", "/api/v1/gateway-accounts", { key, body: { upstreamApiKey } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { res, account: res.body.data, upstreamApiKey };
}

describe("POST /api/v1/gateway-accounts", () => {
  it("seals the key, returns the webhook token once, and points the upstream webhook at Ponte", async () => {
    const tenant = await seedTenant();
    const { res, account, upstreamApiKey } = await createAccount(tenant.key);
    expect(account).toMatchObject({
      object: "gateway_account",
      workspaceId: tenant.workspaceId,
      environment: "test",
      upstreamKeyLast4: upstreamApiKey.slice(-4),
      status: "unverified",
      verifiedAt: null,
      inboundWebhookUrl: `${env.PUBLIC_BASE_URL}/api/v1/webhooks/upstream/${account.id}`,
      upstreamWebhook: { configured: true },
    });
    expect(account.inboundWebhookToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expectNoSecrets(res, upstreamApiKey);

    const row = (await dbRow(account.id))!;
    expect(row.upstream_key_sealed).not.toContain(upstreamApiKey);
    expect(await openSecret(env, row.upstream_key_sealed, account.id)).toBe(upstreamApiKey);
    expect(row.webhook_token_hash).toBe(await sha256Hex(account.inboundWebhookToken));

    const configs = await upstream<UpstreamList<UpstreamWebhookConfig>>(upstreamApiKey, "GET", "/v3/webhooks");
    expect(configs.body.data).toHaveLength(1);
    expect(configs.body.data[0]).toMatchObject({ url: account.inboundWebhookUrl, authToken: account.inboundWebhookToken, enabled: true });
    expect(configs.body.data[0]?.events).toEqual(expect.arrayContaining(["PAYMENT_RECEIVED", "SUBSCRIPTION_CREATED"]));

    const audit = await auditActions(tenant, account.id);
    expect(audit.map((a) => a.action)).toEqual(["gateway_account.created"]);
    expect(JSON.stringify(audit)).not.toContain(upstreamApiKey);
  });

  it("uses PUBLIC_BASE_URL for the inbound webhook URL when set", async () => {
    const tenant = await seedTenant();
    const res = await (await buildApp()).request(
      `${BASE}/api/v1/gateway-accounts`,
      {
        method: "POST",
        headers: { Authorization: `Bearer ${tenant.key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ upstreamApiKey: simKey() }),
      },
      { ...env, PUBLIC_BASE_URL: "https://api.ponte.example/" },
    );
    const body = (await res.json()) as Envelope<{ id: string; inboundWebhookUrl: string }>;
    expect(res.status).toBe(201);
    expect(body.data.inboundWebhookUrl).toBe(`https://api.ponte.example/api/v1/webhooks/upstream/${body.data.id}`);
  });

  it("still creates the account when the upstream refuses the key, reporting the webhook as not configured", async () => {
    const tenant = await seedTenant();
    const { account } = await createAccount(tenant.key, "wrong-key-123");
    expect(account.upstreamWebhook).toEqual({ configured: false, errorCode: "UPSTREAM_AUTH_FAILED" });
    expect(account.status).toBe("unverified");
  });

  it("409 CONFLICT when the workspace already has one for this environment", async () => {
    const tenant = await seedTenant();
    await createAccount(tenant.key);
    expectError(
      await call<Reply<GatewayAccountWithToken>>("POST", "/api/v1/gateway-accounts", {
        key: tenant.key,
        body: { upstreamApiKey: simKey() },
      }),
      409,
      "CONFLICT",
    );
    const { results } = await env.DB.prepare("SELECT id FROM gateway_accounts WHERE workspace_id = ?").bind(tenant.workspaceId).all();
    expect(results).toHaveLength(1);
  });

  it.each([
    [{}, "body.upstreamApiKey"],
    [{ upstreamApiKey: "short" }, "body.upstreamApiKey"],
    [{ upstreamApiKey: "has a space in it" }, "body.upstreamApiKey"],
    [{ upstreamApiKey: simKey(), extra: 1 }, "body.extra"],
  ])("400 VALIDATION_FAILED for %j", async (body, path) => {
    const tenant = await seedTenant();
    const error = expectError(
      await call<Reply<GatewayAccountWithToken>>("POST", "/api/v1/gateway-accounts", { key: tenant.key, body }),
      400,
      "VALIDATION_FAILED",
    );
    expect(error.details.fields.map((f: { path: unknown }) => f.path)).toContain(path);
  });
});

describe("reading, replacing, verifying, rotating, deleting", () => {
  it("list and get never return the key; other tenants see 404 and an empty list", async () => {
    const tenant = await seedTenant();
    const { account, upstreamApiKey } = await createAccount(tenant.key);
    const list = await call<Reply<GatewayAccount[]>>("GET", "/api/v1/gateway-accounts", { key: tenant.key });
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { id: unknown }) => a.id)).toEqual([account.id]);
    expect(list.body.meta.pagination).toEqual({ limit: 10, offset: 0, totalCount: 1, hasMore: false });
    expect(list.body.data[0]).not.toHaveProperty("inboundWebhookToken");
    const one = await call<Reply<GatewayAccount>>("GET", `/api/v1/gateway-accounts/${account.id}`, { key: tenant.key });
    expect(one.body.data).toEqual(list.body.data[0]);
    for (const res of [list, one]) expectNoSecrets(res, upstreamApiKey, account.inboundWebhookToken);

    const other = await seedTenant();
    expectError(await call<Reply<GatewayAccount>>("GET", `/api/v1/gateway-accounts/${account.id}`, { key: other.key }), 404, "NOT_FOUND");
    expect((await call<Reply<GatewayAccount[]>>("GET", "/api/v1/gateway-accounts", { key: other.key })).body.data).toEqual([]);
    for (const [method, path] of [
      ["PATCH", ""],
      ["POST", "/verify"],
      ["POST", "/rotate-webhook-token"],
      ["DELETE", ""],
    ] as const) {
      expectError(
        await call(method, `/api/v1/gateway-accounts/${account.id}${path}`, {
          key: other.key,
          ...(method === "PATCH" ? { body: { upstreamApiKey: simKey() } } : {}),
        }),
        404,
        "NOT_FOUND",
      );
    }
    expect((await dbRow(account.id))!.upstream_key_sealed).toBeTruthy();
  });

  it("verify: active when the upstream answers, invalid_credentials when it refuses, unchanged on an upstream failure", async () => {
    const tenant = await seedTenant();
    const { account, upstreamApiKey } = await createAccount(tenant.key);
    const ok = await call<Reply<GatewayAccount>>("POST", `/api/v1/gateway-accounts/${account.id}/verify`, { key: tenant.key });
    expect(ok.status).toBe(200);
    expect(ok.body.data.status).toBe("active");
    expect(Date.parse(ok.body.data.verifiedAt ?? "")).not.toBeNaN();

    await addFault(upstreamApiKey, { fault: "status", status: 503 });
    expectError(await call("POST", `/api/v1/gateway-accounts/${account.id}/verify`, { key: tenant.key }), 502, "UPSTREAM_ERROR");
    expect((await dbRow(account.id))!.status).toBe("active");

    const patched = await call<Reply<GatewayAccount>>("PATCH", `/api/v1/gateway-accounts/${account.id}`, {
      key: tenant.key,
      body: { upstreamApiKey: "revoked-key-9876" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ status: "unverified", verifiedAt: null, upstreamKeyLast4: "9876" });
    expectNoSecrets(patched, "revoked-key-9876");
    expect(await openSecret(env, (await dbRow(account.id))!.upstream_key_sealed, account.id)).toBe("revoked-key-9876");

    const refused = await call<Reply<GatewayAccount>>("POST", `/api/v1/gateway-accounts/${account.id}/verify`, { key: tenant.key });
    expect(refused.body.data.status).toBe("invalid_credentials");
    expect((await auditActions(tenant, account.id)).map((a) => a.action)).toEqual([
      "gateway_account.created",
      "gateway_account.verified",
      "gateway_account.key_replaced",
      "gateway_account.verified",
    ]);
  });

  it("rotate-webhook-token: a new token once, the old hash replaced, the same upstream webhook re-pointed", async () => {
    const tenant = await seedTenant();
    const { account, upstreamApiKey } = await createAccount(tenant.key);
    const res = await call<Reply<GatewayAccountWithToken>>("POST", `/api/v1/gateway-accounts/${account.id}/rotate-webhook-token`, {
      key: tenant.key,
    });
    expect(res.status).toBe(200);
    const token = res.body.data.inboundWebhookToken;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toBe(account.inboundWebhookToken);
    expect(res.body.data.upstreamWebhook).toEqual({ configured: true });
    expect((await dbRow(account.id))!.webhook_token_hash).toBe(await sha256Hex(token));
    const configs = (await upstream<UpstreamList<UpstreamWebhookConfig>>(upstreamApiKey, "GET", "/v3/webhooks")).body.data;
    expect(configs).toHaveLength(1);
    expect(configs[0]?.authToken).toBe(token);
    expectNoSecrets(res, upstreamApiKey);
  });

  it("delete: gone, its upstream webhook config removed (others kept), and passthrough calls then answer 409 GATEWAY_ACCOUNT_MISSING", async () => {
    const tenant = await seedTenant();
    const { account, upstreamApiKey } = await createAccount(tenant.key);
    const other = {
      name: "merchant's own",
      url: "https://merchant.example/hooks",
      authToken: "merchant-token-0001",
      sendType: "SEQUENTIALLY",
      events: [],
    };
    expect((await upstream(upstreamApiKey, "POST", "/v3/webhooks", other)).status).toBe(200);
    expect((await call("GET", "/api/v1/finance/balance", { key: tenant.key })).status).toBe(200);
    const res = await call<Reply<DeletedGatewayAccount>>("DELETE", `/api/v1/gateway-accounts/${account.id}`, { key: tenant.key });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(account.id);
    expect(res.body.data.upstreamWebhook).toEqual({ removed: true });
    expect(
      (await upstream<UpstreamList<UpstreamWebhookConfig>>(upstreamApiKey, "GET", "/v3/webhooks")).body.data.map((w) => w.url),
    ).toEqual([other.url]);
    expectNoSecrets(res, upstreamApiKey);
    expect(await dbRow(account.id))!.toBeNull();
    expectError(await call<Reply<GatewayAccount>>("GET", `/api/v1/gateway-accounts/${account.id}`, { key: tenant.key }), 404, "NOT_FOUND");
    expectError(await call("GET", "/api/v1/finance/balance", { key: tenant.key }), 409, "GATEWAY_ACCOUNT_MISSING");
    expect((await auditActions(tenant, account.id)).map((a) => a.action)).toContain("gateway_account.deleted");
  });

  it("delete still deletes when the upstream refuses the key, and says the webhook config was not removed", async () => {
    const tenant = await seedTenant();
    const { account, upstreamApiKey } = await createAccount(tenant.key);
    await addFault(upstreamApiKey, { fault: "status", status: 401, method: "GET", pathPrefix: "/v3/webhooks" });
    const res = await call<Reply<DeletedGatewayAccount>>("DELETE", `/api/v1/gateway-accounts/${account.id}`, { key: tenant.key });
    expect(res.status).toBe(200);
    expect(res.body.data.upstreamWebhook).toEqual({ removed: false, errorCode: "UPSTREAM_AUTH_FAILED" });
    expect(await dbRow(account.id))!.toBeNull();
    expect((await upstream<UpstreamList<UpstreamWebhookConfig>>(upstreamApiKey, "GET", "/v3/webhooks")).body.data).toHaveLength(1); // left in place, as reported
  });

  it("a replaced key is used by the very next passthrough call (the credential cache is dropped on write)", async () => {
    const tenant = await seedTenant();
    const { account, upstreamApiKey } = await createAccount(tenant.key);
    expect((await call("GET", "/api/v1/finance/balance", { key: tenant.key })).status).toBe(200);
    const replacement = simKey();
    expect(
      (
        await call<Reply<GatewayAccount>>("PATCH", `/api/v1/gateway-accounts/${account.id}`, {
          key: tenant.key,
          body: { upstreamApiKey: replacement },
        })
      ).status,
    ).toBe(200);
    expect((await call("GET", "/api/v1/finance/balance", { key: tenant.key })).status).toBe(200);
    const paths = async (key: string) => (await simRequests(key)).filter((r) => r.path === "/v3/finance/balance").length;
    expect([await paths(upstreamApiKey), await paths(replacement)]).toEqual([1, 1]);
  });

  it("permissions: read may list and get; every write needs gateway_accounts.manage", async () => {
    const owner = await seedTenant();
    const { account } = await createAccount(owner.key);
    const { key: readKey } = await seedApiKey(owner.organizationId, null, { permissions: ["gateway_accounts.read"] });
    expect((await call<Reply<GatewayAccount[]>>("GET", "/api/v1/gateway-accounts", { key: readKey })).status).toBe(200);
    expect((await call<Reply<GatewayAccount>>("GET", `/api/v1/gateway-accounts/${account.id}`, { key: readKey })).status).toBe(200);
    const writes: [string, string, unknown?][] = [
      ["POST", "/api/v1/gateway-accounts", { upstreamApiKey: simKey() }],
      ["PATCH", `/api/v1/gateway-accounts/${account.id}`, { upstreamApiKey: simKey() }],
      ["POST", `/api/v1/gateway-accounts/${account.id}/verify`],
      ["POST", `/api/v1/gateway-accounts/${account.id}/rotate-webhook-token`],
      ["DELETE", `/api/v1/gateway-accounts/${account.id}`],
    ];
    for (const [method, path, body] of writes) {
      const error = expectError(await call(method, path, { key: readKey, body }), 403, "FORBIDDEN");
      expect(error.details.requiredPermission).toBe("gateway_accounts.manage");
    }
    const none = await seedTenant({ permissions: ["payments.read"] });
    expectError(await call<Reply<GatewayAccount[]>>("GET", "/api/v1/gateway-accounts", { key: none.key }), 403, "FORBIDDEN");
    expectError(await call<Reply<GatewayApiLog[]>>("GET", "/api/v1/gateway-api-logs", { key: none.key }), 403, "FORBIDDEN");
  });
});

describe("GET /api/v1/gateway-api-logs", () => {
  it("lists this workspace's upstream calls newest first, filters, and hides other tenants'", async () => {
    const tenant = await seedTenant();
    const upstreamKey = simKey();
    const accountId = await seedGatewayAccount(tenant, upstreamKey);
    const before = new Date().toISOString();
    await call("GET", "/api/v1/finance/balance?limit=1", { key: tenant.key });
    await call("GET", "/api/v1/webhooks/wbh_missing", { key: tenant.key });
    await call("POST", "/api/v1/pix/qrCodes/decode", { key: tenant.key, body: { payload: "000201" } });
    await waitForLogs(tenant, 3);

    const all = await call<Reply<GatewayApiLog[]>>("GET", "/api/v1/gateway-api-logs", { key: tenant.key });
    expect(all.status).toBe(200);
    expect(all.body.meta.pagination.totalCount).toBe(3);
    expect(all.body.data.map((l: { operationId: unknown }) => l.operationId)).toEqual([
      "decodificar-um-qrcode-para-pagamento",
      "recuperar-um-unico-webhook",
      "recuperar-saldo-da-conta",
    ]);
    expect(all.body.data[2]).toMatchObject({
      object: "gateway_api_log",
      gatewayAccountId: accountId,
      method: "GET",
      surfacePath: "/api/v1/finance/balance",
      upstreamPath: "/v3/finance/balance",
      upstreamStatus: 200,
      errorCode: null,
    });
    expect(all.body.data[1]!.upstreamStatus).toBe(404);
    expect(JSON.stringify(all.body)).not.toContain(upstreamKey);

    const byOp = await call<Reply<GatewayApiLog[]>>("GET", "/api/v1/gateway-api-logs?operationId=recuperar-saldo-da-conta", {
      key: tenant.key,
    });
    expect(byOp.body.data).toHaveLength(1);
    const byStatus = await call<Reply<GatewayApiLog[]>>("GET", "/api/v1/gateway-api-logs?status=404", { key: tenant.key });
    expect(byStatus.body.data.map((l: { upstreamPath: unknown }) => l.upstreamPath)).toEqual(["/v3/webhooks/wbh_missing"]);
    expect(
      (
        await call<Reply<GatewayApiLog[]>>("GET", `/api/v1/gateway-api-logs?from=${encodeURIComponent(before)}&limit=2`, {
          key: tenant.key,
        })
      ).body.meta.pagination,
    ).toEqual({ limit: 2, offset: 0, totalCount: 3, hasMore: true });
    expect(
      (await call<Reply<GatewayApiLog[]>>("GET", "/api/v1/gateway-api-logs?to=2000-01-01T00:00:00Z", { key: tenant.key })).body.data,
    ).toEqual([]);
    expectError(
      await call<Reply<GatewayApiLog[]>>("GET", "/api/v1/gateway-api-logs?status=abc", { key: tenant.key }),
      400,
      "VALIDATION_FAILED",
    );

    const one = await call<Reply<GatewayApiLog>>("GET", `/api/v1/gateway-api-logs/${all.body.data[0]!.id}`, { key: tenant.key });
    expect(one.body.data).toEqual(all.body.data[0]);

    const other = await seedTenant();
    expect((await call<Reply<GatewayApiLog[]>>("GET", "/api/v1/gateway-api-logs", { key: other.key })).body.data).toEqual([]);
    expectError(
      await call<Reply<GatewayApiLog>>("GET", `/api/v1/gateway-api-logs/${all.body.data[0]!.id}`, { key: other.key }),
      404,
      "NOT_FOUND",
    );
  });
});
