// Gateway accounts (control plane, surface internal): the workspace's upstream credential. Each
// operation: its route, then its handler.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import {
  AUTHENTICATED_ERRORS,
  UPSTREAM_ERRORS,
  WRITE_ERRORS,
  dataResponse,
  errorResponses,
  jsonBody,
  listResponse,
  routeGroup,
} from "../../http/openapi";
import { PaginationQuery, pagination } from "../../http/pagination";
import {
  CreateGatewayAccountBody,
  DeletedGatewayAccount,
  GatewayAccount,
  GatewayAccountIdParam,
  GatewayAccountWithToken,
  UpdateGatewayAccountBody,
} from "./schemas";
import {
  createGatewayAccount,
  deleteGatewayAccount,
  getGatewayAccount,
  listGatewayAccounts,
  rotateWebhookToken,
  updateGatewayAccount,
  verifyGatewayAccount,
} from "./service";

const common = routeGroup("gateway-accounts", "internal");
const READ = guard("gateway_accounts.read", { allowSession: true });
const MANAGE = guard("gateway_accounts.manage", { allowSession: true });

export function registerGatewayAccountRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/gateway-accounts",
      operationId: "gateway-accounts-create",
      summary: "Connect the workspace's upstream account (the inbound webhook token is returned once)",
      ...MANAGE,
      request: { body: jsonBody(CreateGatewayAccountBody) },
      responses: {
        201: dataResponse("Created, status unverified; `inboundWebhookToken` is shown only here.", GatewayAccountWithToken),
        ...errorResponses(...WRITE_ERRORS),
      },
    }),
    async (c) => ok(c, await createGatewayAccount(c.get("deps"), c.get("principal"), c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/gateway-accounts",
      operationId: "gateway-accounts-list",
      summary: "List the workspace's gateway accounts",
      ...READ,
      request: { query: PaginationQuery },
      responses: {
        200: listResponse("A page of accounts (never with keys or tokens).", GatewayAccount),
        ...errorResponses(...AUTHENTICATED_ERRORS),
      },
    }),
    async (c) => {
      const page = c.req.valid("query");
      const { rows, totalCount } = await listGatewayAccounts(c.get("deps"), c.get("principal"), page);
      return okList(c, rows, pagination(page, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/gateway-accounts/{id}",
      operationId: "gateway-accounts-get",
      summary: "Get a gateway account",
      ...READ,
      request: { params: GatewayAccountIdParam },
      responses: { 200: dataResponse("The account.", GatewayAccount), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getGatewayAccount(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "patch",
      path: "/api/v1/gateway-accounts/{id}",
      operationId: "gateway-accounts-update",
      summary: "Replace the upstream API key (the account returns to unverified)",
      ...MANAGE,
      request: { params: GatewayAccountIdParam, body: jsonBody(UpdateGatewayAccountBody) },
      responses: { 200: dataResponse("The account.", GatewayAccount), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await updateGatewayAccount(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/gateway-accounts/{id}/verify",
      operationId: "gateway-accounts-verify",
      summary: "Check the key with the upstream: active when it answers, invalid_credentials when it refuses the key",
      ...MANAGE,
      request: { params: GatewayAccountIdParam },
      responses: {
        200: dataResponse("The account with its new status.", GatewayAccount),
        ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS),
      },
    }),
    async (c) => ok(c, await verifyGatewayAccount(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/gateway-accounts/{id}/rotate-webhook-token",
      operationId: "gateway-accounts-rotate-webhook-token",
      summary: "Issue a new inbound webhook token (shown once) and re-point the upstream webhook",
      ...MANAGE,
      request: { params: GatewayAccountIdParam },
      responses: { 200: dataResponse("The account with its new token.", GatewayAccountWithToken), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await rotateWebhookToken(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "delete",
      path: "/api/v1/gateway-accounts/{id}",
      operationId: "gateway-accounts-delete",
      summary:
        "Delete a gateway account (passthrough calls then answer 409 GATEWAY_ACCOUNT_MISSING) and remove its upstream webhook config",
      ...MANAGE,
      request: { params: GatewayAccountIdParam },
      responses: {
        200: dataResponse("The deleted account, and whether its upstream webhook config was removed.", DeletedGatewayAccount),
        ...errorResponses(...WRITE_ERRORS),
      },
    }),
    async (c) => ok(c, await deleteGatewayAccount(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );
}
