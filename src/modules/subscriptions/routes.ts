// Subscriptions: the native Assinaturas rows (bearer key or console session, tenant headers) and
// the internal PATCH. Each operation: its route, then its handler.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import { IdParam, TenantHeaders } from "../../billing/schemas";
import { nativeOperation, permissionOf, successStatusOf } from "../../compat/catalogue-route";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import {
  AUTHENTICATED_ERRORS,
  UPSTREAM_ERRORS,
  WRITE_ERRORS,
  dataResponse,
  documentVariant,
  errorResponses,
  jsonBody,
  listResponse,
  routeGroup,
} from "../../http/openapi";
import { pagination } from "../../http/pagination";
import { CardSubscriptionBody, CreateSubscriptionBody, Subscription, SubscriptionListQuery, UpdateSubscriptionBody } from "./schemas";
import { cancelSubscription, createSubscription, getSubscription, listSubscriptions, updateSubscription } from "./service";

const session = { allowSession: true };

const LIST = "listar-assinaturas";
const CREATE = "criar-nova-assinatura";
const CREATE_CARD = "criar-assinatura-com-cartao-de-credito";
const GET = "recuperar-uma-unica-assinatura";
const CANCEL = "remover-assinatura";
const CREATE_STATUS = successStatusOf(CREATE, 201);
const CANCEL_STATUS = successStatusOf(CANCEL, 201);

const createResponses = {
  [CREATE_STATUS]: dataResponse("The subscription (ACTIVE). Its payments arrive through the upstream's webhooks.", Subscription),
  ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS),
};

export function registerSubscriptionRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...nativeOperation(CREATE),
      ...guard(permissionOf(CREATE), session),
      description:
        "Starts a subscription from an active plan (value, cycle and billing type default to the plan's). An archived plan answers 409 INVALID_STATE.",
      request: { headers: TenantHeaders, body: jsonBody(CreateSubscriptionBody) },
      responses: createResponses,
    }),
    async (c) => ok(c, await createSubscription(c.get("deps"), c.get("principal"), c.req.valid("json")), CREATE_STATUS),
  );

  // The card variant shares the method and path: documented at the trailing-slash path, served by the route above.
  documentVariant(
    app,
    createRoute({
      ...nativeOperation(CREATE_CARD),
      ...guard(permissionOf(CREATE_CARD), session),
      description: "Same operation as criar-nova-assinatura, paid by credit card (creditCardToken, or creditCard + creditCardHolderInfo).",
      request: { headers: TenantHeaders, body: jsonBody(CardSubscriptionBody) },
      responses: createResponses,
    }),
  );

  app.openapi(
    createRoute({
      ...nativeOperation(LIST),
      ...guard(permissionOf(LIST), session),
      request: { headers: TenantHeaders, query: SubscriptionListQuery },
      responses: { 200: listResponse("A page of subscriptions, newest first.", Subscription), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const { limit, offset, ...filters } = c.req.valid("query");
      const page = { limit, offset };
      const { rows, totalCount } = await listSubscriptions(c.get("deps"), c.get("principal"), page, filters);
      return okList(c, rows, pagination(page, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...nativeOperation(GET),
      ...guard(permissionOf(GET), session),
      request: { headers: TenantHeaders, params: IdParam },
      responses: { 200: dataResponse("The subscription.", Subscription), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getSubscription(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...nativeOperation(CANCEL),
      ...guard(permissionOf(CANCEL), session),
      description:
        "Cancels the subscription upstream (no further payments): status CANCELED, event subscription.canceled. Already canceled: 409 INVALID_STATE.",
      request: { headers: TenantHeaders, params: IdParam },
      responses: {
        [CANCEL_STATUS]: dataResponse("The canceled subscription.", Subscription),
        ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS),
      },
    }),
    async (c) => ok(c, await cancelSubscription(c.get("deps"), c.get("principal"), c.req.valid("param").id), CANCEL_STATUS),
  );

  app.openapi(
    createRoute({
      ...routeGroup("subscriptions", "internal"),
      "x-implementation": "native",
      method: "patch",
      path: "/api/v1/subscriptions/{id}",
      operationId: "service-subscriptions-update",
      summary: "Update a subscription (value, billing type, next due date, description)",
      ...guard("subscriptions.manage", session),
      request: { headers: TenantHeaders, params: IdParam, body: jsonBody(UpdateSubscriptionBody) },
      responses: { 200: dataResponse("The updated subscription.", Subscription), ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS) },
    }),
    async (c) => ok(c, await updateSubscription(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200),
  );
}
