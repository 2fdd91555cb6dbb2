// Authentication and tenant selection: who may call, in which environment, for which tenant.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createDb } from "../../src/db/client";
import { apiKeys } from "../../src/db/schema";
import { call, expectError, seedApiKey, seedTenant, seedWorkspace } from "./support";
import type { Reply, ApiKey, ApiKeyWithSecret, Workspace } from "./bodies";

const revokeKey = (id: string) => createDb(env.DB).update(apiKeys).set({ revokedAt: new Date().toISOString() }).where(eq(apiKeys.id, id));

describe("bearer API keys", () => {
  it("401 without credentials", async () => {
    const error = expectError(await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces"), 401, "UNAUTHORIZED");
    expect(error.message).toContain("Bearer");
  });

  it("401 for a malformed Authorization header", async () => {
    expectError(
      await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { headers: { Authorization: "Basic abc" } }),
      401,
      "UNAUTHORIZED",
    );
  });

  it("401 for an unknown key of the right shape", async () => {
    expectError(await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: `ponte_test_${"A".repeat(40)}` }), 401, "UNAUTHORIZED");
  });

  it("401 ENVIRONMENT_MISMATCH for a live key on a test host, before any lookup", async () => {
    const error = expectError(
      await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: `ponte_live_${"B".repeat(40)}` }),
      401,
      "ENVIRONMENT_MISMATCH",
    );
    expect(error.details).toEqual({ hostEnvironment: "local", keyEnvironment: "live" });
  });

  it("401 for a revoked key", async () => {
    const t = await seedTenant();
    await revokeKey(t.apiKeyId);
    const error = expectError(await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key }), 401, "UNAUTHORIZED");
    expect(error.message).toContain("revoked");
  });

  it("403 FORBIDDEN naming the missing permission", async () => {
    const t = await seedTenant({ permissions: ["workspaces.read"] });
    const error = expectError(
      await call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key: t.key, body: { name: "X" } }),
      403,
      "FORBIDDEN",
    );
    expect(error.details.requiredPermission).toBe("workspaces.manage");
    expect(error.message).toContain("workspaces.manage");
    const [{ n }] = (
      await env.DB.prepare("SELECT count(*) AS n FROM workspaces WHERE organization_id = ?").bind(t.organizationId).all<{ n: number }>()
    ).results as [{ n: number }];
    expect(n).toBe(1);
  });

  it("manage implies read", async () => {
    const t = await seedTenant({ permissions: ["workspaces.manage"] });
    expect((await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key })).status).toBe(200);
  });

  it("records when a key was last used", async () => {
    const t = await seedTenant();
    await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key });
    await new Promise((r) => setTimeout(r, 20));
    const row = await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?")
      .bind(t.apiKeyId)
      .first<{ last_used_at: string | null }>();
    expect(row?.last_used_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});

describe("tenant selection headers", () => {
  it("X-Workspace-Id selects another workspace of the same organization", async () => {
    const t = await seedTenant();
    const second = await seedWorkspace(t.organizationId);
    const res = await call<Reply<Workspace>>("GET", `/api/v1/workspaces/${second}`, { key: t.key, headers: { "X-Workspace-Id": second } });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(second);
  });

  it("403 when X-Workspace-Id names a workspace of another organization", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const error = expectError(
      await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: a.key, headers: { "X-Workspace-Id": b.workspaceId } }),
      403,
      "FORBIDDEN",
    );
    expect(error.details.workspaceId).toBe(b.workspaceId);
  });

  it("403 when X-Organization-Id names another organization", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    expectError(
      await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: a.key, headers: { "X-Organization-Id": b.organizationId } }),
      403,
      "FORBIDDEN",
    );
    expect(
      (await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: a.key, headers: { "X-Organization-Id": a.organizationId } }))
        .status,
    ).toBe(200);
  });

  it("a workspace-bound key cannot switch workspace", async () => {
    const t = await seedTenant({ workspaceBound: true });
    const second = await seedWorkspace(t.organizationId);
    expectError(
      await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key, headers: { "X-Workspace-Id": second } }),
      403,
      "FORBIDDEN",
    );
  });

  it("a workspace-bound key sees only its own workspace", async () => {
    const t = await seedTenant({ workspaceBound: true });
    const second = await seedWorkspace(t.organizationId);
    const list = await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key });
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([t.workspaceId]);
    expectError(await call<Reply<Workspace>>("GET", `/api/v1/workspaces/${second}`, { key: t.key }), 404, "NOT_FOUND");
  });

  it("an archived workspace refuses API requests", async () => {
    const t = await seedTenant();
    const second = await seedWorkspace(t.organizationId);
    expect((await call<Reply<Workspace>>("POST", `/api/v1/workspaces/${second}/archive`, { key: t.key })).status).toBe(200);
    expectError(
      await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key, headers: { "X-Workspace-Id": second } }),
      403,
      "FORBIDDEN",
    );
  });

  it("a key of a second organization-wide credential still works after another key is revoked", async () => {
    const t = await seedTenant();
    const other = await seedApiKey(t.organizationId, null);
    await call<Reply<ApiKey>>("POST", `/api/v1/api-keys/${t.apiKeyId}/revoke`, { key: other.key });
    expect((await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: other.key })).status).toBe(200);
    expectError(await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key }), 401, "UNAUTHORIZED");
  });
});

describe("API-key lookups on a warm isolate", () => {
  it("a key revoked through the API stops working at once", async () => {
    const t = await seedTenant();
    const other = await seedApiKey(t.organizationId, null);
    expect((await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: other.key })).status).toBe(200); // cached now
    await call<Reply<ApiKey>>("POST", `/api/v1/api-keys/${other.apiKeyId}/revoke`, { key: t.key });
    expectError(await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: other.key }), 401, "UNAUTHORIZED");
  });

  it("a key revoked elsewhere is accepted by at most one more request, then refused", async () => {
    const t = await seedTenant();
    expect((await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key })).status).toBe(200); // cached now
    // Another isolate revokes it: only the database knows.
    await revokeKey(t.apiKeyId);
    await new Promise((r) => setTimeout(r, 1100)); // past the fresh window: the next hit re-reads in the background
    const stale = await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key });
    expect([200, 401]).toContain(stale.status);
    await new Promise((r) => setTimeout(r, 50));
    expectError(await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key }), 401, "UNAUTHORIZED");
  });

  it("an unknown key is never cached: a key created later works at once", async () => {
    const t = await seedTenant();
    const created = (
      await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
        key: t.key,
        body: { name: "late", permissions: ["workspaces.read"] },
      })
    ).body.data;
    expect((await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: created.secret })).status).toBe(200);
  });
});
