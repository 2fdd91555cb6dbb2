// The audit trail in the organization's log store: rows staged in D1 with the change they record are
// forwarded after the response, a failed forward is retried by the cron without duplicates, reads merge
// what is staged with what is stored (another organization's stay unreachable), and the store's alarm
// applies the organization's audit period.
import { createExecutionContext, env, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { forwardStagedAuditBacklog } from "../../src/db/org-logs/audit-forward";
import type { OrgLogDO } from "../../src/db/org-logs/org-log-do";
import { RETENTION_DEFAULTS } from "../../src/db/org-logs/retention";
import { orgLogs } from "../../src/db/org-logs/stub";
import type { AuditLogRecord } from "../../src/db/org-logs/tables";
import { newId } from "../../src/lib/ids";
import worker from "../../src/index";
import type { AuditLog, Reply } from "./bodies";
import { BASE, call, seedApiKey, seedTenant, type TestTenant } from "./support";

const staged = async (organizationId: string) =>
  (await env.DB.prepare("SELECT id FROM audit_logs WHERE organization_id = ? ORDER BY id").bind(organizationId).all<{ id: string }>())
    .results;
const stored = async (organizationId: string) => (await orgLogs(env, organizationId).auditLogs([], { limit: 100, offset: 0 })).rows;

/** A request through the worker with the given bindings, waiting for its after-response work. */
async function send(t: TestTenant, method: string, path: string, body: unknown, bindings: Partial<typeof env> = {}) {
  const ctx = createExecutionContext();
  const request = new Request(`${BASE}${path}`, {
    method,
    headers: { Authorization: `Bearer ${t.key}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch(request, { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** A store whose every call fails, as when the object is unreachable. */
const downStore = {
  idFromName: (name: string) => env.ORG_LOGS.idFromName(name),
  get: () => ({ append: () => Promise.reject(new Error("store unreachable")) }),
} as unknown as DurableObjectNamespace<OrgLogDO>;

const entry = (createdAt: string, action = "workspace.updated"): AuditLogRecord => ({
  id: newId(),
  workspaceId: null,
  actorType: "user",
  actorId: "u_1",
  action,
  targetType: "workspace",
  targetId: "w_1",
  requestId: "req_test",
  metadata: JSON.stringify({ n: 1 }),
  createdAt,
});

const listed = (t: TestTenant, query = "") => call<Reply<AuditLog[]>>("GET", `/api/v1/audit-logs${query}`, { key: t.key });

describe("audit trail forwarding", () => {
  it("a change's audit row is forwarded to the organization's store after the response and leaves D1", async () => {
    const t = await seedTenant();
    const res = await send(t, "POST", "/api/v1/workspaces", { name: "Filial Leste" });
    expect(res.status).toBe(201);
    const workspace = ((await res.json()) as Reply<{ id: string }>).data;
    expect(await staged(t.organizationId)).toEqual([]);
    expect((await stored(t.organizationId)).map((r) => [r.action, r.targetId])).toEqual([["workspace.created", workspace.id]]);
    const shown = await listed(t);
    expect(shown.body.data).toMatchObject([
      { action: "workspace.created", organizationId: t.organizationId, target: { id: workspace.id } },
    ]);
  });

  it("a forward that fails keeps the rows staged (still listed); the cron forwards them once, and a re-run adds nothing", async () => {
    const t = await seedTenant();
    expect((await send(t, "POST", "/api/v1/workspaces", { name: "A" }, { ORG_LOGS: downStore })).status).toBe(201);
    expect((await send(t, "POST", "/api/v1/workspaces", { name: "B" }, { ORG_LOGS: downStore })).status).toBe(201);
    const waiting = await staged(t.organizationId);
    expect(waiting).toHaveLength(2);
    expect(await stored(t.organizationId)).toEqual([]);
    // Read-your-writes while staged.
    expect((await listed(t, "?action=workspace.created")).body.meta.pagination.totalCount).toBe(2);
    // One row already acknowledged by the store but not yet deleted from D1: still counted once.
    const [first] = (await env.DB.prepare("SELECT * FROM audit_logs WHERE id = ?").bind(waiting[0]!.id).all()).results;
    expect(first).toBeDefined();
    await orgLogs(env, t.organizationId).append({
      auditLogs: [
        {
          id: String(first!.id),
          workspaceId: first!.workspace_id as string,
          actorType: "api_key",
          actorId: String(first!.actor_id),
          action: String(first!.action),
          targetType: String(first!.target_type),
          targetId: String(first!.target_id),
          requestId: String(first!.request_id),
          metadata: first!.metadata as string | null,
          createdAt: String(first!.created_at),
        },
      ],
    });
    expect((await listed(t)).body.meta.pagination.totalCount).toBe(2);

    // A run is bounded: one batch of one row forwards exactly one row.
    const allStaged = async () => (await env.DB.prepare("SELECT count(*) AS n FROM audit_logs").first<{ n: number }>())?.n ?? 0;
    const before = await allStaged();
    expect(await forwardStagedAuditBacklog(env, { batchRows: 1, batchesPerRun: 1 })).toBe(1);
    expect(await allStaged()).toBe(before - 1);
    await forwardStagedAuditBacklog(env, { batchRows: 1, batchesPerRun: 1_000 });
    expect(await staged(t.organizationId)).toEqual([]);
    expect((await stored(t.organizationId)).map((r) => r.id).sort()).toEqual(waiting.map((r) => r.id).sort());
    expect(await forwardStagedAuditBacklog(env)).toBe(0);
    expect(await stored(t.organizationId)).toHaveLength(2);
    const page = await listed(t);
    expect(page.body.data.map((r) => r.id).sort()).toEqual(waiting.map((r) => r.id).sort());
  });

  it("the cron's run is bounded, and one organization's failing store does not hold back another's rows", async () => {
    const [a, b] = [await seedTenant(), await seedTenant()];
    await send(a, "POST", "/api/v1/workspaces", { name: "A" }, { ORG_LOGS: downStore });
    await send(b, "POST", "/api/v1/workspaces", { name: "B" }, { ORG_LOGS: downStore });
    expect(await staged(a.organizationId)).toHaveLength(1);
    const failingForA = {
      idFromName: (name: string) => env.ORG_LOGS.idFromName(name),
      get: (id: DurableObjectId) => (id.equals(env.ORG_LOGS.idFromName(a.organizationId)) ? downStore.get(id) : env.ORG_LOGS.get(id)),
    } as unknown as DurableObjectNamespace<OrgLogDO>;
    await forwardStagedAuditBacklog({ DB: env.DB, ORG_LOGS: failingForA }, { batchRows: 1, batchesPerRun: 1_000 });
    expect(await staged(a.organizationId)).toHaveLength(1);
    expect(await staged(b.organizationId)).toEqual([]);
    expect(await stored(b.organizationId)).toHaveLength(1);
  });
});

describe("reading the audit trail", () => {
  it("merges staged and stored rows newest first across pages, with the same filters, and never another organization's", async () => {
    const [t, other] = [await seedTenant(), await seedTenant()];
    const old = [entry("2026-01-01T00:00:01.000Z"), entry("2026-01-01T00:00:03.000Z", "api_key.created")];
    await orgLogs(env, t.organizationId).append({ auditLogs: old });
    await orgLogs(env, other.organizationId).append({ auditLogs: [entry("2026-01-01T00:00:05.000Z")] });
    const fresh = entry("2026-01-01T00:00:02.000Z");
    await env.DB.prepare(
      `INSERT INTO audit_logs (id, organization_id, workspace_id, actor_type, actor_id, action, target_type, target_id, request_id, metadata, created_at)
       VALUES (?, ?, NULL, 'user', 'u_1', 'workspace.updated', 'workspace', 'w_1', 'req_test', '{"n":2}', ?)`,
    )
      .bind(fresh.id, t.organizationId, fresh.createdAt)
      .run();

    const first = await listed(t, "?limit=2");
    expect(first.body.data.map((r) => r.id)).toEqual([old[1]!.id, fresh.id]);
    expect(first.body.meta.pagination).toMatchObject({ totalCount: 3, hasMore: true });
    expect(first.body.data[1]).toMatchObject({ metadata: { n: 2 }, actor: { type: "user", id: "u_1" } });
    const second = await listed(t, "?limit=2&offset=2");
    expect(second.body.data.map((r) => r.id)).toEqual([old[0]!.id]);
    expect(second.body.data[0]).toMatchObject({ organizationId: t.organizationId, metadata: { n: 1 }, workspaceId: null });

    const filtered = await listed(t, "?action=workspace.updated&to=2026-01-01T00:00:01.500Z");
    expect(filtered.body.data.map((r) => r.id)).toEqual([old[0]!.id]);
    expect((await listed(other)).body.data).toHaveLength(1);
    expect((await listed(other)).body.data.map((r) => r.id)).not.toContain(fresh.id);
  });

  it("a workspace-bound key sees only its workspace's entries, staged or stored", async () => {
    const t = await seedTenant();
    const { key } = await seedApiKey(t.organizationId, t.workspaceId, { permissions: ["audit_logs.read"] });
    const bound = { ...t, key };
    const own = { ...entry("2026-01-01T00:00:01.000Z"), workspaceId: t.workspaceId };
    await orgLogs(env, t.organizationId).append({ auditLogs: [own, entry("2026-01-01T00:00:02.000Z")] });
    const ownStaged = newId();
    await env.DB.prepare(
      `INSERT INTO audit_logs (id, organization_id, workspace_id, actor_type, actor_id, action, target_type, target_id, request_id, created_at)
       VALUES (?1, ?2, ?3, 'user', 'u_1', 'workspace.updated', 'workspace', 'w_1', 'req_test', '2026-01-01T00:00:03.000Z'),
              (?4, ?2, NULL, 'user', 'u_1', 'workspace.updated', 'workspace', 'w_1', 'req_test', '2026-01-01T00:00:04.000Z')`,
    )
      .bind(ownStaged, t.organizationId, t.workspaceId, newId())
      .run();
    const seen = await listed(bound);
    expect(seen.body.data.map((r) => r.id)).toEqual([ownStaged, own.id]);
    expect(seen.body.meta.pagination.totalCount).toBe(2);
    expect((await listed(t)).body.meta.pagination.totalCount).toBe(4);
  });
});

describe("audit retention in the store", () => {
  it("the alarm deletes audit rows past the organization's period, and only those", async () => {
    const org = newId();
    const now = new Date("2026-06-01T12:00:00.000Z");
    const daysAgo = (d: number) => new Date(now.getTime() - d * 24 * 60 * 60 * 1000).toISOString();
    const store = orgLogs(env, org);
    const [kept, gone] = [entry(daysAgo(29)), entry(daysAgo(31))];
    await store.append({ auditLogs: [kept, gone, entry(daysAgo(401))] });
    const prune = () =>
      runInDurableObject(store, async (instance: OrgLogDO) => {
        instance.now = () => now;
        return instance.pruneExpired();
      });
    expect(await prune()).toMatchObject({ audit_logs: 1 }); // the default 400 days
    await store.setRetention({ ...RETENTION_DEFAULTS, auditLogDays: 30 });
    expect(await prune()).toMatchObject({ audit_logs: 1 });
    expect((await store.auditLogs([], { limit: 10, offset: 0 })).rows.map((r) => r.id)).toEqual([kept.id]);
  });
});
