// Gateway test support: gateway accounts seeded straight into D1, and the simulator's control API.
import { env } from "cloudflare:test";
import { orgLogs } from "../../src/db/org-logs/stub";
import { GATEWAY_CALLS, type GatewayCallRecord } from "../../src/db/org-logs/tables";
import type { Tenant } from "../../src/lib/tenant";
import { createDb } from "../../src/db/client";
import { gatewayAccounts } from "../../src/db/schema";
import { sealSecret, sha256Hex } from "../../src/lib/secret-box";
import { newId } from "../../src/lib/ids";

/** A fresh simulated upstream account: the simulator keys its state by access token. */
export const simKey = () => `$aact_hmlg_${crypto.randomUUID().replace(/-/g, "")}`;

/** An active gateway account inserted straight into D1; `webhookToken` is what the inbound route will accept. */
export async function seedGatewayAccount(
  tenant: { organizationId: string; workspaceId: string },
  upstreamKey: string,
  environment: "live" | "test" = "test",
  webhookToken = "token",
) {
  const id = newId();
  const now = new Date().toISOString();
  await createDb(env.DB)
    .insert(gatewayAccounts)
    .values({
      id,
      organizationId: tenant.organizationId,
      workspaceId: tenant.workspaceId,
      environment,
      upstreamKeySealed: await sealSecret(env, upstreamKey, id),
      upstreamKeyLast4: upstreamKey.slice(-4),
      webhookTokenHash: await sha256Hex(webhookToken),
      status: "active",
      verifiedAt: now,
      createdAt: now,
      updatedAt: now,
    });
  return id;
}

export interface SimRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
}

/** The simulator's base URL through the TEST_SIM binding, bound in every worker project (the host is never dialled). */
export const SIM = "https://upstream-sim.internal";

/** One call to the simulator: as the upstream when `token` is given (access_token), else its control API. */
export async function simFetch<T = unknown>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.access_token = options.token;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await env.TEST_SIM.fetch(`${SIM}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** The control API; anything but 2xx fails the test. */
async function sim<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await simFetch<T>(method, path, { body });
  if (res.status >= 300) throw new Error(`sim control ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const q = (token: string) => `token=${encodeURIComponent(token)}`;
export const simRequests = async (token: string): Promise<SimRequest[]> =>
  (await sim<{ data: SimRequest[] }>("GET", `/__sim/requests?${q(token)}`)).data;
export const clearSimRequests = (token: string) => sim("DELETE", `/__sim/requests?${q(token)}`);
export const addFault = (token: string, fault: Record<string, unknown>) => sim("POST", "/__sim/faults", { token, ...fault });
export const clearFaults = (token: string) => sim("DELETE", `/__sim/faults?${q(token)}`);

/** Calls the simulator as the upstream itself, e.g. to list webhook configs. */
export const upstream = <T = unknown>(token: string, method: string, path: string, body?: unknown) =>
  simFetch<T>(method, path, { token, body });

/** An upstream list page, as the simulator (and Asaas) answer it. */
export interface UpstreamList<T> {
  object: "list";
  hasMore: boolean;
  totalCount: number;
  data: T[];
}
/** The upstream's webhook configuration (`/v3/webhooks`), the fields tests read. */
export interface UpstreamWebhookConfig {
  id: string;
  url: string;
  authToken: string | null;
  enabled: boolean;
  events: string[];
}

/**
 * The gateway log is written after the response (waitUntil) into the organization's log store: poll
 * briefly until `n` rows of the workspace exist; returns them oldest first, keyed by the store's columns.
 */
export async function waitForLogs(tenant: Tenant, n: number): Promise<Record<string, unknown>[]> {
  for (let i = 0; i < 50; i++) {
    const { rows } = await orgLogs(env, tenant.organizationId).gatewayCalls(
      [{ field: "workspaceId", op: "=", value: tenant.workspaceId }],
      {
        limit: 100,
        offset: 0,
      },
    );
    if (rows.length >= n) {
      const columns = Object.entries(GATEWAY_CALLS.columns) as [keyof GatewayCallRecord, string][];
      return rows.reverse().map((row) => Object.fromEntries(columns.map(([field, column]) => [column, row[field]])));
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`expected ${n} gateway log rows for workspace ${tenant.workspaceId}`);
}
