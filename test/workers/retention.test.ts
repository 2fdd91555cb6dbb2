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
});
