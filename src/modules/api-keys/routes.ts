// API keys (control plane, surface internal): create, list, get, revoke, rotate. Each operation:
// its route, then its handler.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, dataResponse, errorResponses, jsonBody, listResponse, routeGroup } from "../../http/openapi";
import { PaginationQuery, pagination } from "../../http/pagination";
import { ApiKey, ApiKeyIdParam, ApiKeyWithSecret, CreateApiKeyBody } from "./schemas";
import { createApiKey, getApiKey, listApiKeys, revokeApiKey, rotateApiKey } from "./service";

const common = routeGroup("api-keys", "internal");
const READ = guard("api_keys.read", { allowSession: true });
const MANAGE = guard("api_keys.manage", { allowSession: true });

export function registerApiKeyRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/api-keys",
      operationId: "api-keys-create",
      summary: "Create an API key (the secret is returned once)",
      ...MANAGE,
      request: { body: jsonBody(CreateApiKeyBody) },
      responses: { 201: dataResponse("Created; `secret` is shown only here.", ApiKeyWithSecret), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await createApiKey(c.get("deps"), c.get("principal"), c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/api-keys",
      operationId: "api-keys-list",
      summary: "List API keys (never with secrets)",
      ...READ,
      request: { query: PaginationQuery },
      responses: { 200: listResponse("A page of keys.", ApiKey), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const page = c.req.valid("query");
      const { rows, totalCount } = await listApiKeys(c.get("deps"), c.get("principal"), page);
      return okList(c, rows, pagination(page, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/api-keys/{id}",
      operationId: "api-keys-get",
      summary: "Get an API key",
      ...READ,
      request: { params: ApiKeyIdParam },
      responses: { 200: dataResponse("The key.", ApiKey), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getApiKey(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/api-keys/{id}/revoke",
      operationId: "api-keys-revoke",
      summary: "Revoke an API key (immediately; idempotent)",
      ...MANAGE,
      request: { params: ApiKeyIdParam },
      responses: { 200: dataResponse("The revoked key.", ApiKey), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await revokeApiKey(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/api-keys/{id}/rotate",
      operationId: "api-keys-rotate",
      summary: "Rotate an API key: a new secret (shown once) replaces it, and the old key is revoked",
      ...MANAGE,
      request: { params: ApiKeyIdParam },
      responses: { 201: dataResponse("The new key with its secret.", ApiKeyWithSecret), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await rotateApiKey(c.get("deps"), c.get("principal"), c.req.valid("param").id), 201),
  );
}
