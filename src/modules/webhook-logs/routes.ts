// Webhook logs (control plane, surface internal): deliveries, their attempts, and redelivery.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import { DELIVERY_STATUSES } from "../../db/schema";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, dataResponse, errorResponses, listResponse, routeGroup } from "../../http/openapi";
import { PaginationQuery, pagination } from "../../http/pagination";
import { AttemptResult } from "../webhook-endpoints/schemas";
import { getDelivery, listDeliveries, redeliver } from "./service";
import { Instant } from "../../http/dates";

const common = routeGroup("webhook-logs", "internal");

export const WebhookDelivery = z
  .object({
    id: z.uuid().openapi({ description: "The delivery id, sent as X-Service-Delivery." }),
    object: z.literal("webhook_delivery"),
    endpointId: z.uuid(),
    eventId: z.uuid(),
    eventType: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attemptCount: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastErrorKind: z.enum(["timeout", "network", "http_status", "redirect", "url_policy"]).nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("WebhookDelivery");

export const WebhookDeliveryDetail = WebhookDelivery.extend({
  payload: z.record(z.string(), z.unknown()).nullable().openapi({ description: "The envelope POSTed to the endpoint." }),
  attempts: z.array(AttemptResult),
}).openapi("WebhookDeliveryDetail");

const LogQuery = PaginationQuery.extend({
  endpointId: z
    .uuid()
    .optional()
    .openapi({ param: { name: "endpointId", in: "query" } }),
  eventType: z
    .string()
    .max(100)
    .optional()
    .openapi({ param: { name: "eventType", in: "query" }, example: "payment.received" }),
  status: z
    .enum(DELIVERY_STATUSES)
    .optional()
    .openapi({ param: { name: "status", in: "query" } }),
  from: Instant.optional().openapi({ param: { name: "from", in: "query" }, description: "ISO 8601; deliveries created at or after." }),
  to: Instant.optional().openapi({ param: { name: "to", in: "query" }, description: "ISO 8601; deliveries created at or before." }),
});
const DeliveryIdParam = z.object({ deliveryId: z.uuid().openapi({ param: { name: "deliveryId", in: "path" } }) });

const READ = guard("webhook_endpoints.read", { allowSession: true });

export function registerWebhookLogRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/webhook-logs",
      operationId: "webhook-logs-list",
      summary: "List webhook deliveries, newest first",
      ...READ,
      request: { query: LogQuery },
      responses: { 200: listResponse("A page of deliveries.", WebhookDelivery), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const { limit, offset, ...filters } = c.req.valid("query");
      const { rows, totalCount } = await listDeliveries(c.get("deps"), c.get("principal"), filters, { limit, offset });
      return okList(c, rows, pagination({ limit, offset }, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/webhook-logs/{deliveryId}",
      operationId: "webhook-logs-get",
      summary: "Get a delivery with its payload and every attempt",
      ...READ,
      request: { params: DeliveryIdParam },
      responses: { 200: dataResponse("The delivery.", WebhookDeliveryDetail), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getDelivery(c.get("deps"), c.get("principal"), c.req.valid("param").deliveryId), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/webhook-logs/{deliveryId}/redeliver",
      operationId: "webhook-logs-redeliver",
      summary: "Attempt a delivery again now (same delivery id; outside the retry schedule and failure streak)",
      ...guard("webhook_endpoints.manage", { allowSession: true }),
      request: { params: DeliveryIdParam },
      responses: { 200: dataResponse("The attempt's result.", AttemptResult), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await redeliver(c.get("deps"), c.get("principal"), c.req.valid("param").deliveryId), 200),
  );
}
