// Console webhook pages over the webhook-endpoints and webhook-logs services (Test/ping is covered by the browser test).
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { events, webhookDeliveries } from "../../src/db/schema";
import { seedMember, signUpUser } from "./auth-support";
import { BASE } from "./support";

async function form(path: string, cookie: string, fields: Record<string, string | string[]> = {}) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of ([] as string[]).concat(v)) body.append(k, one);
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { Origin: BASE, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
}
const page = (path: string, cookie: string) => SELF.fetch(`${BASE}${path}`, { redirect: "manual", headers: { Cookie: cookie } });

describe("console webhook endpoints", () => {
  it("creates an endpoint whose whsec_ secret is shown once, then edits, disables and re-enables it", async () => {
    const { cookie, organizationId } = await signUpUser();
    const res = await form("/console/webhooks", cookie, {
      url: "https://merchant.example.com/hooks",
      description: "",
      eventKinds: ["payment.received", "payment.refunded"],
    });
    expect(res.status).toBe(201);
    const html = await res.text();
    const secret = /value="(whsec_[^"]+)"/.exec(html)?.[1];
    expect(secret).toBeDefined();
    const row = (await env.DB.prepare("SELECT id, event_kinds, enabled FROM webhook_endpoints WHERE organization_id = ?")
      .bind(organizationId)
      .first<{ id: string; event_kinds: string; enabled: number }>())!;
    expect(JSON.parse(row.event_kinds)).toEqual(["payment.received", "payment.refunded"]);
    expect(await (await page("/console/webhooks", cookie)).text()).not.toContain(secret!);

    const edited = await form(`/console/webhooks/${row.id}`, cookie, { description: "orders", eventKinds: ["*"] });
    expect(edited.status).toBe(200);
    expect(await edited.text()).toContain("Saved.");
    expect(
      JSON.parse(
        (await env.DB.prepare("SELECT event_kinds FROM webhook_endpoints WHERE id = ?").bind(row.id).first<{ event_kinds: string }>())!
          .event_kinds,
      ),
    ).toEqual(["*"]);

    expect(await (await form(`/console/webhooks/${row.id}/disable`, cookie)).text()).toContain("Disabled");
    expect(
      await env.DB.prepare("SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = ?")
        .bind(row.id)
        .first<{ enabled: number; disabled_reason: string | null }>(),
    ).toEqual({
      enabled: 0,
      disabled_reason: "manual",
    });
    expect(await (await form(`/console/webhooks/${row.id}/enable`, cookie)).text()).toContain("Enabled");
    expect(await env.DB.prepare("SELECT enabled FROM webhook_endpoints WHERE id = ?").bind(row.id).first<{ enabled: number }>()).toEqual({
      enabled: 1,
    });

    const rotated = await (await form(`/console/webhooks/${row.id}/rotate-secret`, cookie)).text();
    const newSecret = /value="(whsec_[^"]+)"/.exec(rotated)?.[1];
    expect(newSecret).toBeDefined();
    expect(newSecret).not.toBe(secret);
  });

  it("an invalid URL or no event kind is explained in plain words; nothing is created", async () => {
    const { cookie, organizationId } = await signUpUser();
    const res = await form("/console/webhooks", cookie, { url: "ftp://nope", eventKinds: [] });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Please check:");
    expect(html).toContain('value="ftp://nope"'); // what was typed is kept
    const ticked = await form("/console/webhooks", cookie, { url: "ftp://nope", eventKinds: ["payment.refunded"] });
    expect(await ticked.text()).toMatch(/value="payment\.refunded" checked/); // and what was ticked
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_endpoints WHERE organization_id = ?")
        .bind(organizationId)
        .first<{ n: number }>(),
    ).toEqual({ n: 0 });
  });

  it("a viewer sees endpoints but no create form, and a forged POST is 403 naming the permission", async () => {
    const { organizationId } = await signUpUser();
    const viewer = await seedMember(organizationId, "viewer");
    expect(await (await page("/console/webhooks", viewer.cookie)).text()).not.toContain("Create endpoint");
    const res = await form("/console/webhooks", viewer.cookie, {
      url: "https://merchant.example.com/hooks",
      eventKinds: "payment.received",
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("webhook_endpoints.manage");
  });

  it("another tenant's endpoint and delivery are 404 pages", async () => {
    const a = await signUpUser();
    const b = await signUpUser();
    await form("/console/webhooks", a.cookie, { url: "https://merchant.example.com/hooks", eventKinds: "payment.received" });
    const row = (await env.DB.prepare("SELECT id FROM webhook_endpoints WHERE organization_id = ?")
      .bind(a.organizationId)
      .first<{ id: string }>())!;
    expect((await page(`/console/webhooks/${row.id}`, b.cookie)).status).toBe(404);
    expect((await form(`/console/webhooks/${row.id}/rotate-secret`, b.cookie)).status).toBe(404);
  });
});

describe("console webhook log", () => {
  it("lists deliveries with filters and shows attempts of one delivery", async () => {
    const { cookie, organizationId, workspaceId } = await signUpUser();
    await form("/console/webhooks", cookie, { url: "https://merchant.example.com/hooks", eventKinds: "payment.received" });
    const endpoint = (await env.DB.prepare("SELECT id FROM webhook_endpoints WHERE organization_id = ?")
      .bind(organizationId)
      .first<{ id: string }>())!;
    const now = new Date().toISOString();
    const eventId = crypto.randomUUID();
    const deliveryId = crypto.randomUUID();
    const db = createDb(env.DB);
    await db.batch([
      db
        .insert(events)
        .values({ id: eventId, organizationId, workspaceId, type: "payment.received", data: {}, createdAt: now, fannedOutAt: now }),
      db.insert(webhookDeliveries).values({
        id: deliveryId,
        organizationId,
        workspaceId,
        endpointId: endpoint.id,
        eventId,
        eventType: "payment.received",
        status: "failed",
        createdAt: now,
        updatedAt: now,
      }),
    ]);
    const failed = await (await page("/console/webhook-logs?status=failed", cookie)).text();
    expect(failed).toContain(`/console/webhook-logs/${deliveryId}`);
    const succeeded = await (await page("/console/webhook-logs?status=succeeded", cookie)).text();
    expect(succeeded).not.toContain(deliveryId);
    const detail = await page(`/console/webhook-logs/${deliveryId}`, cookie);
    expect(detail.status).toBe(200);
    expect(await detail.text()).toContain("Redeliver now");
  });
});
