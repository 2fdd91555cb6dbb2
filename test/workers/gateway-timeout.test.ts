// An upstream call past its timeout: the caller stops waiting (504 UPSTREAM_TIMEOUT in the error envelope), but the
// call itself is never cut off. It is handed to waitUntil and finishes at the upstream (a create made there is made
// once, for the sync sweeper to link), and the call log has exactly one row for it, written at the timeout.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { backgroundDeps } from "../../src/deps";
import { callUpstream } from "../../src/gateway/client";
import { flushGatewayCalls } from "../../src/gateway/call-log";
import { ApiError } from "../../src/http/errors";
import { newId } from "../../src/lib/ids";
import { addFault, seedGatewayAccount, simKey, upstream, waitForLogs } from "./gateway-support";
import { BASE, type ErrorBody, seedTenant } from "./support";

/** Longer than the call log's batch delay (200 ms), so only the late call itself can keep a waitUntil open this long. */
const LATE_MS = 400;

async function connectedTenant() {
  const tenant = await seedTenant();
  const upstreamKey = simKey();
  const accountId = await seedGatewayAccount(tenant, upstreamKey);
  return { ...tenant, upstreamKey, accountId };
}

const customersAt = async (key: string) => (await upstream<{ data: { name: string }[] }>(key, "GET", "/v3/customers")).body.data;

describe("an upstream call past its timeout", () => {
  it("fails the caller at the timeout, finishes at the upstream in the background, and is logged once", async () => {
    const t = await connectedTenant();
    await addFault(t.upstreamKey, { method: "POST", pathPrefix: "/v3/customers", fault: "delay", delayMs: LATE_MS });
    const background: Promise<unknown>[] = [];
    const deps = backgroundDeps(env, (p) => background.push(p));
    const credentials = {
      organizationId: t.organizationId,
      workspaceId: t.workspaceId,
      accountId: t.accountId,
      upstreamKey: t.upstreamKey,
    };
    const name = `Late ${newId()}`;

    const err = await callUpstream(deps, credentials, {
      operationId: "criar-novo-cliente",
      method: "POST",
      path: "/v3/customers",
      body: JSON.stringify({ name, cpfCnpj: "24971563792" }),
      contentType: "application/json",
      timeoutMs: 50,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("UPSTREAM_TIMEOUT");
    expect(await customersAt(t.upstreamKey)).toEqual([]); // answered before the upstream had done it

    await Promise.all(background); // the late call, kept running, and the log's flush
    expect((await customersAt(t.upstreamKey)).map((c) => c.name)).toEqual([name]);
    await flushGatewayCalls(deps);
    const logs = await waitForLogs(t, 1);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ operation_id: "criar-novo-cliente", upstream_status: null, error_code: "UPSTREAM_TIMEOUT" });
  });

  it("a passthrough past the timeout is 504 UPSTREAM_TIMEOUT in the envelope, the late call left to the request's waitUntil", async () => {
    const t = await connectedTenant();
    await addFault(t.upstreamKey, { fault: "delay", delayMs: LATE_MS });
    const background: Promise<unknown>[] = [];
    const ctx = { waitUntil: (p: Promise<unknown>) => void background.push(p), passThroughOnException: () => undefined, props: {} };
    const res = await (await buildApp()).request(
      `${BASE}/api/v1/finance/balance`,
      { headers: { Authorization: `Bearer ${t.key}` } },
      { ...env, UPSTREAM_TIMEOUT_MS: "50" },
      ctx as unknown as ExecutionContext,
    );
    expect(res.status).toBe(504);
    const body = (await res.json()) as ErrorBody;
    expect(body.error).toMatchObject({ code: "UPSTREAM_TIMEOUT", details: { timeoutMs: 50 } });
    await Promise.all(background); // the late call and the log's flush
    const logs = await waitForLogs(t, 1);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ operation_id: "recuperar-saldo-da-conta", upstream_status: null, error_code: "UPSTREAM_TIMEOUT" });
  });
});
