// The retention sweeper: records past their lifetime are deleted on the cron; live ones stay.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/config";
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
    await env.DB.batch(
      [
        [oldKey, now - LIMITS.idempotencyTtlSeconds - 60],
        [liveKey, now - 60],
      ].map(([key, createdAt]) =>
        env.DB.prepare(
          "INSERT INTO idempotency_keys (organization_id, credential_id, key, request_hash, state, response_status, response_body, created_at) VALUES (?, 'api_key:x', ?, 'h', 'completed', 200, NULL, ?)",
        ).bind(t.organizationId, key, createdAt),
      ),
    );
    const expired = await seedMember(t.organizationId, "viewer", new Date(Date.now() - 1000));
    const live = await seedMember(t.organizationId, "viewer");
    const [oldCounter, liveCounter] = [`ended-${newId()}`, `live-${newId()}`];
    await env.DB.batch([
      env.DB.prepare("INSERT INTO auth_attempts (scope, subject, count, expires_at) VALUES ('login', ?, 5, ?)").bind(oldCounter, now - 60),
      env.DB.prepare("INSERT INTO auth_attempts (scope, subject, count, expires_at) VALUES ('login', ?, 5, ?)").bind(
        liveCounter,
        now + LIMITS.loginWindowSeconds,
      ),
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
});
