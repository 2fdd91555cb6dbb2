// The gateway-api-log is written in batches; no row may be lost, whatever the batch size.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids";
import { backgroundDeps } from "../../src/deps";
import { flushGatewayCalls, recordGatewayCall } from "../../src/gateway/call-log";
import { LIMITS } from "../../src/config";

function row(workspaceId: string, i: number) {
  return {
    id: newId(),
    organizationId: newId(),
    workspaceId,
    gatewayAccountId: newId(),
    operationId: "listar-clientes",
    method: "GET",
    surfacePath: `/api/v1/customers?i=${i}`,
    upstreamPath: "/v3/customers",
    upstreamStatus: 200,
    latencyMs: i,
    errorCode: null,
    requestId: `req_${i}`,
    createdAt: new Date().toISOString(),
  };
}

async function countFor(workspaceId: string) {
  return (await env.DB.prepare("SELECT count(*) AS n FROM gateway_api_logs WHERE workspace_id = ?").bind(workspaceId).first<{ n: number }>())?.n ?? 0;
}

describe("gateway call log batching", () => {
  it("writes every pending row in one flush, across several multi-row inserts", async () => {
    const ws = newId();
    const waits: Promise<unknown>[] = [];
    const deps = backgroundDeps(env, (p) => waits.push(p));
    for (let i = 0; i < 20; i++) recordGatewayCall(deps, row(ws, i)); // 20 rows = 3 inserts of ≤ 7
    expect(await countFor(ws)).toBe(0); // nothing written on the request path
    await flushGatewayCalls(deps);
    expect(await countFor(ws)).toBe(20);
    await Promise.all(waits); // the delayed checks find nothing left to write
    expect(await countFor(ws)).toBe(20);
  });

  it("a row left pending is written by its own request's delayed check", async () => {
    const ws = newId();
    const waits: Promise<unknown>[] = [];
    recordGatewayCall(backgroundDeps(env, (p) => waits.push(p)), row(ws, 1));
    await Promise.all(waits);
    expect(await countFor(ws)).toBe(1);
  });

  it("a full buffer is written at once by the request that filled it", async () => {
    const ws = newId();
    const waits: Promise<unknown>[] = [];
    const deps = backgroundDeps(env, (p) => waits.push(p));
    for (let i = 0; i < LIMITS.gatewayLogBatchRows; i++) recordGatewayCall(deps, row(ws, i));
    await waits[waits.length - 1]; // the flush the last row triggered, not a delayed check
    expect(await countFor(ws)).toBe(LIMITS.gatewayLogBatchRows);
    await Promise.all(waits);
  });
});
