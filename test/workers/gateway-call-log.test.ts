// The gateway-api-log is written in batches into the organizations' log stores; no row may be lost,
// whatever the batch size, and each organization's rows reach its own store only.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newId } from "../../src/lib/ids";
import { orgLogs } from "../../src/db/org-logs/stub";
import { backgroundDeps } from "../../src/deps";
import { flushGatewayCalls, recordGatewayCall } from "../../src/gateway/call-log";
import { LIMITS } from "../../src/config";

/** The organization of every row these tests write (each test its own workspace). */
const organizationId = newId();

function row(workspaceId: string, i: number, organization = organizationId) {
  return {
    id: newId(),
    organizationId: organization,
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

async function countFor(workspaceId: string, organization = organizationId) {
  const page = await orgLogs(env, organization).gatewayCalls([{ field: "workspaceId", op: "=", value: workspaceId }], {
    limit: 1,
    offset: 0,
  });
  return page.totalCount;
}

describe("gateway call log batching", () => {
  afterEach(() => vi.useRealTimers());

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

  it("rows left pending are written by one delayed flush, scheduled by the first of them", async () => {
    const ws = newId();
    const waits: Promise<unknown>[] = [];
    for (let i = 0; i < 5; i++)
      recordGatewayCall(
        backgroundDeps(env, (p) => waits.push(p)),
        row(ws, i),
      ); // five requests
    expect(waits).toHaveLength(1); // one timer for the batch, not one per row
    await Promise.all(waits);
    expect(await countFor(ws)).toBe(5);
  });

  it("a delayed flush that never ran (its context ended) is replaced, so rows are not stranded", async () => {
    const ws = newId();
    const stranded: Promise<unknown>[] = [];
    vi.useFakeTimers({ toFake: ["Date"] });
    recordGatewayCall(
      backgroundDeps(env, (p) => stranded.push(p)),
      row(ws, 1),
    );
    vi.setSystemTime(Date.now() + LIMITS.gatewayLogBatchDelayMs + LIMITS.gatewayLogStaleFlushMs + 1);
    const waits: Promise<unknown>[] = [];
    recordGatewayCall(
      backgroundDeps(env, (p) => waits.push(p)),
      row(ws, 2),
    );
    expect(waits).toHaveLength(1); // the second request schedules its own flush
    vi.useRealTimers();
    await Promise.all([...waits, ...stranded]);
    expect(await countFor(ws)).toBe(2);
  });

  it("a full buffer is written at once by the request that filled it", async () => {
    const ws = newId();
    const waits: Promise<unknown>[] = [];
    const deps = backgroundDeps(env, (p) => waits.push(p));
    // Frozen timers: the delayed flush the first row schedules cannot fire, so only an immediate flush can write.
    vi.useFakeTimers();
    try {
      for (let i = 0; i < LIMITS.gatewayLogBatchRows - 1; i++) recordGatewayCall(deps, row(ws, i));
      const before = waits.length;
      recordGatewayCall(deps, row(ws, LIMITS.gatewayLogBatchRows - 1));
      expect(waits.length, "the row that fills the buffer starts a flush").toBe(before + 1);
      await waits[waits.length - 1];
      expect(await countFor(ws)).toBe(LIMITS.gatewayLogBatchRows);
    } finally {
      vi.runOnlyPendingTimers(); // release the delayed flush (it finds nothing left to write)
      vi.useRealTimers();
    }
    await Promise.all(waits);
    expect(await countFor(ws)).toBe(LIMITS.gatewayLogBatchRows);
  });

  it("one flush sends each organization's rows to its own store, once", async () => {
    const ws = newId();
    const other = newId();
    const deps = backgroundDeps(env);
    for (let i = 0; i < 3; i++) recordGatewayCall(deps, row(ws, i));
    for (let i = 0; i < 2; i++) recordGatewayCall(deps, row(ws, i, other));
    await flushGatewayCalls(deps);
    expect(await countFor(ws)).toBe(3);
    expect(await countFor(ws, other)).toBe(2);
  });
});
