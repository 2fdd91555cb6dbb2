// The upstream call log of a workspace: one row per call, written by the gateway client.
import { and, eq, gte, lte, type SQL } from "drizzle-orm";
import { type Principal, requirePermission } from "../../access/principal";
import type { Deps } from "../../deps";
import { gatewayApiLogs } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { newestFirstPage } from "../../db/paging";
import { inTenant } from "../../db/tenant-scope";

type GatewayApiLogRow = typeof gatewayApiLogs.$inferSelect;

export function presentGatewayApiLog(row: GatewayApiLogRow) {
  return {
    id: row.id,
    object: "gateway_api_log" as const,
    gatewayAccountId: row.gatewayAccountId,
    operationId: row.operationId,
    method: row.method,
    surfacePath: row.surfacePath,
    upstreamPath: row.upstreamPath,
    upstreamStatus: row.upstreamStatus,
    latencyMs: row.latencyMs,
    errorCode: row.errorCode,
    requestId: row.requestId,
    createdAt: row.createdAt,
  };
}

export interface GatewayApiLogFilters {
  operationId?: string | undefined;
  status?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const scope = (principal: Principal): SQL[] => [inTenant(gatewayApiLogs, principal)];

export async function listGatewayApiLogs(deps: Deps, principal: Principal, filters: GatewayApiLogFilters, page: PageRequest) {
  requirePermission(principal, "gateway_accounts.read");
  const conditions = scope(principal);
  if (filters.operationId) conditions.push(eq(gatewayApiLogs.operationId, filters.operationId));
  if (filters.status !== undefined) conditions.push(eq(gatewayApiLogs.upstreamStatus, filters.status));
  if (filters.from) conditions.push(gte(gatewayApiLogs.createdAt, filters.from));
  if (filters.to) conditions.push(lte(gatewayApiLogs.createdAt, filters.to));
  const where = and(...conditions);
  const { rows, totalCount } = await newestFirstPage(deps.db, gatewayApiLogs, where, page);
  return { rows: rows.map(presentGatewayApiLog), totalCount };
}

export async function getGatewayApiLog(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "gateway_accounts.read");
  const row = await deps.db
    .select()
    .from(gatewayApiLogs)
    .where(and(eq(gatewayApiLogs.id, id), ...scope(principal)))
    .get();
  if (!row) throw notFound("gateway API log", id);
  return presentGatewayApiLog(row);
}
