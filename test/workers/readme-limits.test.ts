// The documented numbered promises (docs/), each with a test that fails when the promise breaks: 16 webhook
// endpoints per workspace, the 10 MiB multipart limit, no cached API key served past 10 s, the 60 s
// takeover of an abandoned idempotency claim, 422 for a key reused with another method or path, and
// the retention sweeper's cap per run.
import { env } from "cloudflare:test";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { cachedKeyLookup } from "../../src/access/key-cache";
import { and, eq } from "drizzle-orm";
import { createDb } from "../../src/db/client";
import { idempotencyKeys } from "../../src/db/schema";
import { runSweepers } from "../../src/scheduled";
import { clearSimRequests, seedGatewayAccount, simKey, simRequests, upstream } from "./gateway-support";
import { answerStored, call, expectError, seedTenant, seedWorkspace } from "./support";
import type { Passthrough, Reply, WebhookEndpoint, WebhookEndpointWithSecret, Workspace } from "./bodies";

const MiB = 1024 * 1024;

const countRows = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;

describe("16 webhook endpoints per workspace", () => {
  it("the 17th is refused and not stored; another workspace still has room", async () => {
    const t = await seedTenant();
    const create = (i: number, workspace?: string) =>
      call<Reply<WebhookEndpointWithSecret>>("POST", "/api/v1/webhook-endpoints", {
        key: t.key,
        body: { url: `https://hooks.merchant.com.br/ponte/${i}`, eventKinds: ["*"] },
        ...(workspace ? { headers: { "X-Workspace-Id": workspace } } : {}),
      });
    for (let i = 1; i <= 16; i++) expect((await create(i)).status, `endpoint ${i}`).toBe(201);
    const refused = await create(17);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(refused.body.error.details.limit).toBe(16);
    expect(await countRows("SELECT count(*) AS n FROM webhook_endpoints WHERE workspace_id = ?", t.workspaceId)).toBe(16);

    const second = await seedWorkspace(t.organizationId);
    expect((await create(18, second)).status).toBe(201);
  });
});

describe("the 10 MiB multipart limit", () => {
  /** A multipart body of exactly `total` bytes: one file part padded to size. */
  function multipartOf(total: number) {
    const boundary = "ponte-limit-boundary";
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nDOCUMENT\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="nota.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
    const body = new Uint8Array(total);
    body.set(head);
    body.fill(0x41, head.byteLength, total - tail.byteLength);
    body.set(tail, total - tail.byteLength);
    return { body, contentType: `multipart/form-data; boundary=${boundary}`, fileSize: total - head.byteLength - tail.byteLength };
  }

  async function connected() {
    const t = await seedTenant();
    const upstreamKey = simKey();
    await seedGatewayAccount(t, upstreamKey);
    return { ...t, upstreamKey };
  }

  it("a 10 MiB upload is forwarded; one byte more is 413 PAYLOAD_TOO_LARGE and never reaches the upstream", async () => {
    const t = await connected();
    const customer = (await upstream<{ id: string }>(t.upstreamKey, "POST", "/v3/customers", { name: "Maria", cpfCnpj: "24971563792" }))
      .body.id;
    const payment = (
      await upstream<{ id: string }>(t.upstreamKey, "POST", "/v3/payments", {
        customer,
        billingType: "PIX",
        value: 10,
        dueDate: "2030-12-01",
      })
    ).body.id;
    await clearSimRequests(t.upstreamKey);
    const upload = (total: number) => {
      const { body, contentType } = multipartOf(total);
      return call<Passthrough<{ name: string; file: { size: number } }>>("POST", `/api/v1/payments/${payment}/documents`, {
        key: t.key,
        rawBody: body,
        headers: { "Content-Type": contentType },
      });
    };
    const over = await upload(10 * MiB + 1);
    expect(expectError(over, 413, "PAYLOAD_TOO_LARGE").details.limitBytes).toBe(10 * MiB);
    expect(await simRequests(t.upstreamKey)).toEqual([]);

    const atLimit = await upload(10 * MiB);
    expect(atLimit.status, JSON.stringify(atLimit.body).slice(0, 300)).toBe(200);
    expect(atLimit.body.data).toMatchObject({ name: "nota.pdf", file: { size: multipartOf(10 * MiB).fileSize } });
    expect((await simRequests(t.upstreamKey)).map((r) => r.path)).toEqual([`/v3/payments/${payment}/documents`]);
  }, 30_000);
});

describe("no cached API key served past 10 s", () => {
  it("an entry the background re-read never refreshed is re-read from the database once 10 s old", async () => {
    const keyHash = `h-${crypto.randomUUID()}`;
    const t0 = Date.now();
    const background: Promise<unknown>[] = [];
    const lookup = (now: number, load: () => Promise<{ id: string } | null>) =>
      cachedKeyLookup({ keyHash, variant: "", load, waitUntil: (p) => background.push(p), now });

    expect(await lookup(t0, async () => ({ id: "key-1" }))).toEqual({ id: "key-1" });
    // Revoked elsewhere; this isolate's background re-reads never land (they hang), so only age can end the entry.
    const never = () => new Promise<null>(() => undefined);
    expect(await lookup(t0 + 5_000, never)).toEqual({ id: "key-1" }); // within 10 s: served from memory
    expect(background).toHaveLength(1);
    expect(await lookup(t0 + 9_999, never)).toEqual({ id: "key-1" });
    // At 10 s the entry is dead: the lookup waits for the database, which says revoked.
    let reads = 0;
    expect(
      await lookup(t0 + 10_000, async () => {
        reads++;
        return null;
      }),
    ).toBeNull();
    expect(reads).toBe(1);
  });
});

describe("Idempotency-Key claims and reuse", () => {
  const createWorkspace = (key: string, idem: string, name = "Loja") =>
    call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key, body: { name }, headers: { "Idempotency-Key": idem } });
  const abandon = (organizationId: string, idem: string, ageSeconds: number) =>
    createDb(env.DB)
      .update(idempotencyKeys)
      .set({ state: "in_flight", responseStatus: null, responseBody: null, createdAt: Math.floor(Date.now() / 1000) - ageSeconds })
      .where(and(eq(idempotencyKeys.organizationId, organizationId), eq(idempotencyKeys.key, idem)));
  const workspaceCount = (organizationId: string) =>
    countRows("SELECT count(*) AS n FROM workspaces WHERE organization_id = ?", organizationId);

  it("a claim in flight for 59 s is respected (409); at 61 s it is abandoned and taken over", async () => {
    // The clock stands still (worker and test share it): the claim's age is exactly what the test set,
    // never a second more because a second ticked between writing the record and the retry.
    vi.useFakeTimers({ toFake: ["Date"], now: Math.floor(Date.now() / 1000) * 1000 + 500 });
    onTestFinished(() => void vi.useRealTimers());
    const t = await seedTenant();
    expect((await createWorkspace(t.key, "claim-1")).status).toBe(201);
    await answerStored(t.organizationId, "claim-1");
    await abandon(t.organizationId, "claim-1", 59);
    expectError(await createWorkspace(t.key, "claim-1"), 409, "IDEMPOTENCY_KEY_IN_USE");
    expect(await workspaceCount(t.organizationId)).toBe(2);

    await abandon(t.organizationId, "claim-1", 61);
    const takeover = await createWorkspace(t.key, "claim-1");
    expect(takeover.status).toBe(201);
    expect(takeover.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await workspaceCount(t.organizationId)).toBe(3);
    // The new claim is the key's answer from now on.
    const replay = await createWorkspace(t.key, "claim-1");
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.body.data.id).toBe(takeover.body.data.id);
  });

  it("422 IDEMPOTENCY_KEY_REUSED for the same key and body on another path, and with another method", async () => {
    const t = await seedTenant();
    const a = (await call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key: t.key, body: { name: "A" } })).body.data.id as string;
    const b = (await call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key: t.key, body: { name: "B" } })).body.data.id as string;
    const archive = (id: string) =>
      call<Reply<Workspace>>("POST", `/api/v1/workspaces/${id}/archive`, { key: t.key, headers: { "Idempotency-Key": "same-key" } });
    expect((await archive(a)).status).toBe(200);
    expectError(await archive(b), 422, "IDEMPOTENCY_KEY_REUSED");
    expect((await call<Reply<Workspace>>("GET", `/api/v1/workspaces/${b}`, { key: t.key })).body.data.archivedAt).toBeNull();

    const first = await createWorkspace(t.key, "method-key", "C");
    expect(first.status).toBe(201);
    const renamed = await call<Reply<Workspace>>("PATCH", `/api/v1/workspaces/${b}`, {
      key: t.key,
      body: { name: "C" },
      headers: { "Idempotency-Key": "method-key" },
    });
    expectError(renamed, 422, "IDEMPOTENCY_KEY_REUSED");
    expect((await call<Reply<Workspace>>("GET", `/api/v1/workspaces/${b}`, { key: t.key })).body.data.name).toBe("B");

    // Same path, same body, another method.
    const endpoint = (
      await call<Reply<WebhookEndpointWithSecret>>("POST", "/api/v1/webhook-endpoints", {
        key: t.key,
        body: { url: "https://hooks.merchant.com.br/x", eventKinds: ["*"] },
      })
    ).body.data.id as string;
    const same = (method: string) =>
      call(method, `/api/v1/webhook-endpoints/${endpoint}`, {
        key: t.key,
        body: { enabled: false },
        headers: { "Idempotency-Key": "verb-key" },
      });
    expect((await same("PATCH")).status).toBe(200);
    expectError(await same("DELETE"), 422, "IDEMPOTENCY_KEY_REUSED");
    expect((await call<Reply<WebhookEndpoint>>("GET", `/api/v1/webhook-endpoints/${endpoint}`, { key: t.key })).status).toBe(200);
  });
});

describe("the retention sweeper's cap per run", () => {
  it("deletes at most 1 000 expired rows per table per run: the rest go on the next run", async () => {
    const t = await seedTenant();
    const expired = 1_000 + 7;
    const cutoff = Math.floor(Date.now() / 1000) - 24 * 60 * 60;
    const record = (key: string, createdAt: number) => ({
      organizationId: t.organizationId,
      credentialId: t.apiKeyId,
      key,
      requestHash: "h",
      state: "completed" as const,
      responseStatus: 200,
      responseBody: "{}",
      createdAt,
    });
    const db = createDb(env.DB);
    const old = Array.from({ length: expired }, (_, n) => record(`old-${n + 1}`, cutoff - 60 - (n + 1)));
    // D1 binds at most 100 parameters a statement: 12 rows of 8 columns each.
    const chunks = Array.from({ length: Math.ceil(old.length / 12) }, (_, c) =>
      db.insert(idempotencyKeys).values(old.slice(c * 12, c * 12 + 12)),
    );
    await db.batch([db.insert(idempotencyKeys).values(record("live", cutoff + 3600)), ...chunks]);
    const left = () =>
      countRows("SELECT count(*) AS n FROM idempotency_keys WHERE organization_id = ? AND key != 'live'", t.organizationId);

    const first = await runSweepers(env);
    expect(first.retention).toBe(1_000);
    expect(await left()).toBe(7);
    const second = await runSweepers(env);
    expect(second.retention).toBe(7);
    expect(await left()).toBe(0);
    expect(await countRows("SELECT count(*) AS n FROM idempotency_keys WHERE organization_id = ? AND key = 'live'", t.organizationId)).toBe(
      1,
    );
  });
});
