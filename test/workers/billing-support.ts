// Billing test support: a tenant with a gateway account whose upstream key is a fresh simulated
// account, with the simulator's webhook pointed at Ponte's inbound route.
import { env } from "cloudflare:test";
import { buildApp } from "../../src/app";
import { backgroundDeps, type Deps } from "../../src/deps";
import { seedGatewayAccount, simFetch, simRequests as simRequestsOf } from "./gateway-support";
import { BASE, call, seedTenant, type SeedOptions, type TestTenant } from "./support";
import type { Customer, Payment, Reply, UpstreamWebhookReceipt } from "./bodies";

export interface BillingTenant extends TestTenant {
  gatewayAccountId: string;
  upstreamKey: string;
  webhookToken: string;
}

/** The simulator as the upstream (with `token`) or its control API (without). */
export const sim = <T = unknown>(method: string, path: string, body?: unknown, token?: string) =>
  simFetch<T>(method, path, { body, ...(token ? { token } : {}) });

export interface BillingSeedOptions extends SeedOptions {
  /** Configure the simulator to send webhooks to Ponte (default true). */
  webhooks?: boolean;
}

export async function seedBillingTenant(options: BillingSeedOptions = {}): Promise<BillingTenant> {
  const tenant = await seedTenant(options);
  const upstreamKey = `$aact_test_${crypto.randomUUID().replace(/-/g, "")}`;
  const webhookToken = `whtok_${crypto.randomUUID()}`;
  const gatewayAccountId = await seedGatewayAccount(tenant, upstreamKey, "test", webhookToken);
  if (options.webhooks !== false) {
    const res = await sim(
      "POST",
      "/v3/webhooks",
      {
        name: "ponte",
        url: `https://ponte.test/api/v1/webhooks/upstream/${gatewayAccountId}`,
        authToken: webhookToken,
        sendType: "SEQUENTIALLY",
        events: [],
      },
      upstreamKey,
    );
    if (res.status !== 200) throw new Error(`sim webhook config failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { ...tenant, gatewayAccountId, upstreamKey, webhookToken };
}

/** Valid CPFs/CNPJs (check digits ok). */
export const CPF = "529.982.247-25";
export const CNPJ = "11.222.333/0001-81";

export async function createCustomer(t: BillingTenant, overrides: Record<string, unknown> = {}) {
  const res = await call<Reply<Customer>>("POST", "/api/v1/customers", {
    key: t.key,
    body: { name: "Maria Silva", cpfCnpj: CPF, email: "maria@example.com", ...overrides },
  });
  if (res.status !== 200) throw new Error(`customer create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A card holder and a test card, as the tokenizer takes them (the simulator approves 4111…). */
export const HOLDER = {
  name: "Maria Silva",
  email: "maria@example.com",
  cpfCnpj: "52998224725",
  postalCode: "01310-100",
  addressNumber: "100",
  phone: "11999990000",
};
export const card = (number = "4111111111111111") => ({
  holderName: "MARIA SILVA",
  number,
  expiryMonth: "12",
  expiryYear: String(new Date().getUTCFullYear() + 2),
  ccv: "123",
});
export const dueDate = (days = 7) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export async function createPayment(
  t: BillingTenant,
  customer: string,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return call<Reply<Payment>>("POST", "/api/v1/payments", {
    key: t.key,
    headers,
    body: { customer, billingType: "PIX", value: "100.00", dueDate: dueDate(), ...body },
  });
}

/** Simulator requests for this account, optionally filtered by method + path. */
export async function simRequests(t: BillingTenant, method?: string, path?: string) {
  return (await simRequestsOf(t.upstreamKey)).filter((r) => (!method || r.method === method) && (!path || r.path === path));
}

export async function eventsOf(t: TestTenant, type?: string) {
  const rows = await env.DB.prepare(`SELECT id, type, data FROM events WHERE workspace_id = ? ${type ? "AND type = ?" : ""} ORDER BY id`)
    .bind(...(type ? [t.workspaceId, type] : [t.workspaceId]))
    .all<{ id: string; type: string; data: string }>();
  return rows.results.map((r) => ({ ...r, data: JSON.parse(r.data) }));
}

/** Deps for calling services directly (sweeper, short upstream timeouts, injected clock). */
export function testDeps(overrides: Partial<Deps> = {}): Deps {
  return { ...backgroundDeps(env, undefined, "test"), ...overrides };
}

export async function upstreamWebhook(t: BillingTenant, envelope: Record<string, unknown>, token: string | null = t.webhookToken) {
  return call<Reply<UpstreamWebhookReceipt>>("POST", `/api/v1/webhooks/upstream/${t.gatewayAccountId}`, {
    body: envelope,
    headers: token === null ? {} : { "asaas-access-token": token },
  });
}

/** A PIX create under `key` through one app with the D1 counter and the statement log on: the response, its body and the SQL of every statement it sent. */
export async function loggedPixCreate(t: BillingTenant, customer: string, key: string) {
  const res = await (await buildApp()).request(
    `${BASE}/api/v1/payments`,
    {
      method: "POST",
      headers: {
        Authorization: `Bearer ${t.key}`,
        "Content-Type": "application/json",
        "Idempotency-Key": key,
        "X-D1-Query-Count": "1",
        "X-D1-Query-Log": "1",
      },
      body: JSON.stringify({ customer, billingType: "PIX", value: "129.90", dueDate: dueDate() }),
    },
    { ...env, D1_QUERY_COUNTING: "1" },
  );
  const statements = JSON.parse(decodeURIComponent(res.headers.get("X-D1-Statements") ?? "%5B%5D")) as string[];
  return { res, body: (await res.json()) as Reply<Payment>, statements };
}
