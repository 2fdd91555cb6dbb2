// Sign-in and sign-up throttles, kept in D1 (auth_attempts) as fixed-window counters.
// Every attempt is counted atomically (one UPSERT … RETURNING) BEFORE any password is checked, so a burst
// of concurrent guesses cannot all be checked: the counter decides which ones run.
//  - sign-in: 5 attempts per (email, client network) and 50 per client network per 15 minutes. A right
//    password clears its (email, network) counter and gives back its network attempt, so the limits count
//    failures in effect. Keying by network means a guesser elsewhere cannot lock the owner out.
//  - sign-up: 10 per client network per hour.
// A client network is an IPv4 address or an IPv6 /64 (src/lib/client-network.ts).
// D1 rather than the rate-limit binding: the binding counts in 10 s / 60 s periods and is not exact in tests.
import { LIMITS } from "../../config";
import type { Deps } from "../../deps";
import { deleteExpiredRows } from "../../db/retention";
import { ApiError } from "../../http/errors";
import { clientNetwork } from "../../lib/client-network";

type Scope = "login" | "login_network" | "signup_network";

interface Counter {
  scope: Scope;
  subject: string;
  limit: number;
  windowSeconds: number;
}

const nowSeconds = (deps: Deps) => Math.floor(deps.now().getTime() / 1000);

function countStatement(deps: Deps, counter: Counter, now: number) {
  return deps.env.DB.prepare(
    `INSERT INTO auth_attempts (scope, subject, count, expires_at) VALUES (?1, ?2, 1, ?3 + ?4)
     ON CONFLICT (scope, subject) DO UPDATE SET
       count = CASE WHEN auth_attempts.expires_at <= ?3 THEN 1 ELSE auth_attempts.count + 1 END,
       expires_at = CASE WHEN auth_attempts.expires_at <= ?3 THEN ?3 + ?4 ELSE auth_attempts.expires_at END
     RETURNING count, expires_at`,
  ).bind(counter.scope, counter.subject, now, counter.windowSeconds);
}

/** Counts one attempt against every counter (one batch); 429 RATE_LIMITED with Retry-After if any is over its limit. */
async function countAttempt(deps: Deps, counters: Counter[], message: string): Promise<void> {
  const now = nowSeconds(deps);
  const results = await deps.env.DB.batch<{ count: number; expires_at: number }>(counters.map((c) => countStatement(deps, c, now)));
  let retryAfter = 0;
  counters.forEach((counter, i) => {
    const row = results[i]?.results[0];
    if (row && row.count > counter.limit) retryAfter = Math.max(retryAfter, row.expires_at - now);
  });
  if (retryAfter <= 0) return;
  retryAfter = Math.max(1, retryAfter);
  throw new ApiError(
    "RATE_LIMITED",
    `${message} Try again in ${Math.ceil(retryAfter / 60)} minute(s).`,
    { retryAfterSeconds: retryAfter },
    { "Retry-After": String(retryAfter) },
  );
}

const loginCounters = (email: string, network: string): Counter[] => [
  { scope: "login", subject: `${email} ${network}`, limit: LIMITS.loginAttemptsPerEmailNetwork, windowSeconds: LIMITS.loginWindowSeconds },
  { scope: "login_network", subject: network, limit: LIMITS.loginAttemptsPerNetwork, windowSeconds: LIMITS.loginWindowSeconds },
];

/** Counts a sign-in (or password-check) attempt before the password is verified; 429 once over a limit. */
export const countLoginAttempt = (deps: Deps, email: string, ip: string) =>
  countAttempt(deps, loginCounters(email, clientNetwork(ip)), "Too many sign-in attempts.");

/** After a right password: the (email, network) counter starts again and the network gets its attempt back. */
export function forgiveLoginAttempt(deps: Deps, email: string, ip: string) {
  const network = clientNetwork(ip);
  return [
    deps.env.DB.prepare("DELETE FROM auth_attempts WHERE scope = 'login' AND subject = ?1").bind(`${email} ${network}`),
    deps.env.DB.prepare("UPDATE auth_attempts SET count = max(count - 1, 0) WHERE scope = 'login_network' AND subject = ?1").bind(network),
  ];
}

/** Counts a sign-up from the client's network; 429 once over LIMITS.signupsPerNetwork in the window. */
export const countSignupAttempt = (deps: Deps, ip: string) =>
  countAttempt(
    deps,
    [{ scope: "signup_network", subject: clientNetwork(ip), limit: LIMITS.signupsPerNetwork, windowSeconds: LIMITS.signupWindowSeconds }],
    "Too many sign-ups from this network.",
  );

/** Retention: deletes up to LIMITS.retentionBatchRows counters whose window has ended (they no longer count). */
export const pruneEndedAuthAttempts = (deps: Deps) =>
  deleteExpiredRows(deps.env.DB, { table: "auth_attempts", key: "rowid", column: "expires_at" }, nowSeconds(deps));
