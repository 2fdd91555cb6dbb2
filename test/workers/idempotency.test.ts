// Idempotency-Key: replay, reuse with another body (422), in flight (409), key length (400), expiry.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { createDb } from "../../src/db/client";
import { idempotencyKeys } from "../../src/db/schema";
import { answerStored, call, expectError, seedApiKey, seedTenant } from "./support";
import type { Reply, ApiKeyWithSecret, Workspace } from "./bodies";

const create = (key: string, idem: string, name = "Loja Centro") =>
  call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key, body: { name }, headers: { "Idempotency-Key": idem } });

async function workspaceCount(organizationId: string) {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM workspaces WHERE organization_id = ?")
    .bind(organizationId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("Idempotency-Key", () => {
  it("replays the first status and body, creating nothing new", async () => {
    const t = await seedTenant();
    const first = await create(t.key, "order-1");
    const again = await create(t.key, "order-1");
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("X-Request-Id")).toBe(first.body.meta.requestId);
    expect(await workspaceCount(t.organizationId)).toBe(2);
  });

  it("422 IDEMPOTENCY_KEY_REUSED when the same key comes with another body", async () => {
    const t = await seedTenant();
    await create(t.key, "order-2", "A");
    const error = expectError(await create(t.key, "order-2", "B"), 422, "IDEMPOTENCY_KEY_REUSED");
    expect(error.details.idempotencyKey).toBe("order-2");
    expect(await workspaceCount(t.organizationId)).toBe(2);
  });

  it("409 IDEMPOTENCY_KEY_IN_USE while the first request is still in flight", async () => {
    const t = await seedTenant();
    const first = await create(t.key, "order-3");
    await answerStored(t.organizationId, "order-3");
    // Make the stored record look in flight again, as it is while the first request runs.
    await createDb(env.DB)
      .update(idempotencyKeys)
      .set({ state: "in_flight", createdAt: Math.floor(Date.now() / 1000) })
      .where(and(eq(idempotencyKeys.organizationId, t.organizationId), eq(idempotencyKeys.key, "order-3")));
    expectError(await create(t.key, "order-3"), 409, "IDEMPOTENCY_KEY_IN_USE");
    expect(first.status).toBe(201);
  });

  it("concurrent duplicates create exactly one record", async () => {
    const t = await seedTenant();
    const results = await Promise.all(Array.from({ length: 6 }, () => create(t.key, "order-4")));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(await workspaceCount(t.organizationId)).toBe(2);
    const created = results.filter((r) => r.status === 201).map((r) => r.body.data.id);
    expect(new Set(created).size).toBe(1);
  });

  it("400 for a key longer than 255 characters", async () => {
    const t = await seedTenant();
    const error = expectError(await create(t.key, "k".repeat(256)), 400, "IDEMPOTENCY_KEY_INVALID");
    expect(error.details.length).toBe(256);
    expect((await create(t.key, "k".repeat(255))).status).toBe(201);
  });

  it("keys are per organization: the same key in two organizations is two requests", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const ra = await create(a.key, "shared");
    const rb = await create(b.key, "shared");
    expect(ra.body.data.id).not.toBe(rb.body.data.id);
    expect(rb.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("an expired key (over 24 h) is a new request", async () => {
    const t = await seedTenant();
    const first = await create(t.key, "order-5", "Old");
    await createDb(env.DB)
      .update(idempotencyKeys)
      .set({ createdAt: sql`${idempotencyKeys.createdAt} - 86401` })
      .where(and(eq(idempotencyKeys.organizationId, t.organizationId), eq(idempotencyKeys.key, "order-5")));
    const second = await create(t.key, "order-5", "New");
    expect(second.status).toBe(201);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(second.body.data.name).toBe("New");
  });

  it("does not keep 'try again' answers: a 409 is not replayed", async () => {
    const t = await seedTenant();
    const ws = (await create(t.key, "setup")).body.data.id;
    await call<Reply<Workspace>>("POST", `/api/v1/workspaces/${ws}/archive`, { key: t.key });
    const renameArchived = () =>
      call<Reply<Workspace>>("PATCH", `/api/v1/workspaces/${ws}`, {
        key: t.key,
        body: { name: "x" },
        headers: { "Idempotency-Key": "rename-1" },
      });
    expectError(await renameArchived(), 409, "INVALID_STATE");
    const row = await env.DB.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE organization_id = ? AND key = 'rename-1'")
      .bind(t.organizationId)
      .first<{ n: number }>();
    expect(row?.n).toBe(0);
  });

  it("keys are per credential: another key of the same organization with the same key and body is a fresh request", async () => {
    const a = await seedTenant();
    const b = await seedApiKey(a.organizationId, a.workspaceId); // bound to the workspace, every permission
    const body = { name: "Shared", permissions: ["payments.read"], workspaceId: a.workspaceId };
    const send = (key: string) =>
      call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", { key, body, headers: { "Idempotency-Key": "same-key" } });
    const first = await send(a.key);
    const other = await send(b.key);
    expect(first.status).toBe(201);
    expect(other.status).toBe(201);
    expect(other.headers.get("Idempotent-Replayed")).toBeNull();
    expect(other.body.data.id).not.toBe(first.body.data.id);
    expect(JSON.stringify(other.body)).not.toContain(first.body.data.secret);
    // The first credential still gets its own answer back.
    const again = await send(a.key);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  it("the same key on another workspace (X-Workspace-Id) is another request: 422, not a replay", async () => {
    const t = await seedTenant();
    await create(t.key, "ws-scope");
    const second = await call<Reply<Workspace>>("POST", "/api/v1/workspaces", {
      key: t.key,
      body: { name: "Loja Centro" },
      headers: { "Idempotency-Key": "ws-scope", "X-Workspace-Id": (await create(t.key, "other")).body.data.id },
    });
    expectError(second, 422, "IDEMPOTENCY_KEY_REUSED");
  });

  it("stored responses are sealed: a created key's secret is in no D1 row, and the replay still returns it", async () => {
    const t = await seedTenant();
    const send = () =>
      call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
        key: t.key,
        body: { name: "Sealed", permissions: ["payments.read"] },
        headers: { "Idempotency-Key": "sealed-1" },
      });
    const first = await send();
    await answerStored(t.organizationId, "sealed-1");
    const secret: string = first.body.data.secret;
    expect(secret).toMatch(/^ponte_test_/);
    const tables = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
    ).all<{ name: string }>();
    expect(tables.results.map((r) => r.name)).toContain("idempotency_keys");
    for (const { name } of tables.results) {
      const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
      expect(JSON.stringify(rows.results), `table ${name}`).not.toContain(secret);
      expect(JSON.stringify(rows.results), `table ${name}`).not.toContain(secret.slice(15, 40));
    }
    const stored = await env.DB.prepare("SELECT response_body FROM idempotency_keys WHERE organization_id = ? AND key = 'sealed-1'")
      .bind(t.organizationId)
      .first<{ response_body: string }>();
    expect(stored?.response_body).toMatch(/^v2\.[A-Za-z0-9_-]{8}\./);
    const again = await send();
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body.data.secret).toBe(secret);
  });

  it("a sealed answer moved to another tenant's or another key's row in D1 does not open there: no replay of the secret", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    const send = (key: string, idem: string) =>
      call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
        key,
        body: { name: "Moved", permissions: ["payments.read"] },
        headers: { "Idempotency-Key": idem },
      });
    const original = await send(a.key, "move-me");
    expect(original.status).toBe(201);
    await answerStored(a.organizationId, "move-me");
    const stolen = await env.DB.prepare(
      "SELECT response_status, response_body FROM idempotency_keys WHERE organization_id = ? AND key = 'move-me'",
    )
      .bind(a.organizationId)
      .first<{ response_status: number; response_body: string }>();
    // Two rows the sealed answer is moved to: another organization's under the same key, and the same organization's under another key.
    const targets = [
      { organizationId: b.organizationId, key: b.key, idem: "move-me" },
      { organizationId: a.organizationId, key: a.key, idem: "other-key" },
    ];
    for (const target of targets) {
      expect((await send(target.key, target.idem)).status).toBe(201);
      await answerStored(target.organizationId, target.idem);
      await env.DB.prepare("UPDATE idempotency_keys SET response_status = ?, response_body = ? WHERE organization_id = ? AND key = ?")
        .bind(stolen?.response_status, stolen?.response_body, target.organizationId, target.idem)
        .run();
      const replay = await send(target.key, target.idem);
      expect(replay.headers.get("Idempotent-Replayed")).toBeNull();
      expect(JSON.stringify(replay.body)).not.toContain(original.body.data.secret);
      expect(JSON.stringify(replay.body)).not.toContain(original.body.data.id);
    }
  });

  it("a request refused before any write claims nothing: the key stays free for the corrected request (as at Stripe)", async () => {
    const t = await seedTenant();
    const bad = await call<Reply<Workspace>>("POST", "/api/v1/workspaces", {
      key: t.key,
      body: { name: "" },
      headers: { "Idempotency-Key": "fix-then-retry" },
    });
    expect(bad.status).toBe(400);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE organization_id = ? AND key = 'fix-then-retry'")
      .bind(t.organizationId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
    const good = await create(t.key, "fix-then-retry", "Loja Corrigida");
    expect(good.status).toBe(201);
    expect(good.body.data.name).toBe("Loja Corrigida");
    expect(await workspaceCount(t.organizationId)).toBe(2);
  });

  it("GET requests ignore the header", async () => {
    const t = await seedTenant();
    const res = await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", {
      key: t.key,
      headers: { "Idempotency-Key": "x".repeat(300) },
    });
    expect(res.status).toBe(200);
  });
});
