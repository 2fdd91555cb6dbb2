// The upstream call log of a workspace: one row per call, written by the gateway client into the
// organization's log store (OrgLogDO) and read back from it here.
import { type Principal, requirePermission } from "../../access/principal";
import type { Deps } from "../../deps";
import type { LogCondition } from "../../db/org-logs/store";
import { orgLogs } from "../../db/org-logs/stub";
import type { GatewayCallRecord } from "../../db/org-logs/tables";
import { notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";

export function presentGatewayApiLog(row: GatewayCallRecord) {
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

export async function listGatewayApiLogs(deps: Deps, principal: Principal, filters: GatewayApiLogFilters, page: PageRequest) {
  requirePermission(principal, "gateway_accounts.read");
  const conditions: LogCondition<GatewayCallRecord>[] = [{ field: "workspaceId", op: "=", value: principal.workspaceId }];
  if (filters.operationId) conditions.push({ field: "operationId", op: "=", value: filters.operationId });
  if (filters.status !== undefined) conditions.push({ field: "upstreamStatus", op: "=", value: filters.status });
  if (filters.from) conditions.push({ field: "createdAt", op: ">=", value: filters.from });
  if (filters.to) conditions.push({ field: "createdAt", op: "<=", value: filters.to });
  const { rows, totalCount } = await orgLogs(deps.env, principal.organizationId).gatewayCalls(conditions, {
    limit: page.limit,
    offset: page.offset,
  });
  return { rows: rows.map(presentGatewayApiLog), totalCount };
}

export async function getGatewayApiLog(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "gateway_accounts.read");
  const row = await orgLogs(deps.env, principal.organizationId).gatewayCall(id, principal.workspaceId);
  if (!row) throw notFound("gateway API log", id);
  return presentGatewayApiLog(row);
}
