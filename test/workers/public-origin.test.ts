// Links Ponte hands out are built on the deployment's configured origin (PUBLIC_BASE_URL in wrangler.toml), never on
// the Host header a client chooses: an invitation link, the upstream's inbound webhook URL, and the OpenAPI
// document's `servers`, each asked for with a spoofed Host.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Reply } from "./bodies";
import { simKey } from "./gateway-support";
import { seedTenant } from "./support";

const SPOOFED = "https://evil.example";
const origin = env.PUBLIC_BASE_URL.replace(/\/+$/, "");

async function spoofed<T>(method: string, path: string, key: string, body?: unknown) {
  const res = await SELF.fetch(`${SPOOFED}${path}`, {
    method,
    headers: {
      Host: "evil.example",
      "X-Forwarded-Host": "evil.example",
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

describe("links from configuration, not from the Host header", () => {
  it("an invitation link and the inbound webhook URL are on PUBLIC_BASE_URL whatever Host the request carried", async () => {
    expect(origin).toMatch(/^http/);
    const t = await seedTenant();
    const invitation = await spoofed<Reply<{ url: string }>>("POST", "/api/v1/organizations/current/invitations", t.key, {
      email: `invitee-${crypto.randomUUID()}@example.com`,
      role: "viewer",
    });
    expect(invitation.status).toBe(201);
    expect(invitation.body.data.url.startsWith(`${origin}/`)).toBe(true);
    expect(invitation.body.data.url).not.toContain("evil.example");

    const account = await spoofed<Reply<{ id: string; inboundWebhookUrl: string }>>("POST", "/api/v1/gateway-accounts", t.key, {
      upstreamApiKey: simKey(),
    });
    expect(account.status).toBe(201);
    expect(account.body.data.inboundWebhookUrl).toBe(`${origin}/api/v1/webhooks/upstream/${account.body.data.id}`);
  });

  it("the OpenAPI document's servers name this deployment's origin and environment", async () => {
    const res = await SELF.fetch(`${SPOOFED}/api/v1/openapi.json`, { headers: { Host: "evil.example" } });
    const doc = (await res.json()) as { servers: { url: string; description: string }[] };
    expect(doc.servers).toEqual([
      { url: origin, description: `${env.ENVIRONMENT}: Ponte's API (/api/v1); the Asaas dialect at ${origin}/v3` },
    ]);
  });
});
