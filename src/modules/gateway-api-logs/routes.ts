// Gateway API logs (control plane, surface internal): every upstream call, newest first.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../auth";
import { depsFrom } from "../../deps";
import type { AppEnv } from "../../http/app-env";
import { AUTHENTICATED_ERRORS, envelopeOf, errorResponses, listEnvelopeOf, ok, okList, routeGroup } from "../../http/envelope";
import { PaginationQuery, pagination } from "../../http/pagination";
import { getGatewayApiLog, listGatewayApiLogs } from "./service";

const GatewayApiLog = z
  .object({
    id: z.uuid(),
    object: z.literal("gateway_api_log"),
    gatewayAccountId: z.uuid(),
    operationId: z.string().openapi({ description: "The catalogue operationId, or `native:<flow>` for Ponte's own upstream calls." }),
    method: z.string(),
    surfacePath: z.string().nullable().openapi({ description: "The path called on Ponte, ids as sent (no query string)." }),
    upstreamPath: z.string().openapi({ description: "The upstream path called, ids translated (no query string)." }),
    upstreamStatus: z.number().int().nullable().openapi({ description: "Null when no answer came (network failure or timeout)." }),
    latencyMs: z.number().int(),
    errorCode: z.string().nullable(),
    requestId: z.string(),
    createdAt: z.string(),
  })
  .openapi("GatewayApiLog");

const isoTime = z.iso.datetime({ offset: true });
const LogQuery = PaginationQuery.extend({
  operationId: z.string().max(200).optional().openapi({ param: { name: "operationId", in: "query" } }),
  status: z.coerce.number().int().min(100).max(599).optional().openapi({ param: { name: "status", in: "query" }, description: "The upstream's HTTP status." }),
  from: isoTime.optional().openapi({ param: { name: "from", in: "query" }, description: "ISO 8601; calls at or after." }),
  to: isoTime.optional().openapi({ param: { name: "to", in: "query" }, description: "ISO 8601; calls at or before." }),
});

const common = routeGroup("gateway-api-logs", "internal");

const list = createRoute({
  ...common,
  method: "get",
  path: "/api/v1/gateway-api-logs",
  operationId: "gateway-api-logs-list",
  summary: "List upstream calls made for this workspace",
  ...guard("gateway_accounts.read", { allowSession: true }),
  request: { query: LogQuery },
  responses: { 200: { description: "A page of calls, newest first.", content: { "application/json": { schema: listEnvelopeOf(GatewayApiLog) } } }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});

const get = createRoute({
  ...common,
  method: "get",
  path: "/api/v1/gateway-api-logs/{id}",
  operationId: "gateway-api-logs-get",
  summary: "Get one upstream call",
  ...guard("gateway_accounts.read", { allowSession: true }),
  request: { params: z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) }) },
  responses: { 200: { description: "The call.", content: { "application/json": { schema: envelopeOf(GatewayApiLog) } } }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});

export function registerGatewayApiLogRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(list, async (c) => {
    const { limit, offset, ...filters } = c.req.valid("query");
    const norm = (t?: string) => (t ? new Date(t).toISOString() : undefined);
    const { rows, totalCount } = await listGatewayApiLogs(depsFrom(c), c.get("principal"), { ...filters, from: norm(filters.from), to: norm(filters.to) }, { limit, offset });
    return okList(c, rows, pagination({ limit, offset }, totalCount));
  });
  app.openapi(get, async (c) => ok(c, await getGatewayApiLog(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
}
