// Webhook endpoints (control plane, surface internal): CRUD, secret rotation, test ping, enable, recover.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../auth";
import { depsFrom } from "../../deps";
import type { AppEnv } from "../../http/app-env";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, envelopeOf, errorResponses, listEnvelopeOf, ok, okList, routeGroup } from "../../http/envelope";
import { PaginationQuery, pagination } from "../../http/pagination";
import { AttemptResult, CreateWebhookEndpointBody, EndpointIdParam, RecoverBody, RecoverResult, UpdateWebhookEndpointBody, WebhookEndpoint, WebhookEndpointWithSecret } from "./schemas";
import { createEndpoint, deleteEndpoint, enableEndpoint, getEndpoint, listEndpoints, recoverDeliveries, rotateSecret, sendTestPing, updateEndpoint } from "./service";

const common = routeGroup("webhook-endpoints", "internal");
const READ = guard("webhook_endpoints.read", { allowSession: true });
const MANAGE = guard("webhook_endpoints.manage", { allowSession: true });
const json = <T extends z.ZodType>(schema: T) => ({ "application/json": { schema } });
const DeletedEndpoint = z.object({ id: z.uuid(), object: z.literal("webhook_endpoint"), deleted: z.literal(true) }).openapi("DeletedWebhookEndpoint");

const create = createRoute({
  ...common, method: "post", path: "/api/v1/webhook-endpoints", operationId: "webhook-endpoints-create",
  summary: "Register a webhook endpoint (the signing secret is returned once)", ...MANAGE,
  request: { body: { required: true, content: json(CreateWebhookEndpointBody) } },
  responses: { 201: { description: "Created; `secret` is shown only here.", content: json(envelopeOf(WebhookEndpointWithSecret)) }, ...errorResponses(...WRITE_ERRORS) },
});
const list = createRoute({
  ...common, method: "get", path: "/api/v1/webhook-endpoints", operationId: "webhook-endpoints-list",
  summary: "List the workspace's webhook endpoints", ...READ, request: { query: PaginationQuery },
  responses: { 200: { description: "A page of endpoints.", content: json(listEnvelopeOf(WebhookEndpoint)) }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const get = createRoute({
  ...common, method: "get", path: "/api/v1/webhook-endpoints/{id}", operationId: "webhook-endpoints-get",
  summary: "Get a webhook endpoint", ...READ, request: { params: EndpointIdParam },
  responses: { 200: { description: "The endpoint.", content: json(envelopeOf(WebhookEndpoint)) }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const update = createRoute({
  ...common, method: "patch", path: "/api/v1/webhook-endpoints/{id}", operationId: "webhook-endpoints-update",
  summary: "Change url, description, event kinds or enabled", ...MANAGE,
  request: { params: EndpointIdParam, body: { required: true, content: json(UpdateWebhookEndpointBody) } },
  responses: { 200: { description: "The endpoint.", content: json(envelopeOf(WebhookEndpoint)) }, ...errorResponses(...WRITE_ERRORS) },
});
const remove = createRoute({
  ...common, method: "delete", path: "/api/v1/webhook-endpoints/{id}", operationId: "webhook-endpoints-delete",
  summary: "Delete a webhook endpoint (its open deliveries fail; its log stays)", ...MANAGE, request: { params: EndpointIdParam },
  responses: { 200: { description: "Deleted.", content: json(envelopeOf(DeletedEndpoint)) }, ...errorResponses(...WRITE_ERRORS) },
});
const rotate = createRoute({
  ...common, method: "post", path: "/api/v1/webhook-endpoints/{id}/rotate-secret", operationId: "webhook-endpoints-rotate-secret",
  summary: "Rotate the signing secret (new one shown once; the old one also signs for 24 h)", ...MANAGE, request: { params: EndpointIdParam },
  responses: { 200: { description: "The endpoint with its new secret.", content: json(envelopeOf(WebhookEndpointWithSecret)) }, ...errorResponses(...WRITE_ERRORS) },
});
const test = createRoute({
  ...common, method: "post", path: "/api/v1/webhook-endpoints/{id}/test", operationId: "webhook-endpoints-test",
  summary: "Send a `ping` event now (one attempt, logged) and return its result", ...MANAGE, request: { params: EndpointIdParam },
  responses: { 200: { description: "The attempt's result.", content: json(envelopeOf(AttemptResult)) }, ...errorResponses(...WRITE_ERRORS) },
});
const enable = createRoute({
  ...common, method: "post", path: "/api/v1/webhook-endpoints/{id}/enable", operationId: "webhook-endpoints-enable",
  summary: "Re-enable an endpoint and reset its failure streak", ...MANAGE, request: { params: EndpointIdParam },
  responses: { 200: { description: "The endpoint.", content: json(envelopeOf(WebhookEndpoint)) }, ...errorResponses(...WRITE_ERRORS) },
});
const recover = createRoute({
  ...common, method: "post", path: "/api/v1/webhook-endpoints/{id}/recover", operationId: "webhook-endpoints-recover",
  summary: "Re-queue every failed delivery of this endpoint created since `since`", ...MANAGE,
  request: { params: EndpointIdParam, body: { required: true, content: json(RecoverBody) } },
  responses: { 200: { description: "How many deliveries were re-queued.", content: json(envelopeOf(RecoverResult)) }, ...errorResponses(...WRITE_ERRORS) },
});

export function registerWebhookEndpointRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(create, async (c) => ok(c, await createEndpoint(depsFrom(c), c.get("principal"), c.req.valid("json")), 201));
  app.openapi(list, async (c) => {
    const page = c.req.valid("query");
    const { rows, totalCount } = await listEndpoints(depsFrom(c), c.get("principal"), page);
    return okList(c, rows, pagination(page, totalCount));
  });
  app.openapi(get, async (c) => ok(c, await getEndpoint(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
  app.openapi(update, async (c) => ok(c, await updateEndpoint(depsFrom(c), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200));
  app.openapi(remove, async (c) => ok(c, await deleteEndpoint(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
  app.openapi(rotate, async (c) => ok(c, await rotateSecret(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
  app.openapi(test, async (c) => ok(c, await sendTestPing(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
  app.openapi(enable, async (c) => ok(c, await enableEndpoint(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
  app.openapi(recover, async (c) => ok(c, await recoverDeliveries(depsFrom(c), c.get("principal"), c.req.valid("param").id, c.req.valid("json").since), 200));
}
