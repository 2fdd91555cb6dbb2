// Idempotency-Key on POST/PUT/PATCH/DELETE: the first response is kept 24 h per credential (API key or
// console user) and replayed to that credential only; another request under the same key (method, path,
// workspace or body differ) gets 422, one still in flight gets 409. Another credential using the same key
// is a fresh request. The stored response may hold a one-time secret, so it is sealed (AES-GCM, the
// secrets key) and opened only to replay it.
import type { Context, MiddlewareHandler } from "hono";
import { openSecret, sealSecret, sha256Hex } from "../lib/secret-box";
import { LIMITS } from "../config";
import { deleteExpiredRows } from "../db/retention";
import type { Deps } from "../deps";
import type { AppEnv } from "./app-env";
import { ApiError } from "./errors";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

interface StoredKey {
  request_hash: string;
  state: "in_flight" | "completed";
  response_status: number | null;
  response_body: string | null;
  created_at: number;
}

async function requestFingerprint(c: Context<AppEnv>): Promise<string> {
  const body = new Uint8Array(await c.req.raw.clone().arrayBuffer());
  const path = new URL(c.req.url).pathname.replace(/\/+$/, "");
  const head = new TextEncoder().encode(`${c.req.method} ${path} ${c.get("principal").workspaceId}\n`);
  const all = new Uint8Array(head.byteLength + body.byteLength);
  all.set(head);
  all.set(body, head.byteLength);
  return sha256Hex(all);
}

export const idempotency = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined || !WRITE_METHODS.has(c.req.method)) return next();
  if (key.length === 0 || key.length > LIMITS.idempotencyKeyMaxLength) {
    throw new ApiError("IDEMPOTENCY_KEY_INVALID", `Idempotency-Key must be 1 to ${LIMITS.idempotencyKeyMaxLength} characters.`, {
      length: key.length,
    });
  }
  const db = c.env.DB;
  const principal = c.get("principal");
  const org = principal.organizationId;
  const credential = `${principal.kind}:${principal.actorId}`;
  /** Binds a sealed response to its record, so it cannot be replayed under another credential or key. */
  const sealContext = `idempotency:${org}:${credential}:${key}`;
  const hash = await requestFingerprint(c);
  const now = Math.floor(Date.now() / 1000);

  // Claim the key atomically; an expired or abandoned claim is taken over in the same statement.
  const claimed = await db
    .prepare(
      `INSERT INTO idempotency_keys (organization_id, credential_id, key, request_hash, state, created_at) VALUES (?1, ?7, ?2, ?3, 'in_flight', ?4)
       ON CONFLICT (organization_id, credential_id, key) DO UPDATE SET request_hash = excluded.request_hash, state = 'in_flight',
         response_status = NULL, response_body = NULL, created_at = excluded.created_at
       WHERE idempotency_keys.created_at <= ?5 OR (idempotency_keys.state = 'in_flight' AND idempotency_keys.created_at <= ?6)
       RETURNING key`,
    )
    .bind(org, key, hash, now, now - LIMITS.idempotencyTtlSeconds, now - LIMITS.idempotencyInFlightStaleSeconds, credential)
    .first();

  if (!claimed) {
    const stored = await db
      .prepare(
        "SELECT request_hash, state, response_status, response_body, created_at FROM idempotency_keys WHERE organization_id = ?1 AND credential_id = ?3 AND key = ?2",
      )
      .bind(org, key, credential)
      .first<StoredKey>();
    if (!stored) throw new ApiError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is being processed; retry shortly.");
    if (stored.request_hash !== hash) {
      throw new ApiError(
        "IDEMPOTENCY_KEY_REUSED",
        "This Idempotency-Key was already used with a different request (method, path or body).",
        {
          idempotencyKey: key,
        },
      );
    }
    if (stored.state === "in_flight") {
      throw new ApiError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed; retry shortly.", {
        idempotencyKey: key,
      });
    }
    const body = stored.response_body ? await openSecret(c.env.SECRETS_ENCRYPTION_KEY, stored.response_body, sealContext) : "";
    const originalRequestId = JSON.parse(body || "{}") as { meta?: { requestId?: string }; error?: { requestId?: string } };
    const headers = new Headers({ "Content-Type": "application/json", "Idempotent-Replayed": "true" });
    const rid = originalRequestId.meta?.requestId ?? originalRequestId.error?.requestId;
    if (rid) headers.set("X-Request-Id", rid);
    return new Response(body, { status: stored.response_status ?? 200, headers });
  }

  await next(); // Hono turns a thrown error into c.res before this returns.
  // "Try again" answers (409, 429, 5xx) are not kept, so a retry may succeed; anything else is the key's answer.
  const res = c.res;
  if (res.status >= 500 || res.status === 409 || res.status === 429) {
    await db
      .prepare("DELETE FROM idempotency_keys WHERE organization_id = ?1 AND credential_id = ?3 AND key = ?2")
      .bind(org, key, credential)
      .run();
    return;
  }
  const sealed = await sealSecret(c.env.SECRETS_ENCRYPTION_KEY, await res.clone().text(), sealContext);
  await db
    .prepare(
      "UPDATE idempotency_keys SET state = 'completed', response_status = ?3, response_body = ?4 WHERE organization_id = ?1 AND credential_id = ?5 AND key = ?2",
    )
    .bind(org, key, res.status, sealed, credential)
    .run();
};

/** Retention: deletes up to LIMITS.retentionBatchRows records past their 24 h (they can no longer be replayed). */
export const pruneExpiredIdempotencyKeys = (deps: Deps) =>
  deleteExpiredRows(
    deps.env.DB,
    { table: "idempotency_keys", key: "rowid", column: "created_at" },
    Math.floor(deps.now().getTime() / 1000) - LIMITS.idempotencyTtlSeconds,
  );
