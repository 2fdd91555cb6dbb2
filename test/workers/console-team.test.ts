// The console's Team page (members, roles, removal, invitations with the link shown once, revoke) and
// the invitation accept page (new account, signed-in invitee), with the console's CSRF rules.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PASSWORD, seedMember, sessionCookieFrom, signUpUser, uniqueEmail } from "./auth-support";
import { BASE } from "./support";

async function form(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    redirect: "manual",
    headers: { Origin: BASE, "Content-Type": "application/x-www-form-urlencoded", ...headers },
  });
}
const page = (path: string, cookie?: string) =>
  SELF.fetch(`${BASE}${path}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
const membership = (organizationId: string, userId: string) =>
  env.DB.prepare("SELECT id, role FROM memberships WHERE organization_id = ? AND user_id = ?")
    .bind(organizationId, userId)
    .first<{ id: string; role: string }>();
const linkIn = (html: string) => /value="(http:\/\/localhost:8787\/console\/invitations\/accept\?token=(pinv_[A-Za-z0-9_-]+))"/.exec(html);

async function invite(cookie: string, email: string, role = "developer") {
  const res = await form("/console/team/invitations", { email, role }, { Cookie: cookie });
  const html = await res.text();
  return { res, html, url: linkIn(html)?.[1], token: linkIn(html)?.[2] };
}

describe("console Team page", () => {
  it("lists members and is in the navigation; roles without members.read get a plain 403", async () => {
    const owner = await signUpUser();
    const dev = await seedMember(owner.organizationId, "developer");
    const res = await page("/console/team", owner.cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<a href="/console/team" aria-current="page">Team</a>');
    expect(html).toContain(owner.email);
    expect(html).toContain("Create invitation");
    const denied = await page("/console/team", dev.cookie);
    expect(denied.status).toBe(403);
    expect(await denied.text()).toContain("cannot see the organization&#39;s members");
    expect((await page("/console", dev.cookie)).status).toBe(200);
  });

  it("invites: the link is shown once, in the POST's own response, and the invitation is listed", async () => {
    const owner = await signUpUser();
    const email = uniqueEmail("team");
    const { res, html, url, token } = await invite(owner.cookie, email);
    expect(res.status).toBe(201);
    expect(url).toBeDefined();
    expect(html).toContain("only time it is shown: copy it now");
    const listing = await (await page("/console/team", owner.cookie)).text();
    expect(listing).toContain(email);
    expect(listing).toContain("pending");
    expect(listing).not.toContain(token!);
    // A bad email re-renders with the reason and what was typed.
    const bad = await form("/console/team/invitations", { email: "nope", role: "viewer" }, { Cookie: owner.cookie });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Please check: email");
    expect(badHtml).toContain('value="nope"');
    expect(badHtml).toMatch(/<option value="viewer" selected/);
  });

  it("an admin is not offered the owner role, and the service refuses it anyway", async () => {
    const owner = await signUpUser();
    const admin = await seedMember(owner.organizationId, "admin");
    const html = await (await page("/console/team", admin.cookie)).text();
    expect(html).not.toContain('<option value="owner"');
    const res = await form("/console/team/invitations", { email: uniqueEmail(), role: "owner" }, { Cookie: admin.cookie });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Only an owner can grant the owner role.");
  });

  it("changes a role and removes a member by form; the last owner stays, with the reason shown", async () => {
    const owner = await signUpUser();
    const viewer = await seedMember(owner.organizationId, "viewer");
    const target = (await membership(owner.organizationId, viewer.userId))!;
    const changed = await form(`/console/team/members/${target.id}/role`, { role: "developer" }, { Cookie: owner.cookie });
    expect(changed.status).toBe(303);
    expect(changed.headers.get("location")).toBe("/console/team?changed=1");
    expect((await membership(owner.organizationId, viewer.userId))!.role).toBe("developer");
    expect(await (await page("/console/team?changed=1", owner.cookie)).text()).toContain("The role was changed");

    const self = (await membership(owner.organizationId, owner.userId))!;
    const last = await form(`/console/team/members/${self.id}/role`, { role: "admin" }, { Cookie: owner.cookie });
    expect(last.status).toBe(409);
    expect(await last.text()).toContain("at least one owner");
    expect((await form(`/console/team/members/${self.id}/remove`, {}, { Cookie: owner.cookie })).status).toBe(409);

    const removed = await form(`/console/team/members/${target.id}/remove`, {}, { Cookie: owner.cookie });
    expect(removed.status).toBe(303);
    expect(await membership(owner.organizationId, viewer.userId)).toBeNull();
  });

  it("refuses cross-site form posts (CSRF) and changes nothing", async () => {
    const owner = await signUpUser();
    const viewer = await seedMember(owner.organizationId, "viewer");
    const target = (await membership(owner.organizationId, viewer.userId))!;
    const evil = { Cookie: owner.cookie, Origin: "https://evil.example" };
    expect((await form(`/console/team/members/${target.id}/role`, { role: "admin" }, evil)).status).toBe(403);
    expect((await form(`/console/team/members/${target.id}/remove`, {}, evil)).status).toBe(403);
    expect((await form("/console/team/invitations", { email: uniqueEmail(), role: "admin" }, evil)).status).toBe(403);
    expect((await membership(owner.organizationId, viewer.userId))!.role).toBe("viewer");
    const n = await env.DB.prepare("SELECT count(*) AS n FROM invitations WHERE organization_id = ?")
      .bind(owner.organizationId)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });

  it("revokes an invitation by form; its link then says so", async () => {
    const owner = await signUpUser();
    const { token } = await invite(owner.cookie, uniqueEmail());
    const row = await env.DB.prepare("SELECT id FROM invitations WHERE organization_id = ?")
      .bind(owner.organizationId)
      .first<{ id: string }>();
    const res = await form(`/console/team/invitations/${row!.id}/revoke`, {}, { Cookie: owner.cookie });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/console/team?revoked=1");
    const accept = await page(`/console/invitations/accept?token=${token}`);
    expect(accept.status).toBe(409);
    expect(await accept.text()).toContain("This invitation was revoked");
  });
});

describe("console invitation accept page", () => {
  it("a new person creates their account from the link and lands in the organization", async () => {
    const owner = await signUpUser({ organizationName: "Padaria Central" });
    const email = uniqueEmail("newbie");
    const { token } = await invite(owner.cookie, email, "admin");
    const view = await page(`/console/invitations/accept?token=${token}`);
    expect(view.status).toBe(200);
    const html = await view.text();
    expect(html).toContain("Join Padaria Central");
    expect(html).toContain(email);
    expect(html).toContain("Create account and join");
    const short = await form("/console/invitations/accept", { token: token!, name: "Rui", password: "short" });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("Please check: password");
    const res = await form("/console/invitations/accept", { token: token!, name: "Rui", password: PASSWORD });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/console");
    const cookie = sessionCookieFrom(res.headers)!;
    expect(res.headers.get("set-cookie")).toContain(`ponte_console_tenant=${owner.organizationId}.${owner.workspaceId}`);
    const overview = await page("/console", `${cookie}; ponte_console_tenant=${owner.organizationId}.${owner.workspaceId}`);
    expect(overview.status).toBe(200);
    expect(await overview.text()).toContain("Padaria Central");
    // The link is spent.
    const again = await page(`/console/invitations/accept?token=${token}`);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("already used");
    expect((await page("/console/invitations/accept?token=pinv_nothing")).status).toBe(404);
  });

  it("a signed-in invitee accepts with one click; a cross-site post cannot do it for them", async () => {
    const owner = await signUpUser();
    const invitee = await signUpUser({ organizationName: "Own" });
    const { token } = await invite(owner.cookie, invitee.email, "viewer");
    const html = await (await page(`/console/invitations/accept?token=${token}`, invitee.cookie)).text();
    expect(html).toContain("Accept invitation");
    expect(html).not.toContain("Create account and join");
    expect(
      (await form("/console/invitations/accept", { token: token! }, { Cookie: invitee.cookie, Origin: "https://evil.example" })).status,
    ).toBe(403);
    expect(await membership(owner.organizationId, invitee.userId)).toBeNull();
    const res = await form("/console/invitations/accept", { token: token! }, { Cookie: invitee.cookie });
    expect(res.status).toBe(303);
    expect((await membership(owner.organizationId, invitee.userId))!.role).toBe("viewer");
  });

  it("someone signed in with another email is told to switch accounts", async () => {
    const owner = await signUpUser();
    const other = await signUpUser();
    const { token } = await invite(owner.cookie, uniqueEmail());
    const html = await (await page(`/console/invitations/accept?token=${token}`, other.cookie)).text();
    expect(html).toContain("but this invitation is for");
    expect(html).not.toContain("Accept invitation");
    const res = await form("/console/invitations/accept", { token: token! }, { Cookie: other.cookie });
    expect(res.status).toBe(403);
    expect(await membership(owner.organizationId, other.userId)).toBeNull();
  });
});
