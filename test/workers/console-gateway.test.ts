// Console gateway-account page and overview over the gateway-accounts, payments, customers and webhook-logs services.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { type DELIVERY_STATUSES, events, webhookDeliveries } from "../../src/db/schema";
import { sha256Hex } from "../../src/lib/secret-box";
import { seedMember, signUpUser } from "./auth-support";
import { createPayment, createCustomer, seedBillingTenant } from "./billing-support";
import { simKey } from "./gateway-support";
import { BASE } from "./support";

/** The stored gateway account columns these tests read. */
interface StoredGatewayAccount {
  id: string;
  status: string;
  environment: string;
  upstream_key_last4: string;
  upstream_key_sealed: string;
  webhook_token_hash: string;
}

async function form(path: string, cookie: string, fields: Record<string, string> = {}, origin = BASE) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    redirect: "manual",
    headers: { Origin: origin, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
}
const page = (path: string, cookie: string) => SELF.fetch(`${BASE}${path}`, { redirect: "manual", headers: { Cookie: cookie } });
const accountOf = (workspaceId: string) =>
  env.DB.prepare("SELECT * FROM gateway_accounts WHERE workspace_id = ?").bind(workspaceId).first<StoredGatewayAccount>();
const tokenIn = (html: string) => /id="inbound-webhook-token" type="text" readonly="" value="([^"]+)"/.exec(html)?.[1];

describe("console gateway account page", () => {
  it("an owner without an account sees the connect form, linked from the navigation", async () => {
    const { cookie } = await signUpUser();
    const res = await page("/console/gateway", cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('href="/console/gateway" aria-current="page"');
    expect(html).toContain("no gateway account for test yet");
    expect(html).toContain('action="/console/gateway"');
    expect(html).toContain("Save key");
  });

  it("connecting shows the inbound token once with the URL; a reload shows neither the token nor the key; Verify makes it active", async () => {
    const { cookie, workspaceId } = await signUpUser();
    const upstreamKey = simKey();
    const res = await form("/console/gateway", cookie, { upstreamApiKey: upstreamKey });
    expect(res.status).toBe(201);
    const html = await res.text();
    const token = tokenIn(html);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = (await accountOf(workspaceId))!;
    expect(row).toMatchObject({ status: "unverified", upstream_key_last4: upstreamKey.slice(-4), environment: "test" });
    expect(row.webhook_token_hash).toBe(await sha256Hex(token!));
    expect(html).toContain(`value="${env.PUBLIC_BASE_URL}/api/v1/webhooks/upstream/${row.id}"`);
    expect(html).toContain("only time it is shown");
    expect(html).toContain("now points at this URL"); // the simulator's webhook was configured
    expect(html).not.toContain(upstreamKey);

    const reload = await (await page("/console/gateway", cookie)).text();
    expect(reload).not.toContain(token!);
    expect(reload).not.toContain(upstreamKey);
    expect(reload).toContain(`…${upstreamKey.slice(-4)}`);
    expect(reload).toContain('data-gateway-status="unverified"');
    expect(reload).toContain(`/api/v1/webhooks/upstream/${row.id}`);
    expect(reload).toContain("Replace key");

    const verified = await form(`/console/gateway/${row.id}/verify`, cookie);
    expect(verified.status).toBe(200);
    const vhtml = await verified.text();
    expect(vhtml).toContain("Verified: the upstream accepted the key");
    expect(vhtml).toContain('data-gateway-status="active"');
    expect((await accountOf(workspaceId))!.status).toBe("active");
  });

  it("replacing the key returns the account to not verified; a refused key reads as invalid credentials; rotation shows a new token once", async () => {
    const { cookie, workspaceId } = await signUpUser();
    const first = await (await form("/console/gateway", cookie, { upstreamApiKey: simKey() })).text();
    const row = (await accountOf(workspaceId))!;
    await form(`/console/gateway/${row.id}/verify`, cookie);

    const replaced = await form(`/console/gateway/${row.id}/key`, cookie, { upstreamApiKey: "revoked-key-9876" });
    expect(replaced.status).toBe(200);
    const rhtml = await replaced.text();
    expect(rhtml).toContain("Key replaced (ends in 9876)");
    expect(rhtml).not.toContain("revoked-key-9876");
    expect(tokenIn(rhtml)).toBeUndefined();
    expect(await accountOf(workspaceId))!.toMatchObject({
      status: "unverified",
      verified_at: null,
      upstream_key_last4: "9876",
      webhook_token_hash: row.webhook_token_hash,
    });

    const refused = await (await form(`/console/gateway/${row.id}/verify`, cookie)).text();
    expect(refused).toContain("The upstream refused this key");
    expect(refused).toContain('data-gateway-status="invalid_credentials"');

    const rotated = await form(`/console/gateway/${row.id}/rotate-token`, cookie);
    expect(rotated.status).toBe(200);
    const newToken = tokenIn(await rotated.text());
    expect(newToken).toBeDefined();
    expect(newToken).not.toBe(tokenIn(first));
    expect((await accountOf(workspaceId))!.webhook_token_hash).toBe(await sha256Hex(newToken!));
  });

  it("a bad key is explained in plain words and creates nothing; a cross-site POST is refused", async () => {
    const { cookie, workspaceId } = await signUpUser();
    const res = await form("/console/gateway", cookie, { upstreamApiKey: "short" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Please check: upstreamApiKey (must be 8 to 512 printable ASCII characters, without spaces)");
    const crossSite = await form("/console/gateway", cookie, { upstreamApiKey: simKey() }, "https://evil.example");
    expect(crossSite.status).toBe(403);
    expect(await accountOf(workspaceId))!.toBeNull();
  });

  it("a viewer sees the account read-only, and a forged Verify is refused naming the permission", async () => {
    const tenant = await seedBillingTenant({ webhooks: false });
    const viewer = await seedMember(tenant.organizationId, "viewer");
    const html = await (await page("/console/gateway", viewer.cookie)).text();
    expect(html).toContain(`…${tenant.upstreamKey.slice(-4)}`);
    expect(html).toContain('data-gateway-status="active"');
    expect(html).toContain("can see the gateway account but not change it");
    expect(html).not.toContain('<form method="post" action="/console/gateway');
    expect(html).not.toContain('name="upstreamApiKey"');
    const forged = await form(`/console/gateway/${tenant.gatewayAccountId}/key`, viewer.cookie, { upstreamApiKey: simKey() });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain("gateway_accounts.manage");
    expect((await accountOf(tenant.workspaceId))!.upstream_key_last4).toBe(tenant.upstreamKey.slice(-4));
  });

  it("another tenant's account never appears, and acting on it by id is not found", async () => {
    const a = await seedBillingTenant({ webhooks: false });
    const { cookie, workspaceId } = await signUpUser();
    const html = await (await page("/console/gateway", cookie)).text();
    expect(html).not.toContain(a.gatewayAccountId);
    expect(html).not.toContain(`…${a.upstreamKey.slice(-4)}`);
    for (const action of ["verify", "rotate-token"]) {
      const res = await form(`/console/gateway/${a.gatewayAccountId}/${action}`, cookie);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain(`No gateway account with id &#39;${a.gatewayAccountId}&#39;`);
    }
    const replace = await form(`/console/gateway/${a.gatewayAccountId}/key`, cookie, { upstreamApiKey: simKey() });
    expect(replace.status).toBe(404);
    expect(await accountOf(a.workspaceId)).toMatchObject({
      upstream_key_last4: a.upstreamKey.slice(-4),
      webhook_token_hash: await sha256Hex(a.webhookToken),
    });
    expect(await accountOf(workspaceId))!.toBeNull();
  });
});

describe("console overview", () => {
  it("counts and lists a payment and customer created through the API; another tenant's never appear", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const payment = await createPayment(t, customer.id, { billingType: "BOLETO", value: "1234.56" });
    expect(payment.status, JSON.stringify(payment.body)).toBe(200);
    const owner = await seedMember(t.organizationId, "owner");
    const html = await (await page("/console", owner.cookie)).text();
    const recent = /<table data-recent="payments">[\s\S]*?<\/table>/.exec(html)?.[0] ?? "";
    expect(recent).toContain(payment.body.data.id);
    expect(recent).toContain("BOLETO");
    expect(recent).toContain("1234.56");
    expect(recent).toContain(`<span class="badge">${payment.body.data.status}</span>`);
    expect(html).toMatch(/data-stat="Payments in this workspace"><div class="stat">1<\/div>/);
    expect(html).toMatch(/data-stat="Customers in this workspace"><div class="stat">1<\/div>/);
    expect(html).toMatch(/data-stat="Webhook deliveries"><div class="stat">0<\/div>/);

    const other = await signUpUser();
    const otherHtml = await (await page("/console", other.cookie)).text();
    expect(otherHtml).not.toContain(payment.body.data.id);
    expect(otherHtml).toContain("No payments in this workspace yet.");
    expect(otherHtml).toMatch(/data-stat="Customers in this workspace"><div class="stat">0<\/div>/);
  });

  it("lists the workspace's recent webhook deliveries with their status, and no other workspace's", async () => {
    const seedDelivery = async (
      cookie: string,
      organizationId: string,
      workspaceId: string,
      status: (typeof DELIVERY_STATUSES)[number],
    ) => {
      expect(
        (await form("/console/webhooks", cookie, { url: "https://merchant.example.com/hooks", eventKinds: "payment.received" })).status,
      ).toBe(201);
      const endpoint = (await env.DB.prepare("SELECT id FROM webhook_endpoints WHERE workspace_id = ?")
        .bind(workspaceId)
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
          status,
          createdAt: now,
          updatedAt: now,
        }),
      ]);
      return deliveryId;
    };
    const mine = await signUpUser();
    const theirs = await signUpUser();
    const deliveryId = await seedDelivery(mine.cookie, mine.organizationId, mine.workspaceId, "failed");
    const foreignId = await seedDelivery(theirs.cookie, theirs.organizationId, theirs.workspaceId, "succeeded");
    const html = await (await page("/console", mine.cookie)).text();
    const recent = /<table data-recent="deliveries">[\s\S]*?<\/table>/.exec(html)?.[0] ?? "";
    expect(recent).toContain(`/console/webhook-logs/${deliveryId}`);
    expect(recent).toContain("payment.received");
    expect(recent).toContain('<span class="badge">failed</span>');
    expect(html).not.toContain(foreignId);
    expect(html).toMatch(/data-stat="Webhook deliveries"><div class="stat">1<\/div>/);
  });
});
