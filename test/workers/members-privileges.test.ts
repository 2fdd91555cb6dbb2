// Issue 26 #8 and #12: revoking an invitation follows the role rules; invitation links take their origin from
// configuration, never from the request's Host; API keys belong to the organization, not to the member who made them.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ROLE_PERMISSIONS } from "../../src/lib/permissions";
import { PASSWORD, SAME_ORIGIN, callWithCookie, seedMember, signUpUser, uniqueEmail } from "./auth-support";
import { BASE, call, expectError, seedApiKey } from "./support";
import type { ApiKeyWithSecret, Invitation, InvitationAccepted, InvitationWithLink, Organization, RemovedMember, Reply } from "./bodies";
import { auditTrail } from "./audit-support";

const MEMBERS = "/api/v1/organizations/current/members";
const INVITATIONS = "/api/v1/organizations/current/invitations";
const ACCEPT = "/api/v1/auth/invitations/accept";

const invitationRow = (id: string) =>
  env.DB.prepare("SELECT revoked_at FROM invitations WHERE id = ?").bind(id).first<{ revoked_at: string | null }>();
const revocations = (organizationId: string) => auditTrail(organizationId, { action: "invitation.revoked" }).then((rows) => rows.length);

async function inviteAs(cookie: string, role: "owner" | "admin" | "developer" | "viewer") {
  const res = await callWithCookie<Reply<InvitationWithLink>>("POST", INVITATIONS, cookie, { body: { email: uniqueEmail(), role } });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe("revoking an invitation needs the invited role's permissions (issue 26 #8)", () => {
  it("a members.manage-only key cannot revoke an owner, admin or developer invitation: 403, the link still works", async () => {
    const owner = await signUpUser();
    const { key } = await seedApiKey(owner.organizationId, null, { permissions: ["members.manage"] });
    const ownerInvite = await inviteAs(owner.cookie, "owner");
    const adminInvite = await inviteAs(owner.cookie, "admin");
    const developerInvite = await inviteAs(owner.cookie, "developer");

    const onOwner = expectError(await call<Reply<Invitation>>("DELETE", `${INVITATIONS}/${ownerInvite.id}`, { key }), 403, "FORBIDDEN");
    expect(onOwner.details).toEqual({ requiredRole: "owner" });
    for (const invite of [adminInvite, developerInvite]) {
      const err = expectError(await call<Reply<Invitation>>("DELETE", `${INVITATIONS}/${invite.id}`, { key }), 403, "FORBIDDEN");
      expect(err.details.role).toBe(invite.role);
      expect(err.details.missingPermissions).toEqual(expect.arrayContaining([expect.any(String)]));
      expect((await invitationRow(invite.id))?.revoked_at).toBeNull();
    }
    expect((await invitationRow(ownerInvite.id))?.revoked_at).toBeNull();
    expect(await revocations(owner.organizationId)).toBe(0);
    // The admin invitation is still usable.
    const accepted = await call<Reply<InvitationAccepted>>("POST", ACCEPT, {
      body: { token: adminInvite.token, name: "Bia", password: PASSWORD },
      headers: SAME_ORIGIN,
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.role).toBe("admin");
  }, 30_000);

  it("an admin cannot revoke an owner invitation; an owner can, and an admin can revoke an admin or viewer one", async () => {
    const owner = await signUpUser();
    const admin = await seedMember(owner.organizationId, "admin");
    const ownerInvite = await inviteAs(owner.cookie, "owner");
    const adminInvite = await inviteAs(owner.cookie, "admin");
    const viewerInvite = await inviteAs(owner.cookie, "viewer");

    expectError(await callWithCookie<Reply<Invitation>>("DELETE", `${INVITATIONS}/${ownerInvite.id}`, admin.cookie), 403, "FORBIDDEN");
    expect((await invitationRow(ownerInvite.id))?.revoked_at).toBeNull();

    for (const invite of [adminInvite, viewerInvite]) {
      const res = await callWithCookie<Reply<Invitation>>("DELETE", `${INVITATIONS}/${invite.id}`, admin.cookie);
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe("revoked");
    }
    const byOwner = await callWithCookie<Reply<Invitation>>("DELETE", `${INVITATIONS}/${ownerInvite.id}`, owner.cookie);
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.data.status).toBe("revoked");
    expect(await revocations(owner.organizationId)).toBe(3);
  }, 30_000);

  it("a key holding the viewer role's permissions plus members.manage may revoke a viewer invitation", async () => {
    const owner = await signUpUser();
    const viewerInvite = await inviteAs(owner.cookie, "viewer");
    const { key } = await seedApiKey(owner.organizationId, null, { permissions: [...ROLE_PERMISSIONS.viewer, "members.manage"] });
    const res = await call<Reply<Invitation>>("DELETE", `${INVITATIONS}/${viewerInvite.id}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("revoked");
  }, 30_000);
});

describe("invitation links (issue 26 #12a)", () => {
  it("take their origin from PUBLIC_BASE_URL, not from the request's Host header", async () => {
    const owner = await signUpUser();
    const res = await callWithCookie<Reply<InvitationWithLink>>("POST", INVITATIONS, owner.cookie, {
      body: { email: uniqueEmail(), role: "viewer" },
      headers: { ...SAME_ORIGIN, Host: "evil.example", "X-Forwarded-Host": "evil.example" },
    });
    expect(res.status).toBe(201);
    expect(env.PUBLIC_BASE_URL).toBe("http://localhost:8787");
    expect(res.body.data.url).toBe(`http://localhost:8787/console/invitations/accept?token=${res.body.data.token}`);
    expect(res.body.data.url).not.toContain(new URL(BASE).host);
  }, 30_000);
});

describe("API keys belong to the organization (issue 26 #12b)", () => {
  it("a key made by a member keeps working after that member is removed; the member's session does not", async () => {
    const owner = await signUpUser();
    const admin = await seedMember(owner.organizationId, "admin");
    const made = await callWithCookie<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", admin.cookie, {
      body: { name: "ci", permissions: ["customers.read", "organizations.read"] },
    });
    expect(made.status).toBe(201);
    const adminMembership = await env.DB.prepare("SELECT id FROM memberships WHERE organization_id = ? AND user_id = ?")
      .bind(owner.organizationId, admin.userId)
      .first<{ id: string }>();
    const removed = await callWithCookie<Reply<RemovedMember>>("DELETE", `${MEMBERS}/${adminMembership!.id}`, owner.cookie);
    expect(removed.status).toBe(200);

    const withKey = await call<Reply<Organization>>("GET", "/api/v1/organizations/current", { key: made.body.data.secret });
    expect(withKey.status).toBe(200);
    expect(withKey.body.data.id).toBe(owner.organizationId);
    expect((await call("GET", "/api/v1/customers", { key: made.body.data.secret })).status).toBe(200);
    expect((await callWithCookie("GET", "/api/v1/organizations/current", admin.cookie)).status).not.toBe(200);
    // The owner still sees it, and revoking it is how it stops.
    const revoked = await callWithCookie("POST", `/api/v1/api-keys/${made.body.data.id}/revoke`, owner.cookie);
    expect(revoked.status).toBe(200);
    expectError(await call("GET", "/api/v1/organizations/current", { key: made.body.data.secret }), 401, "UNAUTHORIZED");
  }, 30_000);
});
