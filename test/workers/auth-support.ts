// Console-session helpers for the auth tests: sign up through the API and carry the cookie.
import { env } from "cloudflare:test";
import { hashSessionToken } from "../../src/access/session";
import { createDb } from "../../src/db/client";
import { memberships, sessions, users } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import { BASE, call, type CallOptions } from "./support";

export const SAME_ORIGIN = { Origin: BASE };
export const PASSWORD = "correct horse battery";

let counter = 0;
export const uniqueEmail = (label = "user") => `${label}-${Date.now()}-${++counter}@example.com.br`;

/** The `ponte_session=…` pair from a response's Set-Cookie, or null when none was set. */
export function sessionCookieFrom(headers: Headers): string | null {
  const m = /ponte_session=([^;]*)/.exec(headers.get("set-cookie") ?? "");
  return m?.[1] ? `ponte_session=${m[1]}` : null;
}

let networkCounter = Math.floor(Math.random() * 60_000);
/** A client address of its own for each call (sign-ups are limited per network). */
export const uniqueIp = () => {
  const n = ++networkCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

export async function signUpUser(overrides: Partial<{ email: string; password: string; name: string; organizationName: string }> = {}) {
  const email = overrides.email ?? uniqueEmail();
  const res = await call("POST", "/api/v1/auth/signup", {
    body: {
      email,
      password: overrides.password ?? PASSWORD,
      name: overrides.name ?? "Ana Souza",
      organizationName: overrides.organizationName ?? "Loja da Ana",
    },
    headers: { ...SAME_ORIGIN, "CF-Connecting-IP": uniqueIp() },
  });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  const cookie = sessionCookieFrom(res.headers)!;
  const user = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email.toLowerCase()).first<{ id: string }>();
  const org = await env.DB.prepare(
    "SELECT o.id, o.default_workspace_id FROM memberships m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = ?",
  )
    .bind(user!.id)
    .first<{ id: string; default_workspace_id: string }>();
  return { email, cookie, userId: user!.id, organizationId: org!.id, workspaceId: org!.default_workspace_id };
}

/** A request carrying the session cookie; writes send a same-origin Origin unless the test overrides headers. */
export function callWithCookie<T = unknown>(method: string, path: string, cookie: string, options: CallOptions = {}) {
  const write = method !== "GET" && method !== "HEAD";
  return call<T>(method, path, { ...options, headers: { ...(write ? SAME_ORIGIN : {}), Cookie: cookie, ...options.headers } });
}

/** Adds a user with the given role to an organization and opens a session for them directly in D1. */
export async function seedMember(organizationId: string, role: "owner" | "admin" | "developer" | "viewer", expiresAt?: Date) {
  const userId = newId();
  const now = new Date().toISOString();
  const token = `tok-${newId()}`;
  const db = createDb(env.DB);
  await db.batch([
    db.insert(users).values({ id: userId, email: uniqueEmail(role), name: "Seeded", passwordHash: "x", createdAt: now, updatedAt: now }),
    db.insert(memberships).values({ id: newId(), organizationId, userId, role, createdAt: now, updatedAt: now }),
    db.insert(sessions).values({
      id: newId(),
      userId,
      tokenHash: await hashSessionToken(token),
      createdAt: now,
      expiresAt: (expiresAt ?? new Date(Date.now() + 3_600_000)).toISOString(),
    }),
  ]);
  return { userId, cookie: `ponte_session=${token}` };
}
