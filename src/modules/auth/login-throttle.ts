// Failed-login throttle: recent failures per email and per client IP, kept in D1 (login_failures).
// D1 rather than the rate-limit binding: the binding counts every request in 10 s / 60 s periods, while
// this must count only failures over 15 minutes, survive isolate restarts, and be exact in tests.
import { and, eq, lt, or } from "drizzle-orm";
import { LIMITS } from "../../config";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { deleteExpiredRows } from "../../db/retention";
import { loginFailures } from "../../db/schema";
import { ApiError } from "../../http/errors";

interface Counts {
  email_count: number;
  email_oldest: string | null;
  ip_count: number;
  ip_oldest: string | null;
}

/** 429 RATE_LIMITED (with Retry-After) when the email or the IP has too many recent failures. */
export async function assertLoginAllowed(deps: Deps, email: string, ip: string): Promise<void> {
  const now = deps.now();
  const since = new Date(now.getTime() - LIMITS.loginFailureWindowSeconds * 1000).toISOString();
  const counts = await deps.env.DB.prepare(
    `SELECT SUM(scope = 'email') AS email_count, MIN(CASE WHEN scope = 'email' THEN failed_at END) AS email_oldest,
            SUM(scope = 'ip') AS ip_count, MIN(CASE WHEN scope = 'ip' THEN failed_at END) AS ip_oldest
       FROM login_failures
      WHERE ((scope = 'email' AND subject = ?1) OR (scope = 'ip' AND subject = ?2)) AND failed_at > ?3`,
  )
    .bind(email, ip, since)
    .first<Counts>();
  const blockedSince =
    (counts?.email_count ?? 0) >= LIMITS.loginFailuresPerEmail ? counts?.email_oldest : (counts?.ip_count ?? 0) >= LIMITS.loginFailuresPerIp ? counts?.ip_oldest : null;
  if (!blockedSince) return;
  const retryAfter = Math.max(1, Math.ceil((Date.parse(blockedSince) + LIMITS.loginFailureWindowSeconds * 1000 - now.getTime()) / 1000));
  throw new ApiError(
    "RATE_LIMITED",
    `Too many failed sign-in attempts; try again in ${Math.ceil(retryAfter / 60)} minute(s).`,
    { retryAfterSeconds: retryAfter },
    { "Retry-After": String(retryAfter) },
  );
}

/** Records one failure against both the email and the IP, and drops their entries older than the window. */
export function recordLoginFailure(deps: Deps, email: string, ip: string) {
  const now = deps.now();
  const since = new Date(now.getTime() - LIMITS.loginFailureWindowSeconds * 1000).toISOString();
  const failedAt = now.toISOString();
  return deps.db.batch([
    deps.db
      .delete(loginFailures)
      .where(and(lt(loginFailures.failedAt, since), or(and(eq(loginFailures.scope, "email"), eq(loginFailures.subject, email)), and(eq(loginFailures.scope, "ip"), eq(loginFailures.subject, ip))))),
    deps.db.insert(loginFailures).values([
      { id: newId(), scope: "email", subject: email, failedAt },
      { id: newId(), scope: "ip", subject: ip, failedAt },
    ]),
  ]);
}

/** A successful sign-in clears the email's failures (not the IP's: one right password must not unlock a spray). */
export const clearEmailFailures = (deps: Deps, email: string) =>
  deps.db.delete(loginFailures).where(and(eq(loginFailures.scope, "email"), eq(loginFailures.subject, email)));

/** Retention: deletes up to LIMITS.retentionBatchRows failures older than the window (they no longer count). */
export const pruneStaleLoginFailures = (deps: Deps) =>
  deleteExpiredRows(deps.env.DB, { table: "login_failures", key: "id", column: "failed_at" }, new Date(deps.now().getTime() - LIMITS.loginFailureWindowSeconds * 1000).toISOString());
