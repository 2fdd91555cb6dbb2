// The session cookie as a credential: guarded routes, tenant headers, roles, and the same-origin rule.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { memberships } from "../../src/db/schema";
import { ROLE_PERMISSIONS } from "../../src/lib/permissions";
import { callWithCookie, seedMember, signUpUser } from "./auth-support";
import { call, expectError, seedTenant, seedWorkspace } from "./support";
import type { ApiKey, ApiKeyWithSecret, Me, Organization, Reply, Workspace } from "./bodies";
import { auditTrail } from "./audit-support";

const NEW_KEY = { name: "server", permissions: ["payments.read"] };

describe("cookie on guarded routes", () => {
  it("is accepted by guard(…, { allowSession: true }) routes and acts in the default workspace", async () => {
    const { cookie, organizationId, workspaceId, userId } = await signUpUser();
    const list = await callWithCookie<Reply<Workspace[]>>("GET", "/api/v1/workspaces", cookie);
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: unknown }) => w.id)).toEqual([workspaceId]);

    const created = await callWithCookie<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", cookie, { body: NEW_KEY });
    expect(created.status).toBe(201);
    expect(created.body.data.environment).toBe("test");
    const [audit] = await auditTrail(organizationId, { action: "api_key.created" });
    expect(audit).toMatchObject({ actor_type: "user", actor_id: userId, workspace_id: workspaceId });
  });

  it("X-Workspace-Id picks another workspace of the organization; one of another organization is 403", async () => {
    const { cookie, organizationId } = await signUpUser();
    const second = await seedWorkspace(organizationId, "Filial");
    const me = await callWithCookie<Reply<Me>>("GET", "/api/v1/auth/me", cookie, { headers: { "X-Workspace-Id": second } });
    expect(me.body.data.current?.workspaceId).toBe(second);
    const other = await seedTenant();
    const res = await callWithCookie<Reply<Workspace[]>>("GET", "/api/v1/workspaces", cookie, {
      headers: { "X-Workspace-Id": other.workspaceId },
    });
    expect(expectError(res, 403, "FORBIDDEN").details.workspaceId).toBe(other.workspaceId);
  });

  it("X-Organization-Id picks among the user's memberships; an organization they do not belong to is 403", async () => {
    const a = await signUpUser({ organizationName: "First" });
    const b = await signUpUser({ organizationName: "Second" });
    // Make user A a developer in B's organization too.
    await createDb(env.DB).insert(memberships).values({
      id: crypto.randomUUID(),
      organizationId: b.organizationId,
      userId: a.userId,
      role: "developer",
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    });
    const inB = await callWithCookie<Reply<Organization>>("GET", "/api/v1/organizations/current", a.cookie, {
      headers: { "X-Organization-Id": b.organizationId },
    });
    expect(inB.status).toBe(200);
    expect(inB.body.data.name).toBe("Second");
    const byDefault = await callWithCookie<Reply<Organization>>("GET", "/api/v1/organizations/current", a.cookie);
    expect(byDefault.body.data.id).toBe(a.organizationId);
    const stranger = await seedTenant();
    expectError(
      await callWithCookie<Reply<Organization>>("GET", "/api/v1/organizations/current", a.cookie, {
        headers: { "X-Organization-Id": stranger.organizationId },
      }),
      403,
      "FORBIDDEN",
    );
  });
});

describe("roles", () => {
  it("a viewer can read API keys but creating one is 403 naming api_keys.manage", async () => {
    const { organizationId } = await signUpUser();
    const viewer = await seedMember(organizationId, "viewer");
    expect((await callWithCookie<Reply<ApiKey[]>>("GET", "/api/v1/api-keys", viewer.cookie)).status).toBe(200);
    const res = await callWithCookie<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", viewer.cookie, { body: NEW_KEY });
    const error = expectError(res, 403, "FORBIDDEN");
    expect(error.details.requiredPermission).toBe("api_keys.manage");
    expect(error.message).toContain("api_keys.manage");
  });

  it("a developer manages keys but cannot rename the organization or mint keys beyond its role", async () => {
    const { organizationId } = await signUpUser();
    const developer = await seedMember(organizationId, "developer");
    expect((await callWithCookie<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", developer.cookie, { body: NEW_KEY })).status).toBe(
      201,
    );
    const rename = await callWithCookie<Reply<Organization>>("PATCH", "/api/v1/organizations/current", developer.cookie, {
      body: { name: "Nope" },
    });
    expect(expectError(rename, 403, "FORBIDDEN").details.requiredPermission).toBe("organizations.manage");
    // A developer cannot mint a key with permissions its role lacks.
    const beyond = await callWithCookie<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", developer.cookie, {
      body: { name: "x", permissions: ["organizations.manage"] },
    });
    expectError(beyond, 403, "FORBIDDEN");
  });

  it("an admin may do everything but manage the organization; the owner may do everything", async () => {
    const { organizationId, cookie: owner } = await signUpUser();
    const admin = await seedMember(organizationId, "admin");
    expectError(
      await callWithCookie<Reply<Organization>>("PATCH", "/api/v1/organizations/current", admin.cookie, { body: { name: "Nope" } }),
      403,
      "FORBIDDEN",
    );
    expect((await callWithCookie<Reply<Workspace>>("POST", "/api/v1/workspaces", admin.cookie, { body: { name: "Filial" } })).status).toBe(
      201,
    );
    expect(
      (await callWithCookie<Reply<Organization>>("PATCH", "/api/v1/organizations/current", owner, { body: { name: "Renamed" } })).status,
    ).toBe(200);
    const me = await callWithCookie<Reply<Me>>("GET", "/api/v1/auth/me", admin.cookie);
    expect(me.body.data.current?.role).toBe("admin");
    expect(me.body.data.current?.permissions).not.toContain("organizations.manage");
    expect(ROLE_PERMISSIONS.admin).not.toContain("organizations.manage");
  });
});

describe("same-origin rule for cookie-authenticated writes", () => {
  it("a cross-site POST with the cookie is 403 and creates nothing", async () => {
    const { cookie, organizationId } = await signUpUser();
    const res = await callWithCookie<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", cookie, {
      body: NEW_KEY,
      headers: { Origin: "https://evil.example" },
    });
    expectError(res, 403, "FORBIDDEN");
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE organization_id = ?").bind(organizationId).first<{ n: number }>(),
    ).toEqual({
      n: 0,
    });
  });

  it("Sec-Fetch-Site: cross-site is 403; same-origin is accepted; a write with neither header is 403", async () => {
    const { cookie } = await signUpUser();
    expectError(
      await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
        body: NEW_KEY,
        headers: { Cookie: cookie, "Sec-Fetch-Site": "cross-site" },
      }),
      403,
      "FORBIDDEN",
    );
    const noHeaders = await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", { body: NEW_KEY, headers: { Cookie: cookie } });
    expectError(noHeaders, 403, "FORBIDDEN");
    const sameSite = await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
      body: NEW_KEY,
      headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" },
    });
    expect(sameSite.status).toBe(201);
  });

  it("cross-site logout and password change are refused too; reads are not affected", async () => {
    const { cookie } = await signUpUser();
    expectError(
      await callWithCookie("POST", "/api/v1/auth/logout", cookie, { headers: { Origin: "https://evil.example" } }),
      403,
      "FORBIDDEN",
    );
    expect(
      (await callWithCookie<Reply<Me>>("GET", "/api/v1/auth/me", cookie, { headers: { Origin: "https://evil.example" } })).status,
    ).toBe(200);
  });

  it("a cross-site sign-in form is refused (login CSRF)", async () => {
    const { email } = await signUpUser();
    const res = await call("POST", "/api/v1/auth/login", {
      body: { email, password: "whatever it is" },
      headers: { Origin: "https://evil.example" },
    });
    expectError(res, 403, "FORBIDDEN");
  });

  it("bearer-key requests are unaffected by Origin", async () => {
    const { key } = await seedTenant();
    const res = await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
      key,
      body: NEW_KEY,
      headers: { Origin: "https://evil.example" },
    });
    expect(res.status).toBe(201);
  });
});
