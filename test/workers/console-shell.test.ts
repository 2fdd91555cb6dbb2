// The console's shell: the grouped sidebar (every group, the current page marked), and the pages it added —
// Organization (name and time zone), Workspaces (list, create through the shared action form with the field's
// error in place), Listen for webhooks (the CLI command with this workspace's values).
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { seedMember, signUpUser } from "./auth-support";
import { BASE } from "./support";

const page = (path: string, cookie: string) => SELF.fetch(`${BASE}${path}`, { redirect: "manual", headers: { Cookie: cookie } });
const post = (path: string, cookie: string, fields: Record<string, string>) =>
  SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    redirect: "manual",
    headers: { Origin: BASE, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });

describe("console shell", () => {
  it("groups the sidebar and marks only the current page", async () => {
    const owner = await signUpUser({ organizationName: "Shell & Co" });
    const html = await (await page("/console/payments", owner.cookie)).text();
    const headings = [...html.matchAll(/<p class="nav-heading" id="nav-[a-z]+">([^<]+)<\/p>/g)].map((m) => m[1]);
    expect(headings).toEqual(["Home", "Billing", "Finance", "Analytics", "Developers", "Settings"]);
    expect([...html.matchAll(/aria-current="page"/g)]).toHaveLength(1);
    expect(html).toContain('<a href="/console/payments" aria-current="page">Payments</a>');
    // Billing holds customers…plans, in that order; Settings holds organization…audit.
    const billing = html.slice(html.indexOf('id="nav-billing"'), html.indexOf('id="nav-finance"'));
    expect([...billing.matchAll(/>([A-Z][a-z]+)<\/a>/g)].map((m) => m[1])).toEqual(["Customers", "Payments", "Subscriptions", "Plans"]);
    const settings = html.slice(html.indexOf('id="nav-settings"'));
    for (const href of ["/console/organization", "/console/workspaces", "/console/team", "/console/audit"])
      expect(settings).toContain(`href="${href}"`);
    expect(html).toContain('<input type="checkbox" id="nav-toggle" class="nav-toggle" aria-controls="console-nav" aria-label="Menu"/>');
  });

  it("the organization page shows its name and time zone", async () => {
    const owner = await signUpUser({ organizationName: "Relógio Ltda" });
    await env.DB.prepare("UPDATE organizations SET time_zone = 'America/Manaus' WHERE id = ?").bind(owner.organizationId).run();
    const res = await page("/console/organization", owner.cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<dd data-organization-name[^>]*>Relógio Ltda<\/dd>/);
    expect(html).toContain("<code>America/Manaus</code>");
    expect(html).toContain('href="/console/organization" aria-current="page"');
  });

  it("creates a workspace; an empty name is refused beside the field and nothing is stored", async () => {
    const owner = await signUpUser();
    const count = async () =>
      (
        await env.DB.prepare("SELECT count(*) AS n FROM workspaces WHERE organization_id = ?")
          .bind(owner.organizationId)
          .first<{ n: number }>()
      )?.n;
    const bad = await post("/console/workspaces", owner.cookie, { name: "  " });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('aria-invalid="true"');
    expect(badHtml).toMatch(/<p class="field-error" id="workspace-name-error">[^<]+<\/p>/);
    expect(await count()).toBe(1);
    const ok = await post("/console/workspaces", owner.cookie, { name: "Loja online" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/console/workspaces?done=created");
    const list = await (await page("/console/workspaces?done=created", owner.cookie)).text();
    expect(list).toContain("Workspace created");
    expect(list).toContain("Loja online");
    expect(list).toContain("(default)");
    expect(await count()).toBe(2);
    const viewer = await seedMember(owner.organizationId, "viewer");
    expect((await post("/console/workspaces", viewer.cookie, { name: "Nope" })).status).toBe(403);
    expect(await count()).toBe(2);
  });

  it("the listen page prints the command with this organization, workspace and the chosen forward URL", async () => {
    const owner = await signUpUser();
    const html = await (
      await page("/console/listen?forwardTo=http%3A%2F%2Flocalhost%3A4000%2Fhooks&events=payment.*", owner.cookie)
    ).text();
    expect(html).toContain(`--organization ${owner.organizationId}`);
    expect(html).toContain(`--workspace ${owner.workspaceId}`);
    expect(html).toContain("--forward-to http://localhost:4000/hooks");
    expect(html).toContain("--events &#39;payment.*&#39;"); // quoted: the shell would expand the *
    expect(html).toContain("No key of this workspace has webhook_endpoints.manage yet");
  });
});
