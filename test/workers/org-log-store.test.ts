// The per-organization log store (OrgLogDO): its retention alarm deletes exactly what is past each log's
// period by the object's clock, the organization's periods are set through the API (bounded, audited,
// handed to the object), and the one-off copy of the old D1 logs is resumable and idempotent.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { copyLogsToStores } from "../../src/db/org-logs/copy";
import type { OrgLogDO } from "../../src/db/org-logs/org-log-do";
import { RETENTION_DEFAULTS } from "../../src/db/org-logs/retention";
import { orgLogs } from "../../src/db/org-logs/stub";
import type { GatewayCallRecord, WebhookAttemptRecord } from "../../src/db/org-logs/tables";
import { newId } from "../../src/lib/ids";
import { call, expectError, seedTenant } from "./support";
import { auditTrail } from "./audit-support";

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date("2026-06-01T12:00:00.000Z");
const ago = (days: number, ms = 0) => new Date(NOW.getTime() - days * DAY - ms).toISOString();

const gatewayCall = (workspaceId: string, createdAt: string): GatewayCallRecord => ({
  id: newId(),
  workspaceId,
  gatewayAccountId: newId(),
  operationId: "listar-clientes",
  method: "GET",
  surfacePath: "/api/v1/customers",
  upstreamPath: "/v3/customers",
  upstreamStatus: 200,
  latencyMs: 5,
  errorCode: null,
  requestId: "req_test",
  createdAt,
});
const attempt = (workspaceId: string, deliveryId: string, attemptedAt: string): WebhookAttemptRecord => ({
  id: newId(),
  deliveryId,
  workspaceId,
  trigger: "automatic",
  attemptedAt,
  statusCode: 500,
  durationMs: 3,
  errorKind: "http_status",
  errorMessage: null,
  responseExcerpt: "nope",
});
async function prune(organizationId: string, at: Date) {
  return runInDurableObject(orgLogs(env, organizationId), async (instance: OrgLogDO) => {
    instance.now = () => at;
    return instance.pruneExpired();
  });
}

const page = { limit: 100, offset: 0 };

describe("OrgLogDO retention", () => {
  it("deletes exactly the rows past each log's default period, and arms its alarm on the first write", async () => {
    const org = newId();
    const ws = newId();
    const delivery = newId();
    const store = orgLogs(env, org);
    const keptCall = gatewayCall(ws, ago(30, -1)); // a millisecond inside 30 days
    const keptAttempt = attempt(ws, delivery, ago(89));
    await store.append({
      gatewayCalls: [keptCall, gatewayCall(ws, ago(30)), gatewayCall(ws, ago(45))],
      webhookAttempts: [keptAttempt, attempt(ws, delivery, ago(90, 1))],
    });
    expect(await runInDurableObject(store, (_i: OrgLogDO, state) => state.storage.getAlarm())).not.toBeNull();

    expect(await prune(org, NOW)).toEqual({ gateway_api_logs: 2, webhook_attempts: 1, audit_logs: 0 });
    expect((await store.gatewayCalls([], page)).rows.map((r) => r.id)).toEqual([keptCall.id]);
    expect((await store.attemptsOf(delivery)).map((r) => r.id)).toEqual([keptAttempt.id]);

    // A day later by the object's clock, each survivor is past its period too.
    const dayLater = new Date(NOW.getTime() + DAY);
    expect(await prune(org, dayLater)).toEqual({ gateway_api_logs: 1, webhook_attempts: 1, audit_logs: 0 });
  });

  it("an organization's own periods apply, and another organization's store is untouched", async () => {
    const [org, other] = [newId(), newId()];
    const ws = newId();
    await orgLogs(env, org).setRetention({ ...RETENTION_DEFAULTS, gatewayApiLogDays: 1 });
    await orgLogs(env, org).append({ gatewayCalls: [gatewayCall(ws, ago(0, 1000)), gatewayCall(ws, ago(2))] });
    await orgLogs(env, other).append({ gatewayCalls: [gatewayCall(ws, ago(2))] });
    expect(await prune(org, NOW)).toMatchObject({ gateway_api_logs: 1 });
    expect((await orgLogs(env, org).gatewayCalls([], page)).totalCount).toBe(1);
    expect((await orgLogs(env, other).gatewayCalls([], page)).totalCount).toBe(1);
  });
});

describe("/api/v1/organizations/current/retention", () => {
  it("shows the defaults and bounds; a change is stored, audited and applied by the store", async () => {
    const t = await seedTenant();
    const shown = await call<{ data: Record<string, unknown> }>("GET", "/api/v1/organizations/current/retention", { key: t.key });
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({
      object: "log_retention",
      ...RETENTION_DEFAULTS,
      bounds: { auditLogDays: { min: 30, max: 2555 } },
    });

    const changed = await call<{ data: Record<string, unknown> }>("PATCH", "/api/v1/organizations/current/retention", {
      key: t.key,
      body: { gatewayApiLogDays: 7 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ gatewayApiLogDays: 7, webhookAttemptDays: 90, auditLogDays: 400 });
    expect(await orgLogs(env, t.organizationId).retention()).toEqual({ ...RETENTION_DEFAULTS, gatewayApiLogDays: 7 });
    const [audited] = await auditTrail(t.organizationId, { action: "organization.log_retention_updated" });
    expect(JSON.parse(audited!.metadata!)).toMatchObject({ before: { gatewayApiLogDays: 30 }, after: { gatewayApiLogDays: 7 } });
  });

  it("out of bounds, empty or unknown is a 400 that changes nothing; without organizations.manage a 403", async () => {
    const t = await seedTenant();
    const path = "/api/v1/organizations/current/retention";
    for (const body of [
      { gatewayApiLogDays: 0 },
      { webhookAttemptDays: 6 },
      { auditLogDays: 2556 },
      { gatewayApiLogDays: 1.5 },
      {},
      { days: 3 },
    ])
      expect((await call("PATCH", path, { key: t.key, body })).status, JSON.stringify(body)).toBe(400);
    const reader = await seedTenant({ permissions: ["organizations.read"] });
    expectError(await call("PATCH", path, { key: reader.key, body: { auditLogDays: 30 } }), 403, "FORBIDDEN");
    expect((await call<{ data: unknown }>("GET", path, { key: t.key })).body.data).toMatchObject(RETENTION_DEFAULTS);
    expect(await orgLogs(env, t.organizationId).retention()).toEqual(RETENTION_DEFAULTS);
  });
});

describe("copying the old D1 logs into the stores", () => {
  it("copies in bounded batches from a cursor, each row to its organization, and a re-run adds nothing", async () => {
    const [orgA, orgB] = [newId(), newId()];
    const ws = newId();
    const delivery = newId();
    // The D1 tables start with whatever earlier tests left; this test's rows are found by organization.
    await env.DB.prepare("DELETE FROM log_copy_progress").run();
    const insertCall = (org: string) =>
      env.DB.prepare(
        `INSERT INTO gateway_api_logs (id, organization_id, workspace_id, gateway_account_id, operation_id, method, surface_path,
           upstream_path, upstream_status, latency_ms, error_code, request_id, created_at)
         VALUES (?, ?, ?, 'acct', 'listar-clientes', 'GET', NULL, '/v3/customers', 200, 4, NULL, 'req_old', ?)`,
      ).bind(newId(), org, ws, ago(1));
    await env.DB.batch([
      insertCall(orgA),
      insertCall(orgA),
      insertCall(orgB),
      env.DB.prepare(
        `INSERT INTO webhook_deliveries (id, organization_id, workspace_id, endpoint_id, event_id, event_type, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'payment.received', 'failed', ?, ?)`,
      ).bind(delivery, orgB, ws, newId(), newId(), ago(1), ago(1)),
      env.DB.prepare(
        `INSERT INTO webhook_attempts (id, delivery_id, trigger, attempted_at, status_code, duration_ms, error_kind, error_message, response_excerpt)
         VALUES (?, ?, 'automatic', ?, 500, 9, 'http_status', NULL, 'nope')`,
      ).bind(newId(), delivery, ago(1)),
    ]);

    // One batch of 1 row per table per run: the cursor moves, nothing is done yet.
    expect(await copyLogsToStores(env, NOW, { batchRows: 1, batchesPerRun: 1 })).toBe(2);
    const progress = await env.DB.prepare("SELECT source_table, copied_rows, done_at FROM log_copy_progress ORDER BY source_table").all();
    expect(progress.results).toEqual([
      { source_table: "gateway_api_logs", copied_rows: 1, done_at: null },
      { source_table: "webhook_attempts", copied_rows: 1, done_at: null },
    ]);
    while ((await copyLogsToStores(env, NOW, { batchRows: 50 })) > 0);
    const done = await env.DB.prepare("SELECT count(*) AS n FROM log_copy_progress WHERE done_at IS NOT NULL").first<{ n: number }>();
    expect(done?.n).toBe(2);

    const countIn = async (org: string) =>
      (await orgLogs(env, org).gatewayCalls([{ field: "workspaceId", op: "=", value: ws }], page)).totalCount;
    expect([await countIn(orgA), await countIn(orgB)]).toEqual([2, 1]);
    expect(await orgLogs(env, orgB).attemptsOf(delivery)).toMatchObject([{ deliveryId: delivery, workspaceId: ws, statusCode: 500 }]);

    // Started over from nothing (a lost cursor), the copy writes no row twice.
    await env.DB.prepare("DELETE FROM log_copy_progress").run();
    while ((await copyLogsToStores(env, NOW, { batchRows: 50 })) > 0);
    expect([await countIn(orgA), await countIn(orgB)]).toEqual([2, 1]);
    expect(await orgLogs(env, orgB).attemptsOf(delivery)).toHaveLength(1);
  });
});
