// API keys: secret shown once, hashed at rest, list/get without secrets, revoke, rotate, no escalation.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/access/api-key-secret";
import { callWithCookie, seedMember } from "./auth-support";
import { call, expectError, seedApiKey, seedTenant } from "./support";
import type { Reply, ApiKey, ApiKeyWithSecret, Workspace } from "./bodies";

describe("api keys", () => {
  it("creates a key whose secret is shown once and works at once", async () => {
    const t = await seedTenant();
    const res = await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
      key: t.key,
      body: { name: "Checkout server", permissions: ["workspaces.read"] },
    });
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(created.secret).toMatch(/^ponte_test_[0-9A-Za-z]{40}$/);
    expect(created.displayPrefix).toBe(created.secret.slice(0, 15));
    expect(created.last4).toBe(created.secret.slice(-4));
    expect(created).toMatchObject({
      object: "api_key",
      name: "Checkout server",
      environment: "test",
      workspaceId: null,
      permissions: ["workspaces.read"],
      revokedAt: null,
    });

    const stored = await env.DB.prepare("SELECT key_hash FROM api_keys WHERE id = ?").bind(created.id).first<{ key_hash: string }>();
    expect(stored?.key_hash).toBe(await hashApiKey(created.secret));
    const rowText = JSON.stringify(await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?").bind(created.id).first());
    expect(rowText).not.toContain(created.secret);

    const got = await call<Reply<ApiKey>>("GET", `/api/v1/api-keys/${created.id}`, { key: t.key });
    expect(got.body.data).not.toHaveProperty("secret");
    const list = await call<Reply<ApiKey[]>>("GET", "/api/v1/api-keys", { key: t.key });
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    expect(list.body.meta.pagination).toEqual({ limit: 10, offset: 0, totalCount: 2, hasMore: false });

    expect((await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: created.secret })).status).toBe(200);
    expectError(
      await call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key: created.secret, body: { name: "no" } }),
      403,
      "FORBIDDEN",
    );
  });

  it("refuses to grant permissions the caller does not hold", async () => {
    const t = await seedTenant({ permissions: ["api_keys.manage"] });
    const error = expectError(
      await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
        key: t.key,
        body: { name: "x", permissions: ["gateway_accounts.manage"] },
      }),
      403,
      "FORBIDDEN",
    );
    expect(error.details.missingPermissions).toEqual(["gateway_accounts.manage"]);
    const { results } = await env.DB.prepare("SELECT id FROM api_keys WHERE organization_id = ?").bind(t.organizationId).all();
    expect(results).toHaveLength(1);
  });

  it("rejects unknown permissions, unknown fields, and the other environment", async () => {
    const t = await seedTenant();
    expectError(
      await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", { key: t.key, body: { name: "x", permissions: ["everything"] } }),
      400,
      "VALIDATION_FAILED",
    );
    expectError(
      await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
        key: t.key,
        body: { name: "x", permissions: ["payments.read"], admin: true },
      }),
      400,
      "VALIDATION_FAILED",
    );
    const error = expectError(
      await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
        key: t.key,
        body: { name: "x", permissions: ["payments.read"], environment: "live" },
      }),
      400,
      "VALIDATION_FAILED",
    );
    expect(error.details.fields[0]?.path).toBe("body.environment");
  });

  it("binds a key to a workspace of its organization only", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const ok = await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
      key: a.key,
      body: { name: "ws", permissions: ["payments.read"], workspaceId: a.workspaceId },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.workspaceId).toBe(a.workspaceId);
    expectError(
      await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
        key: a.key,
        body: { name: "ws", permissions: ["payments.read"], workspaceId: b.workspaceId },
      }),
      404,
      "NOT_FOUND",
    );
  });

  it("revokes: the key stops working at once; revoking again is harmless", async () => {
    const t = await seedTenant();
    const created = (
      await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
        key: t.key,
        body: { name: "tmp", permissions: ["workspaces.read"] },
      })
    ).body.data;
    const revoked = await call<Reply<ApiKey>>("POST", `/api/v1/api-keys/${created.id}/revoke`, { key: t.key });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).not.toBeNull();
    expectError(await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: created.secret }), 401, "UNAUTHORIZED");
    const again = await call<Reply<ApiKey>>("POST", `/api/v1/api-keys/${created.id}/revoke`, { key: t.key });
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
  });

  it("rotates: a new secret once, same name and permissions, the old key revoked", async () => {
    const t = await seedTenant();
    const created = (
      await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
        key: t.key,
        body: { name: "svc", permissions: ["workspaces.read", "payments.manage"] },
      })
    ).body.data;
    const rotated = await call<Reply<ApiKeyWithSecret>>("POST", `/api/v1/api-keys/${created.id}/rotate`, { key: t.key });
    expect(rotated.status).toBe(201);
    expect(rotated.body.data.secret).not.toBe(created.secret);
    expect(rotated.body.data).toMatchObject({ name: "svc", permissions: ["payments.manage", "workspaces.read"] });
    expectError(await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: created.secret }), 401, "UNAUTHORIZED");
    expect((await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: rotated.body.data.secret })).status).toBe(200);
    const old = await call<Reply<ApiKey>>("GET", `/api/v1/api-keys/${created.id}`, { key: t.key });
    expect(old.body.data.replacedBy).toBe(rotated.body.data.id);
    expectError(await call<Reply<ApiKeyWithSecret>>("POST", `/api/v1/api-keys/${created.id}/rotate`, { key: t.key }), 409, "INVALID_STATE");
  });

  it("revoking or rotating a key needs every permission it has: 403 naming what is missing, and the key keeps working", async () => {
    const t = await seedTenant(); // t.key holds every permission
    const manager = await seedApiKey(t.organizationId, null, { permissions: ["api_keys.manage", "payments.read"] });
    for (const action of ["revoke", "rotate"]) {
      const error = expectError(await call("POST", `/api/v1/api-keys/${t.apiKeyId}/${action}`, { key: manager.key }), 403, "FORBIDDEN");
      expect(error.details.missingPermissions).toContain("gateway_accounts.manage");
      expect(error.details.missingPermissions).not.toContain("payments.read");
      expect(error.details.missingPermissions).not.toContain("api_keys.manage");
    }
    const stored = await env.DB.prepare("SELECT revoked_at FROM api_keys WHERE id = ?")
      .bind(t.apiKeyId)
      .first<{ revoked_at: string | null }>();
    expect(stored?.revoked_at).toBeNull();
    expect((await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key })).status).toBe(200);
    // A key within the manager's own permissions can be revoked by it.
    const small = (
      await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
        key: manager.key,
        body: { name: "small", permissions: ["payments.read"] },
      })
    ).body.data;
    expect((await call<Reply<ApiKey>>("POST", `/api/v1/api-keys/${small.id}/revoke`, { key: manager.key })).status).toBe(200);
  });

  it("a console role follows the same rule: a developer cannot revoke an owner-level key", async () => {
    const t = await seedTenant();
    const { cookie } = await seedMember(t.organizationId, "developer");
    const error = expectError(
      await callWithCookie<Reply<ApiKey>>("POST", `/api/v1/api-keys/${t.apiKeyId}/revoke`, cookie),
      403,
      "FORBIDDEN",
    );
    expect(error.details.missingPermissions).toContain("organizations.manage");
    expect((await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key })).status).toBe(200);
  });

  it("another organization's key is 404, never 403", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    expectError(await call<Reply<ApiKey>>("GET", `/api/v1/api-keys/${b.apiKeyId}`, { key: a.key }), 404, "NOT_FOUND");
    expectError(await call<Reply<ApiKey>>("POST", `/api/v1/api-keys/${b.apiKeyId}/revoke`, { key: a.key }), 404, "NOT_FOUND");
    expect((await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: b.key })).status).toBe(200);
  });

  it("pages through keys", async () => {
    const t = await seedTenant();
    for (let i = 0; i < 3; i++)
      await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
        key: t.key,
        body: { name: `k${i}`, permissions: ["payments.read"] },
      });
    const page = await call<Reply<ApiKey[]>>("GET", "/api/v1/api-keys?limit=2&offset=1", { key: t.key });
    expect(page.body.data).toHaveLength(2);
    expect(page.body.meta.pagination).toEqual({ limit: 2, offset: 1, totalCount: 4, hasMore: true });
  });
});
