// Organization members and invitations: list, role changes under the owner rules, the last owner,
// removal, invitations (create, list, revoke, expire, accept as a new or a signed-in user, single use),
// other tenants, missing permissions, and the audit trail of each change.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { invitations } from "../../src/db/schema";
import { sha256Hex } from "../../src/lib/secret-box";
import { ROLE_PERMISSION_SETS } from "../../src/lib/permissions";
import type { SessionPrincipal } from "../../src/access/session";
import { LIMITS } from "../../src/config";
import { backgroundDeps } from "../../src/deps";
import { changeMemberRole } from "../../src/modules/members/service";
import { PASSWORD, SAME_ORIGIN, callWithCookie, seedMember, sessionCookieFrom, signUpUser, uniqueEmail } from "./auth-support";
import { call, expectError, seedApiKey, seedTenant } from "./support";
import type { Invitation, InvitationAccepted, InvitationWithLink, Me, Member, Organization, RemovedMember, Reply } from "./bodies";
import { auditTrail } from "./audit-support";

const MEMBERS = "/api/v1/organizations/current/members";
const INVITATIONS = "/api/v1/organizations/current/invitations";
const ACCEPT = "/api/v1/auth/invitations/accept";

const membershipId = async (organizationId: string, userId: string) =>
  (
    await env.DB.prepare("SELECT id FROM memberships WHERE organization_id = ? AND user_id = ?")
      .bind(organizationId, userId)
      .first<{ id: string }>()
  )?.id ?? null;
const roleOf = async (id: string) =>
  (await env.DB.prepare("SELECT role FROM memberships WHERE id = ?").bind(id).first<{ role: string }>())?.role ?? null;
const auditRows = (organizationId: string, action: string) =>
  auditTrail(organizationId, { action }).then((rows) => rows.map((r) => ({ ...r, metadata: r.metadata ?? "null" })));

/** An organization with a signed-up owner, and an admin, a developer and a viewer with sessions. */
async function team() {
  const owner = await signUpUser();
  const [admin, developer, viewer] = await Promise.all([
    seedMember(owner.organizationId, "admin"),
    seedMember(owner.organizationId, "developer"),
    seedMember(owner.organizationId, "viewer"),
  ]);
  const ids = {
    owner: (await membershipId(owner.organizationId, owner.userId))!,
    admin: (await membershipId(owner.organizationId, admin.userId))!,
    developer: (await membershipId(owner.organizationId, developer.userId))!,
    viewer: (await membershipId(owner.organizationId, viewer.userId))!,
  };
  const { key } = await seedApiKey(owner.organizationId, null); // every permission
  return { owner, admin, developer, viewer, ids, key, organizationId: owner.organizationId };
}

describe("members", () => {
  it("lists the organization's members, oldest first, with user and role", async () => {
    const t = await team();
    const res = await callWithCookie<Reply<Member[]>>("GET", MEMBERS, t.owner.cookie);
    expect(res.status).toBe(200);
    expect(res.body.meta.pagination).toMatchObject({ totalCount: 4, hasMore: false });
    expect(res.body.data[0]).toMatchObject({
      id: t.ids.owner,
      object: "member",
      userId: t.owner.userId,
      email: t.owner.email,
      name: "Ana Souza",
      role: "owner",
    });
    expect(res.body.data.map((m) => m.role).sort()).toEqual(["admin", "developer", "owner", "viewer"]);
    expect((await call<Reply<Member[]>>("GET", MEMBERS, { key: t.key })).body.data).toHaveLength(4);
  });

  it("needs members.read: a developer session and a key without it get 403", async () => {
    const t = await team();
    expect(expectError(await callWithCookie<Reply<Member[]>>("GET", MEMBERS, t.developer.cookie), 403, "FORBIDDEN").details).toEqual({
      requiredPermission: "members.read",
    });
    const { key } = await seedApiKey(t.organizationId, null, { permissions: ["organizations.read"] });
    expectError(await call<Reply<Member[]>>("GET", MEMBERS, { key }), 403, "FORBIDDEN");
    const reader = await seedApiKey(t.organizationId, null, { permissions: ["members.read"] });
    expect((await call<Reply<Member[]>>("GET", MEMBERS, { key: reader.key })).status).toBe(200);
    expect(
      expectError(
        await call<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.viewer}`, { key: reader.key, body: { role: "developer" } }),
        403,
        "FORBIDDEN",
      ).details,
    ).toEqual({ requiredPermission: "members.manage" });
    expectError(await call<Reply<RemovedMember>>("DELETE", `${MEMBERS}/${t.ids.viewer}`, { key: reader.key }), 403, "FORBIDDEN");
    expectError(
      await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: reader.key, body: { email: uniqueEmail(), role: "viewer" } }),
      403,
      "FORBIDDEN",
    );
  });

  it("changes a role; it applies to the member's next request and is audited", async () => {
    const t = await team();
    const res = await callWithCookie<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.developer}`, t.admin.cookie, { body: { role: "admin" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: t.ids.developer, role: "admin" });
    expect(await roleOf(t.ids.developer)).toBe("admin");
    expect((await callWithCookie<Reply<Member[]>>("GET", MEMBERS, t.developer.cookie)).status).toBe(200); // admins hold members.read
    const [row] = await auditRows(t.organizationId, "member.role_changed");
    expect(row).toMatchObject({ actor_type: "user", actor_id: t.admin.userId, target_type: "member", target_id: t.ids.developer });
    expect(JSON.parse(row!.metadata)).toMatchObject({ from: "developer", to: "admin" });
  });

  it("only an owner grants or takes away owner; API keys never do", async () => {
    const t = await team();
    expect(
      expectError(
        await callWithCookie<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.developer}`, t.admin.cookie, { body: { role: "owner" } }),
        403,
        "FORBIDDEN",
      ).details,
    ).toMatchObject({ requiredRole: "owner" });
    expectError(
      await callWithCookie<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.owner}`, t.admin.cookie, { body: { role: "viewer" } }),
      403,
      "FORBIDDEN",
    );
    expectError(await callWithCookie<Reply<RemovedMember>>("DELETE", `${MEMBERS}/${t.ids.owner}`, t.admin.cookie), 403, "FORBIDDEN");
    const keyGrant = expectError(
      await call<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.admin}`, { key: t.key, body: { role: "owner" } }),
      403,
      "FORBIDDEN",
    );
    expect(keyGrant.message).toMatch(/API keys cannot/);
    expectError(await call<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.owner}`, { key: t.key, body: { role: "admin" } }), 403, "FORBIDDEN");
    expectError(await call<Reply<RemovedMember>>("DELETE", `${MEMBERS}/${t.ids.owner}`, { key: t.key }), 403, "FORBIDDEN");
    expectError(
      await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: t.key, body: { email: uniqueEmail(), role: "owner" } }),
      403,
      "FORBIDDEN",
    );
    expect(await roleOf(t.ids.admin)).toBe("admin");
    expect(await roleOf(t.ids.owner)).toBe("owner");
    // The owner can, in both directions.
    expect(
      (await callWithCookie<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.admin}`, t.owner.cookie, { body: { role: "owner" } })).status,
    ).toBe(200);
    expect(
      (await callWithCookie<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.admin}`, t.owner.cookie, { body: { role: "developer" } })).body.data
        .role,
    ).toBe("developer");
    // A key may manage the roles it holds: developer ↔ viewer with a full-permission key.
    expect(
      (await call<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.viewer}`, { key: t.key, body: { role: "developer" } })).body.data.role,
    ).toBe("developer");
  });

  it("no one grants a role holding permissions they lack, nor a workspace-bound key", async () => {
    const t = await team();
    const { key } = await seedApiKey(t.organizationId, null, { permissions: ["members.manage"] });
    const err = expectError(
      await call<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.viewer}`, { key, body: { role: "admin" } }),
      403,
      "FORBIDDEN",
    );
    expect(err.details.missingPermissions).toContain("api_keys.manage");
    expectError(await call<Reply<RemovedMember>>("DELETE", `${MEMBERS}/${t.ids.admin}`, { key }), 403, "FORBIDDEN");
    const bound = await seedApiKey(t.organizationId, t.owner.workspaceId);
    expectError(
      await call<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.viewer}`, { key: bound.key, body: { role: "developer" } }),
      403,
      "FORBIDDEN",
    );
    expectError(
      await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: bound.key, body: { email: uniqueEmail(), role: "viewer" } }),
      403,
      "FORBIDDEN",
    );
    expect(await roleOf(t.ids.viewer)).toBe("viewer");
  });

  it("the last owner can be neither demoted nor removed (409 LAST_OWNER), and nothing is written", async () => {
    const t = await team();
    const demote = expectError(
      await callWithCookie<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.owner}`, t.owner.cookie, { body: { role: "admin" } }),
      409,
      "LAST_OWNER",
    );
    expect(demote.message).toMatch(/at least one owner/);
    expectError(await callWithCookie<Reply<RemovedMember>>("DELETE", `${MEMBERS}/${t.ids.owner}`, t.owner.cookie), 409, "LAST_OWNER");
    expect(await roleOf(t.ids.owner)).toBe("owner");
    expect(await auditRows(t.organizationId, "member.role_changed")).toHaveLength(0);
    expect(await auditRows(t.organizationId, "member.removed")).toHaveLength(0);
    // With a second owner, the first may step down.
    await callWithCookie<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.admin}`, t.owner.cookie, { body: { role: "owner" } });
    expect(
      (await callWithCookie<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.owner}`, t.owner.cookie, { body: { role: "viewer" } })).status,
    ).toBe(200);
    expectError(await callWithCookie<Reply<RemovedMember>>("DELETE", `${MEMBERS}/${t.ids.admin}`, t.admin.cookie), 409, "LAST_OWNER");
  });

  it("two owners demoting each other at the same moment leave one owner", async () => {
    for (let round = 0; round < 3; round++) {
      const t = await team();
      await callWithCookie<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.admin}`, t.owner.cookie, { body: { role: "owner" } });
      const as = (userId: string): SessionPrincipal => ({
        kind: "session",
        sessionId: "s",
        actorId: userId,
        organizationId: t.organizationId,
        workspaceId: t.owner.workspaceId,
        environment: "test",
        workspaceRestricted: false,
        role: "owner",
        permissions: ROLE_PERMISSION_SETS.owner,
      });
      const deps = backgroundDeps(env);
      const results = await Promise.allSettled([
        changeMemberRole(deps, as(t.owner.userId), t.ids.admin, "admin"),
        changeMemberRole(deps, as(t.admin.userId), t.ids.owner, "admin"),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(rejected.reason).toMatchObject({ code: "LAST_OWNER" });
      const owners = await env.DB.prepare("SELECT count(*) AS n FROM memberships WHERE organization_id = ? AND role = 'owner'")
        .bind(t.organizationId)
        .first<{ n: number }>();
      expect(owners!.n).toBe(1);
    }
  });

  it("removes a member: their session loses the organization at once; audited", async () => {
    const t = await team();
    const res = await callWithCookie<Reply<RemovedMember>>("DELETE", `${MEMBERS}/${t.ids.developer}`, t.owner.cookie);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: t.ids.developer, object: "member", deleted: true });
    expect(await roleOf(t.ids.developer)).toBeNull();
    expectError(await callWithCookie<Reply<Organization>>("GET", "/api/v1/organizations/current", t.developer.cookie), 403, "FORBIDDEN");
    const [row] = await auditRows(t.organizationId, "member.removed");
    expect(row).toMatchObject({ actor_id: t.owner.userId, target_id: t.ids.developer });
    expect(JSON.parse(row!.metadata)).toMatchObject({ userId: t.developer.userId, role: "developer" });
    expectError(await callWithCookie<Reply<RemovedMember>>("DELETE", `${MEMBERS}/${t.ids.developer}`, t.owner.cookie), 404, "NOT_FOUND");
  });

  it("another organization's member or invitation is 404", async () => {
    const a = await team();
    const b = await seedTenant();
    const invite = await call<Reply<InvitationWithLink>>("POST", INVITATIONS, {
      key: a.key,
      body: { email: uniqueEmail(), role: "viewer" },
    });
    expectError(
      await call<Reply<Member>>("PATCH", `${MEMBERS}/${a.ids.viewer}`, { key: b.key, body: { role: "developer" } }),
      404,
      "NOT_FOUND",
    );
    expectError(await call<Reply<RemovedMember>>("DELETE", `${MEMBERS}/${a.ids.viewer}`, { key: b.key }), 404, "NOT_FOUND");
    expectError(await call<Reply<Invitation>>("DELETE", `${INVITATIONS}/${invite.body.data.id}`, { key: b.key }), 404, "NOT_FOUND");
    expect((await call<Reply<Member[]>>("GET", MEMBERS, { key: b.key })).body.data).toEqual([]);
    expect((await call<Reply<Invitation[]>>("GET", INVITATIONS, { key: b.key })).body.data).toEqual([]);
    expect(await roleOf(a.ids.viewer)).toBe("viewer");
  });

  it("rejects an unknown role and unknown fields", async () => {
    const t = await team();
    expectError(
      await call<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.viewer}`, { key: t.key, body: { role: "superuser" } }),
      400,
      "VALIDATION_FAILED",
    );
    expectError(
      await call<Reply<Member>>("PATCH", `${MEMBERS}/${t.ids.viewer}`, { key: t.key, body: { role: "admin", userId: "x" } }),
      400,
      "VALIDATION_FAILED",
    );
    expectError(
      await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: t.key, body: { email: "not-an-email", role: "viewer" } }),
      400,
      "VALIDATION_FAILED",
    );
  });
});

describe("invitations", () => {
  it("creates a one-time link (stored only as its SHA-256, 7 days), lists it without the link, audits it", async () => {
    const t = await team();
    const email = uniqueEmail("Invitee");
    const res = await callWithCookie<Reply<InvitationWithLink>>("POST", INVITATIONS, t.owner.cookie, {
      body: { email, role: "developer" },
    });
    expect(res.status).toBe(201);
    const inv = res.body.data;
    expect(inv).toMatchObject({
      object: "invitation",
      email: email.toLowerCase(),
      role: "developer",
      status: "pending",
      invitedBy: t.owner.userId,
      acceptedAt: null,
      revokedAt: null,
    });
    expect(inv.token).toMatch(/^pinv_[A-Za-z0-9_-]{43}$/);
    expect(inv.url).toBe(`${env.PUBLIC_BASE_URL}/console/invitations/accept?token=${inv.token}`);
    expect(Date.parse(inv.expiresAt) - Date.parse(inv.createdAt)).toBe(LIMITS.invitationTtlSeconds * 1000);
    expect(LIMITS.invitationTtlSeconds).toBe(7 * 24 * 60 * 60);
    const row = await env.DB.prepare("SELECT * FROM invitations WHERE id = ?").bind(inv.id).first<Record<string, unknown>>();
    expect(row!.token_hash).toBe(await sha256Hex(inv.token));
    expect(JSON.stringify(row)).not.toContain(inv.token);
    const list = await call<Reply<Invitation[]>>("GET", INVITATIONS, { key: t.key });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ id: inv.id, status: "pending" });
    expect(list.body.data[0]).not.toHaveProperty("token");
    expect(list.body.data[0]).not.toHaveProperty("url");
    const [audit] = await auditRows(t.organizationId, "invitation.created");
    expect(audit).toMatchObject({ actor_id: t.owner.userId, target_id: inv.id });
    expect(JSON.stringify(audit)).not.toContain(inv.token);
  });

  it("refuses a second pending invitation for the same email, and an email already a member", async () => {
    const t = await team();
    const email = uniqueEmail();
    const first = await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: t.key, body: { email, role: "viewer" } });
    expect(
      expectError(
        await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: t.key, body: { email, role: "developer" } }),
        409,
        "CONFLICT",
      ).details,
    ).toMatchObject({ invitationId: first.body.data.id });
    expectError(
      await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: t.key, body: { email: t.owner.email, role: "viewer" } }),
      409,
      "CONFLICT",
    );
  });

  it("accepts as a new account: joins with the role, starts a session, works once", async () => {
    const t = await team();
    const email = uniqueEmail();
    const { token } = (await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: t.key, body: { email, role: "admin" } })).body
      .data;
    expectError(await call<Reply<InvitationAccepted>>("POST", ACCEPT, { body: { token }, headers: SAME_ORIGIN }), 400, "VALIDATION_FAILED");
    const res = await call<Reply<InvitationAccepted>>("POST", ACCEPT, {
      body: { token, name: "Carla Lima", password: PASSWORD },
      headers: SAME_ORIGIN,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      organizationId: t.organizationId,
      role: "admin",
      newUser: true,
      user: { email, name: "Carla Lima" },
      member: { role: "admin", email },
    });
    const cookie = sessionCookieFrom(res.headers)!;
    expect(cookie).toBeTruthy();
    const members = await callWithCookie<Reply<Member[]>>("GET", MEMBERS, cookie);
    expect(members.status).toBe(200);
    expect(members.body.data.map((m) => m.email)).toContain(email);
    expect((await call("POST", "/api/v1/auth/login", { body: { email, password: PASSWORD }, headers: SAME_ORIGIN })).status).toBe(200);
    const again = expectError(
      await call<Reply<InvitationAccepted>>("POST", ACCEPT, { body: { token, name: "Eve", password: PASSWORD }, headers: SAME_ORIGIN }),
      409,
      "INVALID_STATE",
    );
    expect(again.details).toEqual({ status: "accepted" });
    expect((await call<Reply<Invitation[]>>("GET", INVITATIONS, { key: t.key })).body.data[0]?.status).toBe("accepted");
    const [accepted] = await auditRows(t.organizationId, "invitation.accepted");
    expect(accepted).toMatchObject({ actor_type: "user", actor_id: res.body.data.user.id });
    const [joined] = await auditRows(t.organizationId, "member.joined");
    expect(joined).toMatchObject({ target_id: res.body.data.member.id });
  });

  it("a token accepted twice at the same moment joins once", async () => {
    const t = await team();
    const email = uniqueEmail();
    const { token } = (await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: t.key, body: { email, role: "viewer" } })).body
      .data;
    const [a, b] = await Promise.all(
      [1, 2].map(() =>
        call<Reply<InvitationAccepted>>("POST", ACCEPT, { body: { token, name: "Twin", password: PASSWORD }, headers: SAME_ORIGIN }),
      ),
    );
    expect([a!.status, b!.status].sort()).toEqual([201, 409]);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = ?")
      .bind(email)
      .first<{ n: number }>();
    expect(n!.n).toBe(1);
  });

  it("accepts as the signed-in invited user, who then has both organizations", async () => {
    const t = await team();
    const invitee = await signUpUser({ organizationName: "Own shop" });
    const { token } = (
      await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: t.key, body: { email: invitee.email, role: "developer" } })
    ).body.data;
    // Without the cookie, an existing account cannot be claimed by setting a password.
    expectError(
      await call<Reply<InvitationAccepted>>("POST", ACCEPT, {
        body: { token, name: "Mallory", password: "another password" },
        headers: SAME_ORIGIN,
      }),
      409,
      "CONFLICT",
    );
    // A cross-site page cannot make the signed-in browser accept.
    expectError(
      await callWithCookie<Reply<InvitationAccepted>>("POST", ACCEPT, invitee.cookie, {
        body: { token },
        headers: { Origin: "https://evil.example" },
      }),
      403,
      "FORBIDDEN",
    );
    const res = await callWithCookie<Reply<InvitationAccepted>>("POST", ACCEPT, invitee.cookie, { body: { token } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      organizationId: t.organizationId,
      role: "developer",
      newUser: false,
      user: { id: invitee.userId },
    });
    expect(sessionCookieFrom(res.headers)).toBeNull();
    const me = await callWithCookie<Reply<Me>>("GET", "/api/v1/auth/me", invitee.cookie);
    expect(me.body.data.memberships.map((m) => [m.organizationId, m.role])).toEqual([
      [invitee.organizationId, "owner"],
      [t.organizationId, "developer"],
    ]);
    const inOrg = await callWithCookie<Reply<Me>>("GET", "/api/v1/auth/me", invitee.cookie, {
      headers: { "X-Organization-Id": t.organizationId },
    });
    expect(inOrg.body.data.current).toMatchObject({ organizationId: t.organizationId, role: "developer" });
  });

  it("a signed-in user with another email cannot use someone else's invitation", async () => {
    const t = await team();
    const other = await signUpUser();
    const { id, token } = (
      await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: t.key, body: { email: uniqueEmail(), role: "viewer" } })
    ).body.data;
    expect(
      expectError(await callWithCookie<Reply<InvitationAccepted>>("POST", ACCEPT, other.cookie, { body: { token } }), 403, "FORBIDDEN")
        .message,
    ).toMatch(/sign in with that account/);
    expect((await call<Reply<Invitation[]>>("GET", INVITATIONS, { key: t.key })).body.data.find((i) => i.id === id)?.status).toBe(
      "pending",
    );
    expect(await membershipId(t.organizationId, other.userId)).toBeNull();
  });

  it("revoke stops the link at once (idempotent, audited); an unknown token is 404", async () => {
    const t = await team();
    const { id, token } = (
      await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: t.key, body: { email: uniqueEmail(), role: "viewer" } })
    ).body.data;
    const res = await callWithCookie<Reply<Invitation>>("DELETE", `${INVITATIONS}/${id}`, t.admin.cookie);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: "revoked" });
    expect((await callWithCookie<Reply<Invitation>>("DELETE", `${INVITATIONS}/${id}`, t.admin.cookie)).body.data.status).toBe("revoked");
    expect(
      expectError(
        await call<Reply<InvitationAccepted>>("POST", ACCEPT, { body: { token, name: "Late", password: PASSWORD }, headers: SAME_ORIGIN }),
        409,
        "INVALID_STATE",
      ).details,
    ).toEqual({ status: "revoked" });
    expect(await auditRows(t.organizationId, "invitation.revoked")).toHaveLength(1);
    expectError(
      await call<Reply<InvitationAccepted>>("POST", ACCEPT, {
        body: { token: `${token}x`, name: "X", password: PASSWORD },
        headers: SAME_ORIGIN,
      }),
      404,
      "NOT_FOUND",
    );
    // The same email may be invited again once the old one is revoked.
    expect(
      (await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: t.key, body: { email: res.body.data.email, role: "viewer" } }))
        .status,
    ).toBe(201);
  });

  it("an expired invitation cannot be accepted and lists as expired", async () => {
    const t = await team();
    const { id, token } = (
      await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key: t.key, body: { email: uniqueEmail(), role: "viewer" } })
    ).body.data;
    await createDb(env.DB)
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(invitations.id, id));
    expect(
      expectError(
        await call<Reply<InvitationAccepted>>("POST", ACCEPT, { body: { token, name: "Late", password: PASSWORD }, headers: SAME_ORIGIN }),
        409,
        "INVALID_STATE",
      ).details,
    ).toEqual({ status: "expired" });
    expect((await call<Reply<Invitation[]>>("GET", INVITATIONS, { key: t.key })).body.data[0]?.status).toBe("expired");
  });

  it("an owner may invite an owner; the invitee joins as owner", async () => {
    const t = await team();
    expectError(
      await callWithCookie<Reply<InvitationWithLink>>("POST", INVITATIONS, t.admin.cookie, {
        body: { email: uniqueEmail(), role: "owner" },
      }),
      403,
      "FORBIDDEN",
    );
    const email = uniqueEmail();
    const { token } = (
      await callWithCookie<Reply<InvitationWithLink>>("POST", INVITATIONS, t.owner.cookie, { body: { email, role: "owner" } })
    ).body.data;
    const res = await call<Reply<InvitationAccepted>>("POST", ACCEPT, {
      body: { token, name: "Co-founder", password: PASSWORD },
      headers: SAME_ORIGIN,
    });
    expect(res.body.data.role).toBe("owner");
    // Now the first owner may leave.
    expect((await callWithCookie<Reply<RemovedMember>>("DELETE", `${MEMBERS}/${t.ids.owner}`, t.owner.cookie)).status).toBe(200);
  });
});
