// Gateway API logs (control plane, surface internal): every upstream call, newest first.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, dataResponse, errorResponses, listResponse, routeGroup } from "../../http/openapi";
import { PaginationQuery, pagination } from "../../http/pagination";
import { getGatewayApiLog, listGatewayApiLogs } from "./service";
import { Instant } from "../../http/dates";

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

const LogQuery = PaginationQuery.extend({
  operationId: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: "operationId", in: "query" } }),
  status: z.coerce
    .number()
    .int()
    .min(100)
    .max(599)
    .optional()
    .openapi({ param: { name: "status", in: "query" }, description: "The upstream's HTTP status." }),
  from: Instant.optional().openapi({ param: { name: "from", in: "query" }, description: "ISO 8601; calls at or after." }),
  to: Instant.optional().openapi({ param: { name: "to", in: "query" }, description: "ISO 8601; calls at or before." }),
});

const common = routeGroup("gateway-api-logs", "internal");

const READ = guard("gateway_accounts.read", { allowSession: true });
const norm = (t?: string) => (t ? new Date(t).toISOString() : undefined);

export function registerGatewayApiLogRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/gateway-api-logs",
      operationId: "gateway-api-logs-list",
      summary: "List upstream calls made for this workspace",
      ...READ,
      request: { query: LogQuery },
      responses: { 200: listResponse("A page of calls, newest first.", GatewayApiLog), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const { limit, offset, ...filters } = c.req.valid("query");
      const range = { from: norm(filters.from), to: norm(filters.to) };
      const { rows, totalCount } = await listGatewayApiLogs(c.get("deps"), c.get("principal"), { ...filters, ...range }, { limit, offset });
      return okList(c, rows, pagination({ limit, offset }, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/gateway-api-logs/{id}",
      operationId: "gateway-api-logs-get",
      summary: "Get one upstream call",
      ...READ,
      request: { params: z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) }) },
      responses: { 200: dataResponse("The call.", GatewayApiLog), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getGatewayApiLog(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );
}
