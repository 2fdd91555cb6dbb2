// The retention sweeper: records past their lifetime are deleted on the cron; live ones stay.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/config";
import { newId } from "../../src/lib/ids";
import { runSweepers } from "../../src/scheduled";
import { callWithCookie, seedMember } from "./auth-support";
import { seedTenant } from "./support";

const exists = async (sql: string, ...binds: unknown[]) => (await env.DB.prepare(sql).bind(...binds).first()) !== null;

describe("retention sweeper", () => {
  it("deletes expired idempotency records, sessions and login failures, and keeps live ones", async () => {
    const t = await seedTenant();
    const now = Math.floor(Date.now() / 1000);
    const [oldKey, liveKey] = [`old-${newId()}`, `live-${newId()}`];
    await env.DB.batch(
      [
        [oldKey, now - LIMITS.idempotencyTtlSeconds - 60],
        [liveKey, now - 60],
      ].map(([key, createdAt]) =>
        env.DB.prepare("INSERT INTO idempotency_keys (organization_id, key, request_hash, state, response_status, response_body, created_at) VALUES (?, ?, 'h', 'completed', 200, '{}', ?)").bind(t.organizationId, key, createdAt),
      ),
    );
    const expired = await seedMember(t.organizationId, "viewer", new Date(Date.now() - 1000));
    const live = await seedMember(t.organizationId, "viewer");
    const [oldFailure, recentFailure] = [newId(), newId()];
    const subject = `retention-${newId()}@example.com`;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO login_failures (id, scope, subject, failed_at) VALUES (?, 'email', ?, ?)").bind(oldFailure, subject, new Date(Date.now() - (LIMITS.loginFailureWindowSeconds + 60) * 1000).toISOString()),
      env.DB.prepare("INSERT INTO login_failures (id, scope, subject, failed_at) VALUES (?, 'email', ?, ?)").bind(recentFailure, subject, new Date().toISOString()),
    ]);

    const summary = await runSweepers(env);
    expect(summary.retention).toBeGreaterThanOrEqual(3);

    expect(await exists("SELECT 1 FROM idempotency_keys WHERE key = ?", oldKey)).toBe(false);
    expect(await exists("SELECT 1 FROM idempotency_keys WHERE key = ?", liveKey)).toBe(true);
    expect(await exists("SELECT 1 FROM sessions WHERE user_id = ?", expired.userId)).toBe(false);
    expect(await exists("SELECT 1 FROM sessions WHERE user_id = ?", live.userId)).toBe(true);
    expect(await exists("SELECT 1 FROM login_failures WHERE id = ?", oldFailure)).toBe(false);
    expect(await exists("SELECT 1 FROM login_failures WHERE id = ?", recentFailure)).toBe(true);
    // What a user sees is unchanged: the live session still signs in; the expired one never did.
    expect((await callWithCookie("GET", "/api/v1/auth/me", live.cookie)).status).toBe(200);
    expect((await callWithCookie("GET", "/api/v1/auth/me", expired.cookie)).status).toBe(401);
  });
});
