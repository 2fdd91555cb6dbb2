// Sign-up, sign-in, sign-out, session expiry, the login throttle and password changes.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createDb } from "../../src/db/client";
import { authAttempts } from "../../src/db/schema";
import { PASSWORD_ITERATIONS, hashPassword, verifyPassword } from "../../src/access/password";
import { hashSessionToken } from "../../src/access/session";
import { PASSWORD, SAME_ORIGIN, callWithCookie, seedMember, sessionCookieFrom, signUpUser, uniqueEmail, uniqueIp } from "./auth-support";
import { call, expectError } from "./support";
import type { Me, Reply, SessionStarted, Workspace } from "./bodies";
import { auditTrail } from "./audit-support";

const login = (email: string, password: string, ip = "203.0.113.7") =>
  call("POST", "/api/v1/auth/login", { body: { email, password }, headers: { ...SAME_ORIGIN, "CF-Connecting-IP": ip } });

describe("sign-up", () => {
  it("creates user, organization, default workspace, owner membership and a session cookie", async () => {
    const email = uniqueEmail("Ana");
    const res = await call<Reply<SessionStarted>>("POST", "/api/v1/auth/signup", {
      body: { email: `  ${email.toUpperCase()} `.trim(), password: PASSWORD, name: "Ana Souza", organizationName: "Loja da Ana" },
      headers: SAME_ORIGIN,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.user).toMatchObject({ object: "user", email: email.toLowerCase(), name: "Ana Souza" });
    expect(JSON.stringify(res.body)).not.toContain("ponte_session");

    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^ponte_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("Secure");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toContain("Max-Age=604800");

    const user = (await env.DB.prepare("SELECT * FROM users WHERE email = ?")
      .bind(email.toLowerCase())
      .first<{ id: string; password_hash: string }>())!;
    expect(user.password_hash).toMatch(new RegExp(`^pbkdf2_sha256\\$${PASSWORD_ITERATIONS}\\$[A-Za-z0-9+/=]{24}\\$`));
    expect(user.password_hash).not.toContain(PASSWORD);
    const m = (await env.DB.prepare(
      [
        "SELECT m.role, m.organization_id, o.name, w.name AS ws FROM memberships m",
        "JOIN organizations o ON o.id = m.organization_id JOIN workspaces w ON w.id = o.default_workspace_id WHERE m.user_id = ?",
      ].join(" "),
    )
      .bind(user.id)
      .first<{ role: string; organization_id: string; name: string; ws: string }>())!;
    expect(m).toMatchObject({ role: "owner", name: "Loja da Ana", ws: "Default" });
    const token = sessionCookieFrom(res.headers)!.split("=")[1]!;
    const session = (await env.DB.prepare("SELECT token_hash, expires_at, created_at FROM sessions WHERE user_id = ?")
      .bind(user.id)
      .first<{ token_hash: string; expires_at: string; created_at: string }>())!;
    expect(session.token_hash).toBe(await hashSessionToken(token));
    expect(Date.parse(session.expires_at) - Date.parse(session.created_at)).toBe(7 * 24 * 3600 * 1000);
    const audit = (await auditTrail(m.organization_id)).map(({ actor_type, actor_id, action }) => ({ actor_type, actor_id, action }));
    expect(audit[0]).toEqual({ actor_type: "user", actor_id: user.id, action: "organization.created" });
  });

  it("409 for an email already registered (any case), and nothing else is created", async () => {
    const { email } = await signUpUser();
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM organizations").first<{ n: number }>();
    const res = await call<Reply<SessionStarted>>("POST", "/api/v1/auth/signup", {
      body: { email: email.toUpperCase(), password: PASSWORD, name: "X", organizationName: "Y" },
      headers: SAME_ORIGIN,
    });
    expectError(res, 409, "CONFLICT");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM organizations").first<{ n: number }>()).toEqual(before);
  });

  it("400 naming the fields: short password, bad email, missing organization", async () => {
    const res = await call<Reply<SessionStarted>>("POST", "/api/v1/auth/signup", {
      body: { email: "not-an-email", password: "short", name: "Ana" },
      headers: SAME_ORIGIN,
    });
    const error = expectError(res, 400, "VALIDATION_FAILED");
    expect(error.details.fields.map((f: { path: unknown }) => f.path)).toEqual(
      expect.arrayContaining(["body.email", "body.password", "body.organizationName"]),
    );
  });
});

describe("sign-in and sign-out", () => {
  it("logs in with the right password and the cookie reaches /auth/me", async () => {
    const { email, organizationId, workspaceId } = await signUpUser();
    const res = await login(email.toUpperCase(), PASSWORD);
    expect(res.status).toBe(200);
    const cookie = sessionCookieFrom(res.headers)!;
    const me = await callWithCookie<Reply<Me>>("GET", "/api/v1/auth/me", cookie);
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe(email);
    expect(me.body.data.memberships).toEqual([
      {
        organizationId,
        organizationName: "Loja da Ana",
        role: "owner",
        workspaces: [{ id: workspaceId, name: "Default", isDefault: true, archived: false }],
      },
    ]);
    expect(me.body.data.current).toMatchObject({ organizationId, workspaceId, role: "owner" });
    expect(me.body.data.current?.permissions).toContain("organizations.manage");
  });

  it("the same 401 message for a wrong password and an unknown email", async () => {
    const { email } = await signUpUser();
    const wrong = expectError(await login(email, "wrong password!!"), 401, "UNAUTHORIZED");
    const unknown = expectError(await login(uniqueEmail("ghost"), PASSWORD), 401, "UNAUTHORIZED");
    expect(wrong.message).toBe("Email or password is incorrect.");
    expect(unknown.message).toBe(wrong.message);
  });

  it("logout ends the session: the cookie is cleared and no longer works", async () => {
    const { cookie, userId } = await signUpUser();
    const res = await callWithCookie<Reply<SessionStarted>>("POST", "/api/v1/auth/logout", cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/ponte_session=;.*Max-Age=0/);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").bind(userId).first<{ n: number }>()).toEqual({
      n: 0,
    });
    expectError(await callWithCookie("GET", "/api/v1/auth/me", cookie), 401, "UNAUTHORIZED");
    expectError(await callWithCookie<Reply<Workspace[]>>("GET", "/api/v1/workspaces", cookie), 401, "UNAUTHORIZED");
  });

  it("an expired session is refused by /auth/me and by guarded routes", async () => {
    const { organizationId } = await signUpUser();
    const { cookie } = await seedMember(organizationId, "owner", new Date(Date.now() - 1000));
    expectError(await callWithCookie("GET", "/api/v1/auth/me", cookie), 401, "UNAUTHORIZED");
    expectError(await callWithCookie<Reply<Workspace[]>>("GET", "/api/v1/workspaces", cookie), 401, "UNAUTHORIZED");
  });

  it("no cookie: /auth/me is 401", async () => {
    expectError(await call("GET", "/api/v1/auth/me"), 401, "UNAUTHORIZED");
  });
});

describe("login throttle", () => {
  it("after 5 attempts for one email from one network, even the right password gets 429 with Retry-After; other emails are unaffected", async () => {
    const { email } = await signUpUser();
    const other = await signUpUser();
    const ip = uniqueIp();
    for (let i = 0; i < 5; i++) expectError(await login(email, `wrong password ${i}`, ip), 401, "UNAUTHORIZED");
    const res = await login(email, PASSWORD, ip);
    const error = expectError(res, 429, "RATE_LIMITED");
    const retryAfter = Number(res.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(error.details.retryAfterSeconds).toBe(retryAfter);
    expect((await login(other.email, PASSWORD, ip)).status).toBe(200);
  });

  it("12 concurrent wrong passwords: at most 5 are checked (401), the rest are 429 with Retry-After, and the right one is refused too", async () => {
    const { email } = await signUpUser();
    const ip = uniqueIp();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => login(email, `wrong password ${i}`, ip)));
    const checked = results.filter((r) => r.status === 401);
    const limited = results.filter((r) => r.status === 429);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(checked.length + limited.length).toBe(12);
    for (const r of limited) expect(Number(r.headers.get("Retry-After"))).toBeGreaterThan(0);
    expectError(await login(email, PASSWORD, ip), 429, "RATE_LIMITED");
  });

  it("an attacker on another network cannot lock the owner out", async () => {
    const { email } = await signUpUser();
    const attacker = uniqueIp();
    for (let i = 0; i < 8; i++) await login(email, `guess ${i}`, attacker);
    expectError(await login(email, PASSWORD, attacker), 429, "RATE_LIMITED");
    expect((await login(email, PASSWORD, uniqueIp())).status).toBe(200);
  });

  it("IPv6 addresses of one /64 are one network", async () => {
    const { email } = await signUpUser();
    const prefix = `2001:db8:${((Math.random() * 0xffff) | 0).toString(16)}:1`;
    for (let i = 0; i < 5; i++) expectError(await login(email, "wrong password", `${prefix}::${i + 1}`), 401, "UNAUTHORIZED");
    expectError(await login(email, PASSWORD, `${prefix}::ffff`), 429, "RATE_LIMITED");
    expect((await login(email, PASSWORD, `${prefix.slice(0, -1)}2::1`)).status).toBe(200);
  });

  it("attempts whose window ended no longer count", async () => {
    const { email } = await signUpUser();
    const ip = uniqueIp();
    for (let i = 0; i < 5; i++) await login(email, "wrong password", ip);
    await createDb(env.DB)
      .update(authAttempts)
      .set({ expiresAt: Math.floor(Date.now() / 1000) - 1 })
      .where(and(eq(authAttempts.scope, "login"), eq(authAttempts.subject, `${email} ${ip}`)));
    expect((await login(email, PASSWORD, ip)).status).toBe(200);
  });

  it("50 attempts from one network block that network for every email", async () => {
    const { email } = await signUpUser();
    const ip = uniqueIp();
    await createDb(env.DB)
      .insert(authAttempts)
      .values({ scope: "login_network", subject: ip, count: 50, expiresAt: Math.floor(Date.now() / 1000) + 900 });
    const res = await login(email, PASSWORD, ip);
    expectError(res, 429, "RATE_LIMITED");
    expect(res.headers.get("Retry-After")).not.toBeNull();
    expect((await login(email, PASSWORD, uniqueIp())).status).toBe(200);
  });

  it("a successful login clears the email's counter for that network", async () => {
    const { email } = await signUpUser();
    const ip = uniqueIp();
    for (let i = 0; i < 4; i++) await login(email, "wrong password x", ip);
    expect((await login(email, PASSWORD, ip)).status).toBe(200);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM auth_attempts WHERE scope = 'login' AND subject = ?")
        .bind(`${email} ${ip}`)
        .first<{ n: number }>(),
    ).toEqual({ n: 0 });
    for (let i = 0; i < 4; i++) expectError(await login(email, "wrong password y", ip), 401, "UNAUTHORIZED");
  });
});

describe("sign-up throttle", () => {
  it("10 sign-ups per network per hour; the 11th is 429 with Retry-After and creates nothing; another network still signs up", async () => {
    const ip = uniqueIp();
    const signUp = (label: string, from = ip) =>
      call("POST", "/api/v1/auth/signup", {
        body: { email: uniqueEmail(label), password: PASSWORD, name: "Ana", organizationName: "Loja" },
        headers: { ...SAME_ORIGIN, "CF-Connecting-IP": from },
      });
    for (let i = 0; i < 10; i++) expect((await signUp(`burst${i}`)).status).toBe(201);
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM users").first<{ n: number }>();
    const res = await signUp("eleventh");
    expectError(res, 429, "RATE_LIMITED");
    const retryAfter = Number(res.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(59 * 60);
    expect(retryAfter).toBeLessThanOrEqual(60 * 60);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM users").first<{ n: number }>()).toEqual(before);
    expect((await signUp("elsewhere", uniqueIp())).status).toBe(201);
  });
});

describe("password change", () => {
  it("ends every other session, rotates this one, and only the new password signs in", async () => {
    const { email, cookie: first, userId } = await signUpUser();
    const second = sessionCookieFrom((await login(email, PASSWORD)).headers)!;
    const res = await callWithCookie<Reply<SessionStarted>>("POST", "/api/v1/auth/password", first, {
      body: { currentPassword: PASSWORD, newPassword: "a brand new secret" },
    });
    expect(res.status).toBe(200);
    const rotated = sessionCookieFrom(res.headers)!;
    expect(rotated).not.toBe(first);
    expectError(await callWithCookie("GET", "/api/v1/auth/me", first), 401, "UNAUTHORIZED");
    expectError(await callWithCookie("GET", "/api/v1/auth/me", second), 401, "UNAUTHORIZED");
    expect((await callWithCookie("GET", "/api/v1/auth/me", rotated)).status).toBe(200);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").bind(userId).first<{ n: number }>()).toEqual({
      n: 1,
    });
    expectError(await login(email, PASSWORD), 401, "UNAUTHORIZED");
    expect((await login(email, "a brand new secret")).status).toBe(200);
  });

  it("403 for a wrong current password, 400 for a short new one; nothing changes", async () => {
    const { email, cookie } = await signUpUser();
    expectError(
      await callWithCookie("POST", "/api/v1/auth/password", cookie, {
        body: { currentPassword: "not it at all", newPassword: "another long one" },
      }),
      403,
      "FORBIDDEN",
    );
    const short = expectError(
      await callWithCookie("POST", "/api/v1/auth/password", cookie, { body: { currentPassword: PASSWORD, newPassword: "short" } }),
      400,
      "VALIDATION_FAILED",
    );
    expect(short.details.fields[0]?.path).toBe("body.newPassword");
    expect((await callWithCookie("GET", "/api/v1/auth/me", cookie)).status).toBe(200);
    expect((await login(email, PASSWORD)).status).toBe(200);
  });
});

describe("password hashes", () => {
  // Production workerd caps PBKDF2 at 100 000 iterations (cloudflare/workerd#1346); local workerd does not enforce it.
  it("store their iteration count, so an older, lower count still verifies and a higher one is never attempted", async () => {
    const older = await hashPassword(PASSWORD, 1000);
    expect(older.split("$")[1]).toBe("1000");
    expect(await verifyPassword(PASSWORD, older)).toBe(true);
    expect(await verifyPassword("another password", older)).toBe(false);
    const beyondCap = older.replace("$1000$", `$${PASSWORD_ITERATIONS + 1}$`);
    expect(await verifyPassword(PASSWORD, beyondCap)).toBe(false);
    expect(await verifyPassword(PASSWORD, "garbage")).toBe(false);
  });
});
