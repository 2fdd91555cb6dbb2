// Organizations, workspaces and the audit trail of every control-plane write.
import { describe, expect, it } from "vitest";
import { call, expectError, seedTenant } from "./support";
import type { ApiKey, ApiKeyWithSecret, AuditLog, Organization, Reply, Workspace } from "./bodies";
import { auditTrail } from "./audit-support";

describe("organization", () => {
  it("reads and renames the current organization", async () => {
    const t = await seedTenant();
    const got = await call<Reply<Organization>>("GET", "/api/v1/organizations/current", { key: t.key });
    expect(got.body.data).toMatchObject({
      id: t.organizationId,
      object: "organization",
      name: "Acme Ltda",
      defaultWorkspaceId: t.workspaceId,
    });
    const renamed = await call<Reply<Organization>>("PATCH", "/api/v1/organizations/current", {
      key: t.key,
      body: { name: "Acme Pagamentos" },
    });
    expect(renamed.body.data.name).toBe("Acme Pagamentos");
    expect((await call<Reply<Organization>>("GET", "/api/v1/organizations/current", { key: t.key })).body.data.name).toBe(
      "Acme Pagamentos",
    );
  });

  it("needs organizations.manage to rename", async () => {
    const t = await seedTenant({ permissions: ["organizations.read"] });
    expectError(
      await call<Reply<Organization>>("PATCH", "/api/v1/organizations/current", { key: t.key, body: { name: "x" } }),
      403,
      "FORBIDDEN",
    );
  });
});

describe("workspaces", () => {
  it("creates, lists, gets, renames and archives", async () => {
    const t = await seedTenant();
    const created = await call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key: t.key, body: { name: "Filial Sul" } });
    expect(created.status).toBe(201);
    const ws = created.body.data;
    expect(ws).toMatchObject({ object: "workspace", organizationId: t.organizationId, name: "Filial Sul", status: "active" });
    const list = await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key });
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([ws.id, t.workspaceId]);
    expect(
      (await call<Reply<Workspace>>("PATCH", `/api/v1/workspaces/${ws.id}`, { key: t.key, body: { name: "Filial Sul 2" } })).body.data.name,
    ).toBe("Filial Sul 2");
    const archived = await call<Reply<Workspace>>("POST", `/api/v1/workspaces/${ws.id}/archive`, { key: t.key });
    expect(archived.body.data).toMatchObject({ status: "archived" });
    expectError(
      await call<Reply<Workspace>>("PATCH", `/api/v1/workspaces/${ws.id}`, { key: t.key, body: { name: "x" } }),
      409,
      "INVALID_STATE",
    );
  });

  it("refuses to archive the default workspace", async () => {
    const t = await seedTenant();
    expectError(await call<Reply<Workspace>>("POST", `/api/v1/workspaces/${t.workspaceId}/archive`, { key: t.key }), 409, "INVALID_STATE");
  });

  it("another organization's workspace is 404 on every route", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    expectError(await call<Reply<Workspace>>("GET", `/api/v1/workspaces/${b.workspaceId}`, { key: a.key }), 404, "NOT_FOUND");
    expectError(
      await call<Reply<Workspace>>("PATCH", `/api/v1/workspaces/${b.workspaceId}`, { key: a.key, body: { name: "x" } }),
      404,
      "NOT_FOUND",
    );
    expectError(await call<Reply<Workspace>>("POST", `/api/v1/workspaces/${b.workspaceId}/archive`, { key: a.key }), 404, "NOT_FOUND");
  });

  it("rejects unknown fields and blank names", async () => {
    const t = await seedTenant();
    expectError(
      await call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key: t.key, body: { name: "ok", owner: "me" } }),
      400,
      "VALIDATION_FAILED",
    );
    expectError(
      await call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key: t.key, body: { name: "   " } }),
      400,
      "VALIDATION_FAILED",
    );
    expectError(await call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key: t.key, body: {} }), 400, "VALIDATION_FAILED");
  });
});

describe("audit logs", () => {
  it("records every control-plane write with actor, action, target, request id and time", async () => {
    const t = await seedTenant();
    const ws = await call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key: t.key, body: { name: "Audited" } });
    const key = await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
      key: t.key,
      body: { name: "k", permissions: ["payments.read"] },
    });
    await call<Reply<ApiKey>>("POST", `/api/v1/api-keys/${key.body.data.id}/revoke`, { key: t.key });
    const logs = await call<Reply<AuditLog[]>>("GET", "/api/v1/audit-logs", { key: t.key });
    expect(logs.status).toBe(200);
    expect(logs.body.data.map((e) => e.action)).toEqual(["api_key.revoked", "api_key.created", "workspace.created"]);
    const wsEntry = logs.body.data[2]!;
    expect(wsEntry).toMatchObject({
      object: "audit_log",
      actor: { type: "api_key", id: t.apiKeyId },
      target: { type: "workspace", id: ws.body.data.id },
      requestId: ws.body.meta.requestId,
    });
    expect(Date.parse(wsEntry.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(logs.body)).not.toContain(key.body.data.secret);
  });

  it("filters by action and time, and needs audit_logs.read", async () => {
    const t = await seedTenant();
    await call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key: t.key, body: { name: "One" } });
    const filtered = await call<Reply<AuditLog[]>>("GET", "/api/v1/audit-logs?action=workspace.created", { key: t.key });
    expect(filtered.body.data).toHaveLength(1);
    const future = await call<Reply<AuditLog[]>>(
      "GET",
      `/api/v1/audit-logs?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      {
        key: t.key,
      },
    );
    expect(future.body.data).toHaveLength(0);
    const limited = await seedTenant({ permissions: ["workspaces.read"] });
    expectError(await call<Reply<AuditLog[]>>("GET", "/api/v1/audit-logs", { key: limited.key }), 403, "FORBIDDEN");
  });

  it("a failed write leaves no audit entry and no partial state", async () => {
    const t = await seedTenant();
    await call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key: t.key, body: { name: "" } });
    expect(await auditTrail(t.organizationId)).toEqual([]);
  });

  it("never shows another organization's entries", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    await call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key: b.key, body: { name: "B only" } });
    const logs = await call<Reply<AuditLog[]>>("GET", "/api/v1/audit-logs", { key: a.key });
    expect(logs.body.data).toHaveLength(0);
  });
});
