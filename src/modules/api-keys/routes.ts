// API keys (control plane, surface internal): create, list, get, revoke, rotate.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../auth";
import { depsFrom } from "../../deps";
import type { AppEnv } from "../../http/app-env";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, envelopeOf, errorResponses, listEnvelopeOf, ok, okList , routeGroup } from "../../http/envelope";
import { PaginationQuery, pagination } from "../../http/pagination";
import { ApiKey, ApiKeyIdParam, ApiKeyWithSecret, CreateApiKeyBody } from "./schemas";
import { createApiKey, getApiKey, listApiKeys, revokeApiKey, rotateApiKey } from "./service";

const common = routeGroup("api-keys", "internal");

const create = createRoute({
  ...common,
  method: "post",
  path: "/api/v1/api-keys",
  operationId: "api-keys-create",
  summary: "Create an API key (the secret is returned once)",
  ...guard("api_keys.manage", { allowSession: true }),
  request: { body: { required: true, content: { "application/json": { schema: CreateApiKeyBody } } } },
  responses: {
    201: { description: "Created; `secret` is shown only here.", content: { "application/json": { schema: envelopeOf(ApiKeyWithSecret) } } },
    ...errorResponses(...WRITE_ERRORS),
  },
});

const list = createRoute({
  ...common,
  method: "get",
  path: "/api/v1/api-keys",
  operationId: "api-keys-list",
  summary: "List API keys (never with secrets)",
  ...guard("api_keys.read", { allowSession: true }),
  request: { query: PaginationQuery },
  responses: { 200: { description: "A page of keys.", content: { "application/json": { schema: listEnvelopeOf(ApiKey) } } }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});

const get = createRoute({
  ...common,
  method: "get",
  path: "/api/v1/api-keys/{id}",
  operationId: "api-keys-get",
  summary: "Get an API key",
  ...guard("api_keys.read", { allowSession: true }),
  request: { params: ApiKeyIdParam },
  responses: { 200: { description: "The key.", content: { "application/json": { schema: envelopeOf(ApiKey) } } }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});

const revoke = createRoute({
  ...common,
  method: "post",
  path: "/api/v1/api-keys/{id}/revoke",
  operationId: "api-keys-revoke",
  summary: "Revoke an API key (immediately; idempotent)",
  ...guard("api_keys.manage", { allowSession: true }),
  request: { params: ApiKeyIdParam },
  responses: { 200: { description: "The revoked key.", content: { "application/json": { schema: envelopeOf(ApiKey) } } }, ...errorResponses(...WRITE_ERRORS) },
});

const rotate = createRoute({
  ...common,
  method: "post",
  path: "/api/v1/api-keys/{id}/rotate",
  operationId: "api-keys-rotate",
  summary: "Rotate an API key: a new secret (shown once) replaces it, and the old key is revoked",
  ...guard("api_keys.manage", { allowSession: true }),
  request: { params: ApiKeyIdParam },
  responses: { 201: { description: "The new key with its secret.", content: { "application/json": { schema: envelopeOf(ApiKeyWithSecret) } } }, ...errorResponses(...WRITE_ERRORS) },
});

export function registerApiKeyRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(create, async (c) => {
    const principal = c.get("principal");
    return ok(c, await createApiKey(depsFrom(c), principal, c.req.valid("json")), 201);
  });
  app.openapi(list, async (c) => {
    const principal = c.get("principal");
    const page = c.req.valid("query");
    const { rows, totalCount } = await listApiKeys(depsFrom(c), principal, page);
    return okList(c, rows, pagination(page, totalCount));
  });
  app.openapi(get, async (c) => {
    const principal = c.get("principal");
    return ok(c, await getApiKey(depsFrom(c), principal, c.req.valid("param").id), 200);
  });
  app.openapi(revoke, async (c) => {
    const principal = c.get("principal");
    return ok(c, await revokeApiKey(depsFrom(c), principal, c.req.valid("param").id), 200);
  });
  app.openapi(rotate, async (c) => {
    const principal = c.get("principal");
    return ok(c, await rotateApiKey(depsFrom(c), principal, c.req.valid("param").id), 201);
  });
}
