// Gateway accounts (control plane, surface internal): the workspace's upstream credential.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { guard } from "../../auth";
import { depsFrom } from "../../deps";
import type { AppEnv } from "../../http/app-env";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, envelopeOf, errorResponses, listEnvelopeOf, ok, okList, routeGroup } from "../../http/envelope";
import { PaginationQuery, pagination } from "../../http/pagination";
import { CreateGatewayAccountBody, DeletedGatewayAccount, GatewayAccount, GatewayAccountIdParam, GatewayAccountWithToken, UpdateGatewayAccountBody } from "./schemas";
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
const UPSTREAM_ERRORS = [502, 504] as const;
const json = <T>(schema: T) => ({ "application/json": { schema } });

const create = createRoute({
  ...common,
  method: "post",
  path: "/api/v1/gateway-accounts",
  operationId: "gateway-accounts-create",
  summary: "Connect the workspace's upstream account (the inbound webhook token is returned once)",
  ...guard("gateway_accounts.manage", { allowSession: true }),
  request: { body: { required: true, content: json(CreateGatewayAccountBody) } },
  responses: { 201: { description: "Created, status unverified; `inboundWebhookToken` is shown only here.", content: json(envelopeOf(GatewayAccountWithToken)) }, ...errorResponses(...WRITE_ERRORS) },
});

const list = createRoute({
  ...common,
  method: "get",
  path: "/api/v1/gateway-accounts",
  operationId: "gateway-accounts-list",
  summary: "List the workspace's gateway accounts",
  ...guard("gateway_accounts.read", { allowSession: true }),
  request: { query: PaginationQuery },
  responses: { 200: { description: "A page of accounts (never with keys or tokens).", content: json(listEnvelopeOf(GatewayAccount)) }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});

const get = createRoute({
  ...common,
  method: "get",
  path: "/api/v1/gateway-accounts/{id}",
  operationId: "gateway-accounts-get",
  summary: "Get a gateway account",
  ...guard("gateway_accounts.read", { allowSession: true }),
  request: { params: GatewayAccountIdParam },
  responses: { 200: { description: "The account.", content: json(envelopeOf(GatewayAccount)) }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});

const update = createRoute({
  ...common,
  method: "patch",
  path: "/api/v1/gateway-accounts/{id}",
  operationId: "gateway-accounts-update",
  summary: "Replace the upstream API key (the account returns to unverified)",
  ...guard("gateway_accounts.manage", { allowSession: true }),
  request: { params: GatewayAccountIdParam, body: { required: true, content: json(UpdateGatewayAccountBody) } },
  responses: { 200: { description: "The account.", content: json(envelopeOf(GatewayAccount)) }, ...errorResponses(...WRITE_ERRORS) },
});

const verify = createRoute({
  ...common,
  method: "post",
  path: "/api/v1/gateway-accounts/{id}/verify",
  operationId: "gateway-accounts-verify",
  summary: "Check the key with the upstream: active when it answers, invalid_credentials when it refuses the key",
  ...guard("gateway_accounts.manage", { allowSession: true }),
  request: { params: GatewayAccountIdParam },
  responses: { 200: { description: "The account with its new status.", content: json(envelopeOf(GatewayAccount)) }, ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS) },
});

const rotate = createRoute({
  ...common,
  method: "post",
  path: "/api/v1/gateway-accounts/{id}/rotate-webhook-token",
  operationId: "gateway-accounts-rotate-webhook-token",
  summary: "Issue a new inbound webhook token (shown once) and re-point the upstream webhook",
  ...guard("gateway_accounts.manage", { allowSession: true }),
  request: { params: GatewayAccountIdParam },
  responses: { 200: { description: "The account with its new token.", content: json(envelopeOf(GatewayAccountWithToken)) }, ...errorResponses(...WRITE_ERRORS) },
});

const remove = createRoute({
  ...common,
  method: "delete",
  path: "/api/v1/gateway-accounts/{id}",
  operationId: "gateway-accounts-delete",
  summary: "Delete a gateway account (passthrough calls then answer 409 GATEWAY_ACCOUNT_MISSING) and remove its upstream webhook config",
  ...guard("gateway_accounts.manage", { allowSession: true }),
  request: { params: GatewayAccountIdParam },
  responses: { 200: { description: "The deleted account, and whether its upstream webhook config was removed.", content: json(envelopeOf(DeletedGatewayAccount)) }, ...errorResponses(...WRITE_ERRORS) },
});

const origin = (c: Context<AppEnv>) => new URL(c.req.url).origin;

export function registerGatewayAccountRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(create, async (c) => ok(c, await createGatewayAccount(depsFrom(c), c.get("principal"), origin(c), c.req.valid("json")), 201));
  app.openapi(list, async (c) => {
    const page = c.req.valid("query");
    const { rows, totalCount } = await listGatewayAccounts(depsFrom(c), c.get("principal"), origin(c), page);
    return okList(c, rows, pagination(page, totalCount));
  });
  app.openapi(get, async (c) => ok(c, await getGatewayAccount(depsFrom(c), c.get("principal"), origin(c), c.req.valid("param").id), 200));
  app.openapi(update, async (c) =>
    ok(c, await updateGatewayAccount(depsFrom(c), c.get("principal"), origin(c), c.req.valid("param").id, c.req.valid("json")), 200),
  );
  app.openapi(verify, async (c) => ok(c, await verifyGatewayAccount(depsFrom(c), c.get("principal"), origin(c), c.req.valid("param").id), 200));
  app.openapi(rotate, async (c) => ok(c, await rotateWebhookToken(depsFrom(c), c.get("principal"), origin(c), c.req.valid("param").id), 200));
  app.openapi(remove, async (c) => ok(c, await deleteGatewayAccount(depsFrom(c), c.get("principal"), origin(c), c.req.valid("param").id), 200));
}
