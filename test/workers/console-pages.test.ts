// The console's server-rendered pages: sign-up/in/out by form, overview, API keys (secret shown once), roles, CSRF.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { workspaces } from "../../src/db/schema";
import { PASSWORD, seedMember, sessionCookieFrom, signUpUser, uniqueEmail } from "./auth-support";
import { BASE, seedTenant } from "./support";

async function form(path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of ([] as string[]).concat(v)) body.append(k, one);
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { Origin: BASE, "Content-Type": "application/x-www-form-urlencoded", ...headers },
  });
}
const page = (path: string, cookie?: string) =>
  SELF.fetch(`${BASE}${path}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });

describe("console sign-up, sign-in, sign-out", () => {
  it("sign-up by form sets the session cookie and lands on the dashboard; the overview shows the organization", async () => {
    const email = uniqueEmail("form");
    const res = await form("/console/sign-up", { name: "Bia", email, password: PASSWORD, organizationName: "Padaria da Bia" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/console/dashboard");
    const cookie = sessionCookieFrom(res.headers)!;
    const overview = await page("/console", cookie);
    expect(overview.status).toBe(200);
    const html = await overview.text();
    expect(html).toContain("Padaria da Bia");
    expect(html).toContain("Active API keys");
    // The organization's log retention, read-only (defaults for a new organization).
    expect(html).toMatch(/data-retention[^>]*>\s*Logs kept: upstream calls 30 days, webhook attempts 90 days, audit log\s+400 days/);
    expect(overview.headers.get("content-security-policy")).toMatch(
      /default-src 'none'; style-src 'nonce-[^']+' 'self'; script-src 'nonce-[^']+' 'self'; connect-src 'self';/,
    );
    expect(overview.headers.get("cache-control")).toBe("no-store");
  });

  it("shows the reason when sign-up fails, and keeps what was typed (except the password)", async () => {
    const res = await form("/console/sign-up", { name: "Bia", email: "bia@example.com", password: "short", organizationName: "X" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Please check: password");
    expect(html).toContain('value="bia@example.com"');
    expect(html).not.toContain('value="short"');
  });

  it("wrong password: the page says so in plain words", async () => {
    const { email } = await signUpUser();
    const res = await form("/console/sign-in", { email, password: "not the password" });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("Email or password is incorrect.");
  });

  it("sign-in then sign-out ends the session", async () => {
    const { email } = await signUpUser();
    const signIn = await form("/console/sign-in", { email, password: PASSWORD });
    expect(signIn.status).toBe(303);
    const cookie = sessionCookieFrom(signIn.headers)!;
    expect((await page("/console", cookie)).status).toBe(200);
    const out = await form("/console/sign-out", {}, { Cookie: cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/console/sign-in");
    expect((await page("/console", cookie)).headers.get("location")).toBe("/console/sign-in");
  });

  it("pages behind sign-in redirect there without a session", async () => {
    const res = await page("/console/api-keys");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/console/sign-in");
  });
});

describe("console API keys", () => {
  it("creates a key whose secret appears once, in the POST's own response, and revokes it", async () => {
    const { cookie, organizationId } = await signUpUser();
    const res = await form(
      "/console/api-keys",
      { name: "checkout server", permissions: ["payments.manage", "customers.read"], workspaceId: "" },
      { Cookie: cookie },
    );
    expect(res.status).toBe(201);
    const html = await res.text();
    const secret = /value="(ponte_test_[0-9A-Za-z]{40})"/.exec(html)?.[1];
    expect(secret).toBeDefined();
    expect(html).toContain("only time it is shown");
    // The key works as a bearer credential.
    const whoami = await SELF.fetch(`${BASE}/api/v1/api-keys`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(whoami.status).toBe(403); // it holds payments/customers only, not api_keys.read
    const listing = await (await page("/console/api-keys", cookie)).text();
    expect(listing).toContain("checkout server");
    expect(listing).not.toContain(secret!);

    const row = (await env.DB.prepare("SELECT id, permissions FROM api_keys WHERE organization_id = ?")
      .bind(organizationId)
      .first<{ id: string; permissions: string }>())!;
    expect(JSON.parse(row.permissions)).toEqual(["customers.read", "payments.manage"]);
    const revoke = await form(`/console/api-keys/${row.id}/revoke`, {}, { Cookie: cookie });
    expect(revoke.status).toBe(303);
    const after = await SELF.fetch(`${BASE}/api/v1/api-keys`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(after.status).toBe(401);
  });

  it("a form with no permissions shows which field is wrong; nothing is created", async () => {
    const { cookie, organizationId } = await signUpUser();
    const res = await form("/console/api-keys", { name: "x" }, { Cookie: cookie });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Please check: permissions");
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE organization_id = ?").bind(organizationId).first<{ n: number }>(),
    ).toEqual({
      n: 0,
    });
  });

  it("a viewer sees no create form, and a forged POST is refused naming the permission", async () => {
    const { organizationId } = await signUpUser();
    const viewer = await seedMember(organizationId, "viewer");
    const html = await (await page("/console/api-keys", viewer.cookie)).text();
    expect(html).not.toContain("Create key");
    const res = await form("/console/api-keys", { name: "x", permissions: "payments.read" }, { Cookie: viewer.cookie });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("api_keys.manage");
  });

  it("a cross-site form POST with the cookie is refused and creates nothing", async () => {
    const { cookie, organizationId } = await signUpUser();
    const res = await form(
      "/console/api-keys",
      { name: "x", permissions: "payments.read" },
      { Cookie: cookie, Origin: "https://evil.example" },
    );
    expect(res.status).toBe(403);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE organization_id = ?").bind(organizationId).first<{ n: number }>(),
    ).toEqual({
      n: 0,
    });
  });
});

describe("console organization/workspace switcher", () => {
  it("switches to another workspace of the user's organization; a foreign one is ignored", async () => {
    const { cookie, organizationId } = await signUpUser();
    const ws = crypto.randomUUID();
    const now = new Date().toISOString();
    await createDb(env.DB).insert(workspaces).values({ id: ws, organizationId, name: "Filial Norte", createdAt: now, updatedAt: now });
    const res = await form(
      "/console/switch",
      { tenant: `${organizationId}.${ws}` },
      { Cookie: cookie, Referer: `${BASE}/console/api-keys` },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/console/api-keys");
    const tenantCookie = /ponte_console_tenant=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")![0];
    const html = await (await page("/console", `${cookie}; ${tenantCookie}`)).text();
    expect(html).toContain("/ Filial Norte");

    const other = await seedTenant();
    const foreign = await form("/console/switch", { tenant: `${other.organizationId}.${other.workspaceId}` }, { Cookie: cookie });
    expect(foreign.headers.get("set-cookie") ?? "").not.toContain("ponte_console_tenant");
    // A forged tenant cookie falls back to the user's own default.
    const forged = await (await page("/console", `${cookie}; ponte_console_tenant=${other.organizationId}.${other.workspaceId}`)).text();
    expect(forged).toContain("/ Default");
  });
});
