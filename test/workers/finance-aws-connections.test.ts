// AWS connections end to end against the simulator's STS and Cost Explorer (sim/src/aws.ts): secrets
// never answered, verify, sync (pages, one expense per day and service, rollups), re-sync corrections,
// failures as FAILED + lastError (never a 500), the daily sweep, tenant isolation, in-use categories.
import { env } from "cloudflare:workers";
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { costsOf } from "../../sim/src/aws";
import { createDb } from "../../src/db/client";
import { awsConnections, expenses, metricDaily } from "../../src/db/schema";
import { backgroundDeps } from "../../src/deps";
import { syncDueAwsConnections } from "../../src/modules/aws-connections/cost-import";
import { SWEEPERS } from "../../src/scheduled";
import { type Envelope, type ErrorBody, type TestTenant, call, expectError, seedTenant } from "./support";
import { auditTrail } from "./audit-support";

interface Connection {
  id: string;
  authType: string;
  roleArn: string | null;
  externalId: string | null;
  accessKeyId: string | null;
  costCategoryId: string;
  exchangeRate: string;
  status: string;
  awsAccountId: string | null;
  lastError: string | null;
  lastSyncedAt: string | null;
  syncedThrough: string | null;
}
interface SyncResult {
  ok: boolean;
  from: string;
  to: string;
  pages: number;
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
  connection: Connection;
}

const SIM = "https://upstream-sim.internal";
const db = () => createDb(env.DB);
const today = () => new Date().toISOString().slice(0, 10);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const daysOf = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
};
const newKeyId = () => `AKIA${crypto.randomUUID().replace(/-/g, "").slice(0, 16).toUpperCase()}`;
const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

async function simControl<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await env.TEST_SIM.fetch(`${SIM}${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as T;
}
const simAccountOf = async (keyId: string) =>
  (await simControl<{ accountId: string }>("GET", `/__sim/aws/account?accessKeyId=${keyId}`)).accountId;

async function category(t: TestTenant, key: string) {
  const res = await call<Envelope<{ id: string }>>("POST", "/api/v1/cost-categories", {
    key: t.key,
    body: { name: key, key, kind: "VARIABLE" },
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function connect(t: TestTenant, body: Record<string, unknown>) {
  const res = await call<Envelope<Connection>>("POST", "/api/v1/aws-connections", { key: t.key, body: { exchangeRate: "5", ...body } });
  expect(res.status).toBe(201);
  return res.body.data;
}
const accessKeyConnection = (t: TestTenant, accessKeyId = newKeyId(), extra: Record<string, unknown> = {}) =>
  connect(t, { name: "Production AWS", authType: "ACCESS_KEY", accessKeyId, secretAccessKey: SECRET, ...extra });

const verify = (t: TestTenant, id: string) =>
  call<Envelope<Connection> | ErrorBody>("POST", `/api/v1/aws-connections/${id}/verify`, { key: t.key });
const sync = (t: TestTenant, id: string, body?: unknown) =>
  call<Envelope<SyncResult> | ErrorBody>("POST", `/api/v1/aws-connections/${id}/sync`, { key: t.key, body });
async function synced(t: TestTenant, id: string, body?: unknown) {
  const res = await sync(t, id, body);
  expect(res.status).toBe(200);
  return (res.body as Envelope<SyncResult>).data;
}
const importedOf = (connectionId: string) =>
  db()
    .select()
    .from(expenses)
    .where(like(expenses.sourceRef, `aws:${connectionId}:%`))
    .all();
const awsCostsMetric = async (workspaceId: string) =>
  (
    await db()
      .select()
      .from(metricDaily)
      .where(and(eq(metricDaily.workspaceId, workspaceId), eq(metricDaily.metric, "aws_costs")))
      .all()
  ).reduce((sum, r) => sum + r.value, 0);
/** The simulator's bill for the days (its own module, read here as the oracle): cents by Math.round of the dollars. */
const expectedBill = (accountId: string, days: string[]) =>
  days.flatMap((day) => costsOf(accountId, day).map((c) => ({ day, service: c.service, cents: Math.round(Number(c.amount) * 100) })));

/** cents × 5.5 to the cent, half-even: exact for even cents; an odd one's half goes to the even neighbour. */
function timesFiveAndAHalf(cents: number): number {
  const halves = cents * 11;
  if (halves % 2 === 0) return halves / 2;
  const lower = (halves - 1) / 2;
  return lower % 2 === 0 ? lower : lower + 1;
}

describe("aws connections", () => {
  it("creates ACCESS_KEY and ROLE connections; the secret is sealed at rest and never answered", async () => {
    const t = await seedTenant();
    const infra = await category(t, "infrastructure");
    const keyConn = await accessKeyConnection(t);
    expect(keyConn).toMatchObject({
      authType: "ACCESS_KEY",
      status: "PENDING",
      costCategoryId: infra,
      exchangeRate: "5.000000",
      externalId: null,
    });
    const roleConn = await connect(t, { name: "Org payer", authType: "ROLE", roleArn: "arn:aws:iam::123456789012:role/PonteCostReader" });
    expect(roleConn.externalId).toMatch(/^ponte-[A-Za-z0-9_-]{20,}$/);
    expect(roleConn.accessKeyId).toBeNull();

    const answers = [
      await call("GET", `/api/v1/aws-connections/${keyConn.id}`, { key: t.key }),
      await call("GET", "/api/v1/aws-connections", { key: t.key }),
      await call("PATCH", `/api/v1/aws-connections/${keyConn.id}`, { key: t.key, body: { name: "Renamed" } }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
    }
    const stored = await db().select().from(awsConnections).where(eq(awsConnections.id, keyConn.id)).get();
    expect(stored?.secretAccessKeySealed).toMatch(/^v2\.[A-Za-z0-9_-]{8}\./);
    expect(stored?.secretAccessKeySealed).not.toContain(SECRET);
    const audit = await auditTrail(t.organizationId, { targetId: keyConn.id });
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit.map((a) => a.metadata))).not.toContain(SECRET);
  });

  it("refuses incomplete or mixed credentials and bad rates with 400, leaving no row", async () => {
    const t = await seedTenant();
    await category(t, "infrastructure");
    const bad = [
      { name: "x", authType: "ROLE", exchangeRate: "5" },
      { name: "x", authType: "ACCESS_KEY", accessKeyId: newKeyId(), exchangeRate: "5" },
      { name: "x", authType: "ROLE", roleArn: "arn:aws:iam::123456789012:role/R", accessKeyId: newKeyId(), exchangeRate: "5" },
      { name: "x", authType: "ACCESS_KEY", accessKeyId: newKeyId(), secretAccessKey: SECRET, exchangeRate: "5.1234567" },
      { name: "x", authType: "ACCESS_KEY", accessKeyId: newKeyId(), secretAccessKey: SECRET, exchangeRate: "0" },
      { name: "x", authType: "ROLE", roleArn: "not-an-arn", exchangeRate: "5" },
    ];
    for (const body of bad) expectError(await call("POST", "/api/v1/aws-connections", { key: t.key, body }), 400, "VALIDATION_FAILED");
    const rows = await db().select().from(awsConnections).where(eq(awsConnections.workspaceId, t.workspaceId)).all();
    expect(rows).toHaveLength(0);
  });

  it("verify answers the AWS account id: the key's account, or the role's after AssumeRole", async () => {
    const t = await seedTenant();
    await category(t, "infrastructure");
    const keyId = newKeyId();
    const keyConn = await accessKeyConnection(t, keyId);
    const verified = await verify(t, keyConn.id);
    expect(verified.status).toBe(200);
    expect((verified.body as Envelope<Connection>).data).toMatchObject({
      status: "ACTIVE",
      awsAccountId: await simAccountOf(keyId),
      lastError: null,
    });

    const roleConn = await connect(t, { name: "Role", authType: "ROLE", roleArn: "arn:aws:iam::210987654321:role/PonteCostReader" });
    const roleVerified = await verify(t, roleConn.id);
    expect((roleVerified.body as Envelope<Connection>).data).toMatchObject({ status: "ACTIVE", awsAccountId: "210987654321" });
    // The simulator saw AssumeRole with Ponte's platform key and the connection's external id.
    const seen = await simControl<{ data: { action: string; accessKeyId: string; body: Record<string, string> }[] }>(
      "GET",
      "/__sim/aws/requests?accountId=210987654321",
    );
    const calls = seen.data.filter((r) => r.action === "GetCallerIdentity" || r.body.ExternalId === roleConn.externalId);
    expect(calls.map((r) => r.action)).toContain("GetCallerIdentity");
    expect(calls.some((r) => r.accessKeyId.startsWith("ASIA"))).toBe(true);
  });

  it("an invalid key or a refused role leaves the connection FAILED with lastError (200, never 500), importing nothing", async () => {
    const t = await seedTenant();
    await category(t, "infrastructure");
    const invalid = await accessKeyConnection(t, "AKIAINVALIDTESTKEY00");
    const v = await verify(t, invalid.id);
    expect(v.status).toBe(200);
    const failed = (v.body as Envelope<Connection>).data;
    expect(failed.status).toBe("FAILED");
    expect(failed.lastError).toMatch(/^InvalidClientTokenId: /);
    const s = await synced(t, invalid.id, { from: addDays(today(), -5), to: addDays(today(), -1) });
    expect(s.ok).toBe(false);
    expect(s.connection.status).toBe("FAILED");
    expect(s.connection.lastError).toMatch(/UnrecognizedClientException|InvalidClientTokenId/);
    expect(await importedOf(invalid.id)).toHaveLength(0);

    const denied = await connect(t, { name: "Denied", authType: "ROLE", roleArn: "arn:aws:iam::000000000000:role/PonteCostReader" });
    const d = (await verify(t, denied.id)).body as Envelope<Connection>;
    expect(d.data.status).toBe("FAILED");
    expect(d.data.lastError).toMatch(/^AccessDenied: .*sts:AssumeRole/);
    expect(JSON.stringify(d)).not.toContain(SECRET);
  });

  it("sync imports one USD expense per day and service, every page followed, with amountBrl and the aws_costs rollup", async () => {
    const t = await seedTenant();
    const infra = await category(t, "infrastructure");
    const keyId = newKeyId();
    const conn = await accessKeyConnection(t, keyId, { exchangeRate: "5.5" });
    const from = addDays(today(), -25);
    const to = addDays(today(), -6); // 20 days: 3 pages of 7 days
    const result = await synced(t, conn.id, { from, to });
    const bill = expectedBill(await simAccountOf(keyId), daysOf(from, to));
    expect(result).toMatchObject({ ok: true, from, to, pages: 3, created: bill.length, updated: 0, deleted: 0 });
    expect(result.connection).toMatchObject({ status: "ACTIVE", syncedThrough: to, lastError: null });

    const rows = await importedOf(conn.id);
    expect(rows).toHaveLength(bill.length);
    for (const want of bill) {
      const row = rows.find((r) => r.sourceRef === `aws:${conn.id}:${want.day}:${want.service}`);
      expect(row).toMatchObject({
        incurredOn: want.day,
        amountCents: want.cents,
        currency: "USD",
        exchangeRateMicros: 5_500_000,
        amountBrlCents: timesFiveAndAHalf(want.cents),
        source: "AWS",
        costCategoryId: infra,
        workspaceId: t.workspaceId,
      });
    }
    expect(await awsCostsMetric(t.workspaceId)).toBe(rows.reduce((s, r) => s + r.amountBrlCents, 0));
    // The imported expenses are listed with the rest (filtered by source) when the expenses group is there.
    const ce = await simControl<{ data: { api: string; body: { NextPageToken?: string } }[] }>(
      "GET",
      `/__sim/aws/requests?accountId=${await simAccountOf(keyId)}`,
    );
    const pages = ce.data.filter((r) => r.api === "ce");
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => typeof p.body.NextPageToken)).toEqual(["undefined", "string", "string"]);
  });

  it("a re-sync never duplicates: it corrects changed amounts, adds new services and removes what AWS dropped", async () => {
    const t = await seedTenant();
    await category(t, "infrastructure");
    const keyId = newKeyId();
    const accountId = await simAccountOf(keyId);
    const conn = await accessKeyConnection(t, keyId);
    const from = addDays(today(), -10);
    const to = addDays(today(), -4);
    const first = await synced(t, conn.id, { from, to });
    const n = first.created;
    expect(n).toBeGreaterThan(0);
    expect((await synced(t, conn.id, { from, to })).unchanged).toBe(n);
    expect(await importedOf(conn.id)).toHaveLength(n);

    const ec2 = "Amazon Elastic Compute Cloud - Compute";
    // The merchant re-files one imported expense (allowed: category and allocation); its amount is read-only.
    const compute = await category(t, "compute");
    const refiled = (await importedOf(conn.id)).find((r) => r.sourceRef === `aws:${conn.id}:${from}:${ec2}`);
    const patch = (body: unknown) => call("PATCH", `/api/v1/expenses/${refiled?.id}`, { key: t.key, body });
    expect((await patch({ costCategoryId: compute })).status).toBe(200);
    expectError(await patch({ amount: "1.00" }), 409, "INVALID_STATE");
    await simControl("POST", "/__sim/aws/costs", { accountId, day: from, service: ec2, amount: "12.3400000001" });
    await simControl("POST", "/__sim/aws/costs", { accountId, day: to, service: "Amazon Relational Database Service", amount: null });
    await simControl("POST", "/__sim/aws/costs", { accountId, day: to, service: "Amazon SageMaker", amount: "3.21" });
    const again = await synced(t, conn.id, { from, to });
    expect(again).toMatchObject({ ok: true, created: 1, updated: 1, deleted: 1, unchanged: n - 2 });
    const rows = await importedOf(conn.id);
    expect(rows).toHaveLength(n);
    expect(rows.find((r) => r.sourceRef === `aws:${conn.id}:${from}:${ec2}`)).toMatchObject({
      amountCents: 1234,
      amountBrlCents: 6170,
      costCategoryId: compute,
    });
    const listed = await call<Envelope<{ id: string; source: string }[]>>("GET", "/api/v1/expenses?source=AWS&limit=100", { key: t.key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((e) => e.id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(rows.find((r) => r.sourceRef === `aws:${conn.id}:${to}:Amazon Relational Database Service`)).toBeUndefined();
    expect(rows.find((r) => r.sourceRef === `aws:${conn.id}:${to}:Amazon SageMaker`)).toMatchObject({ amountCents: 321 });
    expect(await awsCostsMetric(t.workspaceId)).toBe(rows.reduce((s, r) => s + r.amountBrlCents, 0));
    await simControl("DELETE", `/__sim/aws/costs?accountId=${accountId}`);
  });

  it("validates the range: from after to, the future, more than 93 days → 400; DISABLED → 409", async () => {
    const t = await seedTenant();
    await category(t, "infrastructure");
    const conn = await accessKeyConnection(t);
    expectError(await sync(t, conn.id, { from: "2026-02-10", to: "2026-02-01" }), 400, "VALIDATION_FAILED");
    expectError(await sync(t, conn.id, { to: addDays(today(), 2) }), 400, "VALIDATION_FAILED");
    expectError(await sync(t, conn.id, { from: addDays(today(), -200), to: today() }), 400, "VALIDATION_FAILED");
    expectError(await sync(t, conn.id, { from: "2026-02-30" }), 400, "VALIDATION_FAILED");
    await call("PATCH", `/api/v1/aws-connections/${conn.id}`, { key: t.key, body: { disabled: true } });
    expectError(await sync(t, conn.id, {}), 409, "INVALID_STATE");
    expectError(await verify(t, conn.id), 409, "INVALID_STATE");
    expect(await importedOf(conn.id)).toHaveLength(0);
  });

  it("the daily sweep syncs ACTIVE connections (the last 30 days) and leaves PENDING and FAILED ones alone", async () => {
    expect(SWEEPERS.map((s) => s.name)).toContain("aws-costs");
    const t = await seedTenant();
    await category(t, "infrastructure");
    const active = await accessKeyConnection(t);
    expect(((await verify(t, active.id)).body as Envelope<Connection>).data.status).toBe("ACTIVE");
    const pending = await accessKeyConnection(t);
    const failed = await accessKeyConnection(t, "AKIAINVALIDTESTKEY00");
    await verify(t, failed.id);
    const deps = backgroundDeps(env);
    const stateOf = (id: string) => db().select().from(awsConnections).where(eq(awsConnections.id, id)).get();
    for (let i = 0; i < 20 && !(await stateOf(active.id))?.lastSyncedAt; i++) await syncDueAwsConnections(deps);
    const after = await stateOf(active.id);
    expect(after).toMatchObject({ status: "ACTIVE", syncedThrough: today(), lastError: null });
    const days = new Set((await importedOf(active.id)).map((r) => r.incurredOn));
    expect(days.has(addDays(today(), -30))).toBe(true);
    expect(days.has(addDays(today(), -1))).toBe(true);
    expect(await importedOf(pending.id)).toHaveLength(0);
    expect(await importedOf(failed.id)).toHaveLength(0);
    expect((await stateOf(pending.id))?.lastSyncedAt).toBeNull();
    // Synced within 24 h: the next sweep leaves it alone.
    const before = (await importedOf(active.id)).length;
    await syncDueAwsConnections(deps);
    expect((await stateOf(active.id))?.lastSyncedAt).toBe(after?.lastSyncedAt);
    expect(await importedOf(active.id)).toHaveLength(before);
  });

  it("keeps tenants apart: another tenant's connection is a 404 everywhere, and so is its category", async () => {
    const a = await seedTenant();
    const b = await seedTenant();
    await category(a, "infrastructure");
    const bCategory = await category(b, "infrastructure");
    const conn = await accessKeyConnection(a);
    for (const [method, path, body] of [
      ["GET", `/api/v1/aws-connections/${conn.id}`, undefined],
      ["PATCH", `/api/v1/aws-connections/${conn.id}`, { name: "mine" }],
      ["POST", `/api/v1/aws-connections/${conn.id}/verify`, undefined],
      ["POST", `/api/v1/aws-connections/${conn.id}/sync`, {}],
      ["DELETE", `/api/v1/aws-connections/${conn.id}`, undefined],
    ] as const)
      expectError(await call(method, path, { key: b.key, body }), 404, "NOT_FOUND");
    const list = await call<Envelope<Connection[]>>("GET", "/api/v1/aws-connections", { key: b.key });
    expect(list.body.data).toHaveLength(0);
    expectError(
      await call("POST", "/api/v1/aws-connections", {
        key: a.key,
        body: {
          name: "x",
          authType: "ACCESS_KEY",
          accessKeyId: newKeyId(),
          secretAccessKey: SECRET,
          exchangeRate: "5",
          costCategoryId: bCategory,
        },
      }),
      404,
      "NOT_FOUND",
    );
    expect((await db().select().from(awsConnections).where(eq(awsConnections.id, conn.id)).get())?.name).toBe("Production AWS");
  });

  it("a category an AWS connection files into cannot be deleted (409 IN_USE); finance.read cannot write", async () => {
    const t = await seedTenant();
    const infra = await category(t, "infrastructure");
    const conn = await accessKeyConnection(t);
    const res = await call<ErrorBody>("DELETE", `/api/v1/cost-categories/${infra}`, { key: t.key });
    expectError(res, 409, "IN_USE");
    expect(res.body.error.details).toMatchObject({ awsConnections: 1 });
    expect((await call("DELETE", `/api/v1/aws-connections/${conn.id}`, { key: t.key })).status).toBe(200);
    expect((await call("DELETE", `/api/v1/cost-categories/${infra}`, { key: t.key })).status).toBe(200);

    const reader = await seedTenant({ permissions: ["finance.read"] });
    expectError(
      await call("POST", "/api/v1/aws-connections", {
        key: reader.key,
        body: { name: "x", authType: "ROLE", roleArn: "arn:aws:iam::123456789012:role/R", exchangeRate: "5" },
      }),
      403,
      "FORBIDDEN",
    );
    expect((await call("GET", "/api/v1/aws-connections", { key: reader.key })).status).toBe(200);
  });
});
