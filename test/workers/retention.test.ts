// The retention sweeper: records past their lifetime are deleted on the cron; live ones stay.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/config";
import { createDb } from "../../src/db/client";
import { authAttempts, idempotencyKeys } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import { runSweepers } from "../../src/scheduled";
import { callWithCookie, seedMember } from "./auth-support";
import { seedTenant } from "./support";

const exists = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...binds)
    .first()) !== null;

describe("retention sweeper", () => {
  it("deletes expired idempotency records, sessions and ended sign-in counters, and keeps live ones", async () => {
    const t = await seedTenant();
    const now = Math.floor(Date.now() / 1000);
    const [oldKey, liveKey] = [`old-${newId()}`, `live-${newId()}`];
    await createDb(env.DB)
      .insert(idempotencyKeys)
      .values(
        (
          [
            [oldKey, now - LIMITS.idempotencyTtlSeconds - 60],
            [liveKey, now - 60],
          ] as const
        ).map(([key, createdAt]) => ({
          organizationId: t.organizationId,
          credentialId: "api_key:x",
          key,
          requestHash: "h",
          state: "completed" as const,
          responseStatus: 200,
          responseBody: null,
          createdAt,
        })),
      );
    const expired = await seedMember(t.organizationId, "viewer", new Date(Date.now() - 1000));
    const live = await seedMember(t.organizationId, "viewer");
    const [oldCounter, liveCounter] = [`ended-${newId()}`, `live-${newId()}`];
    await createDb(env.DB)
      .insert(authAttempts)
      .values([
        { scope: "login", subject: oldCounter, count: 5, expiresAt: now - 60 },
        { scope: "login", subject: liveCounter, count: 5, expiresAt: now + LIMITS.loginWindowSeconds },
      ]);

    const summary = await runSweepers(env);
    expect(summary.retention).toBeGreaterThanOrEqual(3);

    expect(await exists("SELECT 1 FROM idempotency_keys WHERE key = ?", oldKey)).toBe(false);
    expect(await exists("SELECT 1 FROM idempotency_keys WHERE key = ?", liveKey)).toBe(true);
    expect(await exists("SELECT 1 FROM sessions WHERE user_id = ?", expired.userId)).toBe(false);
    expect(await exists("SELECT 1 FROM sessions WHERE user_id = ?", live.userId)).toBe(true);
    expect(await exists("SELECT 1 FROM auth_attempts WHERE subject = ?", oldCounter)).toBe(false);
    expect(await exists("SELECT 1 FROM auth_attempts WHERE subject = ?", liveCounter)).toBe(true);
    // What a user sees is unchanged: the live session still signs in; the expired one never did.
    expect((await callWithCookie("GET", "/api/v1/auth/me", live.cookie)).status).toBe(200);
    expect((await callWithCookie("GET", "/api/v1/auth/me", expired.cookie)).status).toBe(401);
  });

  it("prunes delivered events past the outbox period, keeping recent ones, unfanned ones and any with a delivery in flight", async () => {
    const t = await seedTenant();
    const daysAgo = (d: number) => new Date(Date.now() - d * 24 * 60 * 60 * 1000).toISOString();
    const old = daysAgo(LIMITS.outboxRetentionDays + 1);
    const recent = daysAgo(LIMITS.outboxRetentionDays - 1);
    const [gone, inFlight, unfanned, fresh] = [newId(), newId(), newId(), newId()];
    const event = (id: string, fannedOutAt: string | null) =>
      env.DB.prepare(
        "INSERT INTO events (id, organization_id, workspace_id, type, data, created_at, fanned_out_at) VALUES (?, ?, ?, 'payment.received', '{}', ?, ?)",
      ).bind(id, t.organizationId, t.workspaceId, old, fannedOutAt);
    await env.DB.batch([
      event(gone, old),
      event(inFlight, old),
      event(unfanned, null),
      event(fresh, recent),
      env.DB.prepare(
        `INSERT INTO webhook_deliveries (id, organization_id, workspace_id, endpoint_id, event_id, event_type, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'payment.received', 'retrying', ?, ?)`,
      ).bind(newId(), t.organizationId, t.workspaceId, newId(), inFlight, old, old),
    ]);

    await runSweepers(env);

    const left = await env.DB.prepare("SELECT id FROM events WHERE organization_id = ?").bind(t.organizationId).all<{ id: string }>();
    expect(left.results.map((r) => r.id).sort()).toEqual([inFlight, unfanned, fresh].sort());
  });
});
