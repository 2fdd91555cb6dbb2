// Webhook endpoints (control plane, surface internal): CRUD, secret rotation, test ping, enable,
// recover. Each operation: its route, then its handler.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, dataResponse, errorResponses, jsonBody, listResponse, routeGroup } from "../../http/openapi";
import { PaginationQuery, pagination } from "../../http/pagination";
import {
  AttemptResult,
  CreateWebhookEndpointBody,
  EndpointIdParam,
  RecoverBody,
  RecoverResult,
  UpdateWebhookEndpointBody,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from "./schemas";
import {
  createEndpoint,
  deleteEndpoint,
  enableEndpoint,
  getEndpoint,
  listEndpoints,
  recoverDeliveries,
  rotateSecret,
  sendTestPing,
  updateEndpoint,
} from "./service";

const common = routeGroup("webhook-endpoints", "internal");
const READ = guard("webhook_endpoints.read", { allowSession: true });
const MANAGE = guard("webhook_endpoints.manage", { allowSession: true });
const DeletedEndpoint = z
  .object({ id: z.uuid(), object: z.literal("webhook_endpoint"), deleted: z.literal(true) })
  .openapi("DeletedWebhookEndpoint");

export function registerWebhookEndpointRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/webhook-endpoints",
      operationId: "webhook-endpoints-create",
      summary: "Register a webhook endpoint (the signing secret is returned once)",
      ...MANAGE,
      request: { body: jsonBody(CreateWebhookEndpointBody) },
      responses: {
        201: dataResponse("Created; `secret` is shown only here.", WebhookEndpointWithSecret),
        ...errorResponses(...WRITE_ERRORS),
      },
    }),
    async (c) => ok(c, await createEndpoint(c.get("deps"), c.get("principal"), c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/webhook-endpoints",
      operationId: "webhook-endpoints-list",
      summary: "List the workspace's webhook endpoints",
      ...READ,
      request: { query: PaginationQuery },
      responses: { 200: listResponse("A page of endpoints.", WebhookEndpoint), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const page = c.req.valid("query");
      const { rows, totalCount } = await listEndpoints(c.get("deps"), c.get("principal"), page);
      return okList(c, rows, pagination(page, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/webhook-endpoints/{id}",
      operationId: "webhook-endpoints-get",
      summary: "Get a webhook endpoint",
      ...READ,
      request: { params: EndpointIdParam },
      responses: { 200: dataResponse("The endpoint.", WebhookEndpoint), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getEndpoint(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "patch",
      path: "/api/v1/webhook-endpoints/{id}",
      operationId: "webhook-endpoints-update",
      summary: "Change url, description, event kinds or enabled",
      ...MANAGE,
      request: { params: EndpointIdParam, body: jsonBody(UpdateWebhookEndpointBody) },
      responses: { 200: dataResponse("The endpoint.", WebhookEndpoint), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await updateEndpoint(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "delete",
      path: "/api/v1/webhook-endpoints/{id}",
      operationId: "webhook-endpoints-delete",
      summary: "Delete a webhook endpoint (its open deliveries fail; its log stays)",
      ...MANAGE,
      request: { params: EndpointIdParam },
      responses: { 200: dataResponse("Deleted.", DeletedEndpoint), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await deleteEndpoint(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/webhook-endpoints/{id}/rotate-secret",
      operationId: "webhook-endpoints-rotate-secret",
      summary: "Rotate the signing secret (new one shown once; the old one also signs for 24 h)",
      ...MANAGE,
      request: { params: EndpointIdParam },
      responses: { 200: dataResponse("The endpoint with its new secret.", WebhookEndpointWithSecret), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await rotateSecret(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/webhook-endpoints/{id}/test",
      operationId: "webhook-endpoints-test",
      summary: "Send a `ping` event now (one attempt, logged) and return its result",
      ...MANAGE,
      request: { params: EndpointIdParam },
      responses: { 200: dataResponse("The attempt's result.", AttemptResult), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await sendTestPing(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/webhook-endpoints/{id}/enable",
      operationId: "webhook-endpoints-enable",
      summary: "Re-enable an endpoint and reset its failure streak",
      ...MANAGE,
      request: { params: EndpointIdParam },
      responses: { 200: dataResponse("The endpoint.", WebhookEndpoint), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await enableEndpoint(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/webhook-endpoints/{id}/recover",
      operationId: "webhook-endpoints-recover",
      summary: "Re-queue every failed delivery of this endpoint created since `since`",
      ...MANAGE,
      request: { params: EndpointIdParam, body: jsonBody(RecoverBody) },
      responses: { 200: dataResponse("How many deliveries were re-queued.", RecoverResult), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await recoverDeliveries(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json").since), 200),
  );
}
