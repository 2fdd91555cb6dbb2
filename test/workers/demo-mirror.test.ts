// The demo history lives upstream too (scripts/lib/demo-mirror.mjs): the records the seed writes straight
// into D1 carry upstream ids the simulator never made, so a passthrough on one answered the upstream's 404
// until the seed mirrored them into the simulator (POST /__sim/import through the local API's /__sim/
// forward). And the upstream's clock: its date-times are São Paulo wall time, read by Ponte as such.
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { mirrorRecords, mirrorSql, pushDemoMirror } from "../../scripts/lib/demo-mirror.mjs";
import { asaasCall } from "./asaas-support";
import { type DemoWorkspace, seedDemoWorkspace } from "./demo-workspace";
import { seedGatewayAccount, simFetch, simKey } from "./gateway-support";
import { BASE, seedTenant } from "./support";

let demo: DemoWorkspace;
beforeAll(async () => {
  demo = await seedDemoWorkspace();
  // The fixture's endpoint has a placeholder secret; the writes below emit events nobody here receives.
  await env.DB.prepare("UPDATE webhook_endpoints SET enabled = 0 WHERE workspace_id = ?").bind(demo.workspaceId).run();
});

const bearer = async (method: string, path: string, key: string, body?: unknown) => {
  const res = await SELF.fetch(`${BASE}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field in the assertions.
  return { status: res.status, body: (await res.json()) as any };
};

/** What the seed does once the local API is up: read the workspace from D1, import it into the simulator. */
async function mirror() {
  const row = await env.DB.prepare(mirrorSql(demo.workspaceId)).first<{ mirror: string }>();
  return pushDemoMirror(BASE, mirrorRecords(JSON.parse(row?.mirror ?? "{}")), demo.upstreamKey, (url, init) => SELF.fetch(url, init));
}

const one = <T>(sql: string) => env.DB.prepare(sql).bind(demo.workspaceId).first<T>();

describe("the demo history in the simulator", () => {
  it("a passthrough on a demo record answered the upstream's 404; mirrored, it reaches the record (reads and writes, both dialects), and mirroring again adds nothing", async () => {
    const open = await one<{ id: string; upstream_id: string; value_cents: number }>(
      "SELECT id, upstream_id, value_cents FROM payments WHERE workspace_id = ? AND status = 'PENDING' AND billing_type = 'PIX' LIMIT 1",
    );
    const sub = await one<{ upstream_id: string }>(
      "SELECT upstream_id FROM subscriptions WHERE workspace_id = ? AND status = 'ACTIVE' LIMIT 1",
    );
    const refunded = await one<{ upstream_id: string; value_cents: number }>(
      "SELECT upstream_id, value_cents FROM payments WHERE workspace_id = ? AND status = 'REFUNDED' LIMIT 1",
    );
    if (!open || !sub || !refunded) throw new Error("the demo history has no open PIX charge, active subscription or refunded charge");

    // Before: the upstream does not know the demo's ids.
    expect((await bearer("GET", `/payments/${open.id}/pixQrCode`, demo.key)).status).toBe(404);
    const asaas = { prefix: "/v3", header: "access_token" };
    expect((await asaasCall(asaas, demo.key, "POST", `/subscriptions/${sub.upstream_id}`, { description: "Plano revisto" })).status).toBe(
      404,
    );
    expect((await asaasCall(asaas, demo.key, "GET", `/payments/${refunded.upstream_id}/billingInfo`)).status).toBe(404);

    const totals = await mirror();
    expect(totals.customers).toEqual({ imported: demo.counts.customers, existing: 0 });
    expect(totals.subscriptions).toEqual({ imported: demo.counts.subscriptions, existing: 0 });
    expect(totals.payments).toEqual({ imported: demo.counts.payments, existing: 0 });

    const qr = await bearer("GET", `/payments/${open.id}/pixQrCode`, demo.key);
    expect(qr.status, JSON.stringify(qr.body)).toBe(200);
    expect(qr.body.data.payload).toMatch(/^000201/);
    const updated = await asaasCall(asaas, demo.key, "POST", `/subscriptions/${sub.upstream_id}`, {
      description: "Plano revisto",
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ id: sub.upstream_id, description: "Plano revisto", status: "ACTIVE" });
    const billing = await asaasCall(asaas, demo.key, "GET", `/payments/${refunded.upstream_id}/billingInfo`);
    expect(billing.status, JSON.stringify(billing.body)).toBe(200);
    // The upstream holds the demo charge with its value, status and refund, in its own units (reais, São Paulo dates).
    const held = await simFetch<Record<string, unknown>>("GET", `/v3/payments/${refunded.upstream_id}`, { token: demo.upstreamKey });
    expect(held.body).toMatchObject({ status: "REFUNDED", value: refunded.value_cents / 100, deleted: false });
    expect(held.body.refunds).toEqual([expect.objectContaining({ status: "DONE", value: refunded.value_cents / 100 })]);

    // Restarting `npm start` (or re-running the seed) mirrors again: nothing is duplicated or overwritten.
    const again = await mirror();
    expect(again.payments).toEqual({ imported: 0, existing: demo.counts.payments });
    expect(again.customers).toEqual({ imported: 0, existing: demo.counts.customers });
  });

  it("the local worker forwards /__sim/ to the simulator (see environments.test.ts for the deployed ones), which needs the account's token", async () => {
    expect((await SELF.fetch(`${BASE}/__sim/health`)).status).toBe(200);
    const noToken = await SELF.fetch(`${BASE}/__sim/import`, { method: "POST", body: "{}" });
    expect(noToken.status).toBe(400);
  });
});

describe("the upstream's clock, end to end", () => {
  it("a date-time the simulator writes now (São Paulo wall time) reaches a Bearer caller as now in ISO UTC, and an Asaas caller as sent", async () => {
    const t = await seedTenant();
    await seedGatewayAccount(t, simKey());
    const before = Date.now();
    const key = await bearer("POST", "/pix/addressKeys", t.key, { type: "EVP" });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    // A 3 h slip either way (the simulator writing UTC, or Ponte reading the wall time as UTC) fails here.
    const at = Date.parse(key.body.data.dateCreated);
    expect(key.body.data.dateCreated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    const raw = await asaasCall({ prefix: "/v3", header: "access_token" }, t.key, "GET", `/pix/addressKeys/${key.body.data.id}`);
    expect(raw.body.dateCreated).toBe(new Date(at - 3 * 3_600_000).toISOString().slice(0, 19).replace("T", " "));
  });
});
