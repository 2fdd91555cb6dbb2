// Members: the promises members.test.ts leaves unchecked — nobody takes a role away from a member
// stronger than themselves, and an accepted invitation is never accepted again, even by a request
// that raced past the link's status check.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { users } from "../../src/db/schema";
import { backgroundDeps } from "../../src/deps";
import { ROLE_PERMISSIONS } from "../../src/lib/permissions";
import { acceptInvitation } from "../../src/modules/members/invitations";
import { seedMember, signUpUser, uniqueEmail } from "./auth-support";
import { call, expectError, seedApiKey } from "./support";
import type { InvitationWithLink, Member, Reply } from "./bodies";
import { auditTrail } from "./audit-support";

const MEMBERS = "/api/v1/organizations/current/members";
const INVITATIONS = "/api/v1/organizations/current/invitations";

const membership = (organizationId: string, userId: string) =>
  env.DB.prepare("SELECT id, role FROM memberships WHERE organization_id = ? AND user_id = ?")
    .bind(organizationId, userId)
    .first<{ id: string; role: string }>();

const auditCount = async (organizationId: string, action: string) => (await auditTrail(organizationId, { action })).length;

describe("role changes", () => {
  it("a caller who may grant the new role still cannot demote a member whose current role holds more than the caller", async () => {
    const owner = await signUpUser();
    const admin = await seedMember(owner.organizationId, "admin");
    const viewer = await seedMember(owner.organizationId, "viewer");
    const adminMembership = (await membership(owner.organizationId, admin.userId))!;
    const viewerMembership = (await membership(owner.organizationId, viewer.userId))!;
    // Holds every viewer permission and may manage members, but not what an admin holds.
    const { key } = await seedApiKey(owner.organizationId, null, { permissions: [...ROLE_PERMISSIONS.viewer, "members.manage"] });

    const refused = expectError(
      await call<Reply<Member>>("PATCH", `${MEMBERS}/${adminMembership.id}`, { key, body: { role: "viewer" } }),
      403,
      "FORBIDDEN",
    );
    expect(refused.message).toMatch(/change a member holding the 'admin' role/);
    expect(refused.details).toMatchObject({ role: "admin", missingPermissions: expect.arrayContaining(["api_keys.manage"]) });
    expect((await membership(owner.organizationId, admin.userId))?.role).toBe("admin");
    expect(await auditCount(owner.organizationId, "member.role_changed")).toBe(0);

    // The same key may act on a member no stronger than itself.
    const same = await call<Reply<Member>>("PATCH", `${MEMBERS}/${viewerMembership.id}`, { key, body: { role: "viewer" } });
    expect(same.status).toBe(200);
    expect(same.body.data.role).toBe("viewer");
  });
});

describe("invitation acceptance", () => {
  it("two acceptances of one link by the signed-in invitee at the same moment: one joins, the other is told the link was used", async () => {
    const owner = await signUpUser();
    const invitee = await signUpUser({ organizationName: "Own shop" });
    const { key } = await seedApiKey(owner.organizationId, null);
    const invited = await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key, body: { email: invitee.email, role: "developer" } });
    expect(invited.status).toBe(201);
    const user = (await createDb(env.DB).select().from(users).where(eq(users.id, invitee.userId)).get())!;

    // Called directly, both pass the link's status check before either writes: only the claim's own condition decides.
    const deps = backgroundDeps(env);
    const results = await Promise.allSettled([1, 2].map(() => acceptInvitation(deps, { token: invited.body.data.token }, user)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: "INVALID_STATE", details: { status: "accepted" } });

    const row = await env.DB.prepare("SELECT accepted_by FROM invitations WHERE id = ?")
      .bind(invited.body.data.id)
      .first<{ accepted_by: string }>();
    expect(row?.accepted_by).toBe(invitee.userId);
    expect((await membership(owner.organizationId, invitee.userId))?.role).toBe("developer");
    expect(await auditCount(owner.organizationId, "invitation.accepted")).toBe(1);
  });

  it("a link accepted once is refused afterwards, with the member signed in or as a new account", async () => {
    const owner = await signUpUser();
    const { key } = await seedApiKey(owner.organizationId, null);
    const email = uniqueEmail();
    const { token } = (await call<Reply<InvitationWithLink>>("POST", INVITATIONS, { key, body: { email, role: "viewer" } })).body.data;
    const deps = backgroundDeps(env);
    const first = await acceptInvitation(deps, { token, name: "Bia", password: "correct horse battery" }, null);
    expect(first.accepted.role).toBe("viewer");
    const joined = (await createDb(env.DB).select().from(users).where(eq(users.email, email.toLowerCase())).get())!;
    await expect(acceptInvitation(deps, { token }, joined)).rejects.toMatchObject({
      code: "INVALID_STATE",
      details: { status: "accepted" },
    });
    await expect(acceptInvitation(deps, { token, name: "Eve", password: "another password!" }, null)).rejects.toMatchObject({
      code: "INVALID_STATE",
      details: { status: "accepted" },
    });
    expect(await auditCount(owner.organizationId, "invitation.accepted")).toBe(1);
  });
});
