// The one id translator of forwarded calls (src/compat/upstream-ids.ts, issue 25 item 6): a Ponte
// UUID of the caller's own synced record becomes its upstream id in the path, the query string and
// the JSON body (at any depth), in both dialects; another tenant's UUID, an unknown one and an object
// key go as sent, and the rest of the body goes byte for byte. Read from what the simulator received.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createCustomer, createPayment, dueDate, seedBillingTenant, simRequests, type BillingTenant } from "./billing-support";
import type { Passthrough } from "./bodies";
import { clearSimRequests } from "./gateway-support";
import { BASE, call } from "./support";

/** A raw JSON body (so the bytes sent are the bytes checked). */
const post = (t: BillingTenant, path: string, json: string, dialect: "bearer" | "asaas" = "bearer") =>
  SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(dialect === "bearer" ? { Authorization: `Bearer ${t.key}` } : { access_token: t.key }),
    },
    body: json,
  });

describe("forwarded calls: Ponte UUIDs become upstream ids", () => {
  it("Bearer POST /lean/payments with a Ponte customer UUID reaches the upstream with the customer's upstream id and succeeds", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const { upstreamId: cusUp } = await upstreamOf(t, customer.id);
    await clearSimRequests(t.upstreamKey);

    const json = `{"customer":"${customer.id.toUpperCase()}","billingType":"PIX","value":129.90,"dueDate":"${dueDate()}"}`;
    const res = await post(t, "/api/v1/lean/payments", json);
    const body = (await res.json()) as Passthrough<{ id: string; customer: string; value: number }>;
    expect(res.status, JSON.stringify(body)).toBe(200);

    const [sent] = await simRequests(t);
    expect(cusUp).toMatch(/^cus_/);
    expect(body.data.customer).toBe(customer.id); // the answer names the customer as the merchant does: its Ponte UUID
    // Only the id changed: the rest (the money's spelling included) is the merchant's bytes.
    expect(sent!.body).toBe(json.replace(customer.id.toUpperCase(), cusUp));
  });

  it("UUIDs nested in objects and arrays, in the query string and in the path", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id)).body.data;
    const { upstreamId: payUp } = await upstreamOf(t, payment.id);
    const { upstreamId: cusUp } = await upstreamOf(t, customer.id);
    await clearSimRequests(t.upstreamKey);
    const unknown = crypto.randomUUID();

    const json = JSON.stringify({
      value: 10,
      description: `not an id: ${customer.id}`,
      split: [{ walletId: unknown, externalReference: payment.id }],
      meta: { payer: { customer: customer.id }, [customer.id]: "a key stays" },
    });
    const res = await post(t, `/api/v1/lean/payments/${payment.id}/receiveInCash`, json);
    expect(res.status).toBeLessThan(500);
    const list = await call("GET", `/api/v1/lean/payments?customer=${customer.id}&externalReference=${unknown}&limit=5`, { key: t.key });
    expect(list.status).toBe(200);

    const [refund, listed] = await simRequests(t);
    expect(refund!.path).toBe(`/v3/lean/payments/${payUp}/receiveInCash`);
    expect(JSON.parse(refund!.body)).toEqual({
      value: 10,
      description: `not an id: ${customer.id}`,
      split: [{ walletId: unknown, externalReference: payUp }],
      meta: { payer: { customer: cusUp }, [customer.id]: "a key stays" },
    });
    expect(listed!.path).toBe("/v3/lean/payments");
    expect(listed!.query.replace(/^\?/, "")).toBe(`customer=${cusUp}&externalReference=${unknown}&limit=5`);
  });

  it("the Asaas dialect (access_token) translates a passthrough body the same way", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = await createCustomer(t);
    const { upstreamId } = await upstreamOf(t, customer.id);
    await clearSimRequests(t.upstreamKey);
    const json = `{"customer":"${customer.id}","billingType":"PIX","value":50.00,"dueDate":"${dueDate()}"}`;
    const res = await post(t, "/api/v1/lean/payments", json, "asaas");
    expect(res.status, await res.clone().text()).toBe(200);
    const [sent] = await simRequests(t);
    expect(sent!.body).toBe(json.replace(customer.id, upstreamId));
  });

  it("another tenant's UUID (another organization, another workspace) goes as sent, in the path, query and body", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const other = await seedBillingTenant({ webhooks: false });
    const theirs = await createCustomer(other);
    const { upstreamId: theirUp } = await upstreamOf(other, theirs.id);
    await clearSimRequests(t.upstreamKey);
    const json = `{"customer":"${theirs.id}","items":[{"customer":"${theirs.id}"}]}`;
    await post(t, `/api/v1/customers/${theirs.id}/notifications`, json);
    await call("GET", `/api/v1/lean/payments?customer=${theirs.id}`, { key: t.key });
    const sent = await simRequests(t);
    expect(JSON.stringify(sent)).not.toContain(theirUp);
    expect(sent.map((r) => `${r.path}${r.query}`).join(" ")).toContain(theirs.id);
    expect(await simRequests(other)).toEqual([
      expect.objectContaining({ path: "/v3/customers" }), // its own create, nothing since
    ]);
  });
});

/** A record's upstream id, as Ponte stored it. */
async function upstreamOf(t: BillingTenant, id: string) {
  for (const table of ["customers", "payments"]) {
    const row = await env.DB.prepare(`SELECT upstream_id FROM ${table} WHERE id = ? AND workspace_id = ?`)
      .bind(id, t.workspaceId)
      .first<{ upstream_id: string }>();
    if (row) return { upstreamId: row.upstream_id };
  }
  throw new Error(`no record ${id}`);
}
