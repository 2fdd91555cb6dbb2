// Gateway test support: gateway accounts seeded straight into D1, and the simulator's control API.
import { env } from "cloudflare:test";
import { sealSecret, sha256Hex } from "../../src/auth/secret-box";
import { newId } from "../../src/db/ids";

/** A fresh simulated upstream account: the simulator keys its state by access token. */
export const simKey = () => `$aact_hmlg_${crypto.randomUUID().replace(/-/g, "")}`;

/** An active gateway account inserted straight into D1; `webhookToken` is what the inbound route will accept. */
export async function seedGatewayAccount(tenant: { organizationId: string; workspaceId: string }, upstreamKey: string, environment: "live" | "test" = "test", webhookToken = "token") {
  const id = newId();
  const now = new Date().toISOString();
  await env.DB.prepare(
    `INSERT INTO gateway_accounts (id, organization_id, workspace_id, environment, upstream_key_sealed, upstream_key_last4, webhook_token_hash, status, verified_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?)`,
  )
    .bind(id, tenant.organizationId, tenant.workspaceId, environment, await sealSecret(env.SECRETS_ENCRYPTION_KEY, upstreamKey, id), upstreamKey.slice(-4), await sha256Hex(webhookToken), now, now, now)
    .run();
  return id;
}

export interface SimRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
}

async function sim(method: string, path: string, body?: unknown): Promise<any> {
  const res = await env.UPSTREAM!.fetch(`https://upstream-sim.internal${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } }),
  });
  if (!res.ok) throw new Error(`sim control ${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const q = (token: string) => `token=${encodeURIComponent(token)}`;
export const simRequests = async (token: string): Promise<SimRequest[]> => (await sim("GET", `/__sim/requests?${q(token)}`)).data;
export const clearSimRequests = (token: string) => sim("DELETE", `/__sim/requests?${q(token)}`);
export const addFault = (token: string, fault: Record<string, unknown>) => sim("POST", "/__sim/faults", { token, ...fault });
export const clearFaults = (token: string) => sim("DELETE", `/__sim/faults?${q(token)}`);
export const simWebhooks = async (token: string) => (await sim("GET", `/__sim/webhooks?${q(token)}`)).data;

/** Calls the simulator as the upstream itself, e.g. to list webhook configs. */
export async function upstream(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { access_token: token };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await env.UPSTREAM!.fetch(`https://upstream-sim.internal${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: await res.json() };
}

/** The gateway log is written after the response (waitUntil): poll briefly until `n` rows exist. */
export async function waitForLogs(workspaceId: string, n: number): Promise<any[]> {
  for (let i = 0; i < 50; i++) {
    const { results } = await env.DB.prepare("SELECT * FROM gateway_api_logs WHERE workspace_id = ? ORDER BY created_at, id").bind(workspaceId).all();
    if (results.length >= n) return results;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`expected ${n} gateway log rows for workspace ${workspaceId}`);
}
