// Subscriptions: the native Assinaturas rows (bearer key or console session, tenant headers) and
// the internal PATCH.
import { documentVariant } from "../../http/openapi";
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../auth";
import { nativeOperation, permissionOf, successStatusOf } from "../../billing/native-route";
import { IdParam, TenantHeaders } from "../../billing/schemas";
import { depsFrom } from "../../deps";
import type { AppEnv } from "../../http/app-env";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, envelopeOf, errorResponses, listEnvelopeOf, ok, okList, routeGroup } from "../../http/envelope";
import { PaginationQuery, pagination } from "../../http/pagination";
import { CardSubscriptionBody, CreateSubscriptionBody, Subscription, SubscriptionListQuery, UpdateSubscriptionBody } from "./schemas";
import { cancelSubscription, createSubscription, getSubscription, listSubscriptions, updateSubscription } from "./service";

const UPSTREAM_ERRORS = [502, 504] as const;
const one = (description: string) => ({ description, content: { "application/json": { schema: envelopeOf(Subscription) } } });
const json = <T>(schema: T) => ({ required: true, content: { "application/json": { schema } } });
const session = { allowSession: true };

const LIST = "listar-assinaturas";
const CREATE = "criar-nova-assinatura";
const CREATE_CARD = "criar-assinatura-com-cartao-de-credito";
const GET = "recuperar-uma-unica-assinatura";
const CANCEL = "remover-assinatura";
const CREATE_STATUS = successStatusOf(CREATE, 201);
const CANCEL_STATUS = successStatusOf(CANCEL, 201);

const createResponses = { [CREATE_STATUS]: one("The subscription (ACTIVE). Its charges arrive through the upstream's webhooks."), ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS) };
const create = createRoute({
  ...nativeOperation(CREATE),
  ...guard(permissionOf(CREATE), session),
  description: "Starts a subscription from an active plan (value, cycle and billing type default to the plan's). An archived plan answers 409 INVALID_STATE.",
  request: { headers: TenantHeaders, body: json(CreateSubscriptionBody) },
  responses: createResponses,
});
const createCard = createRoute({
  ...nativeOperation(CREATE_CARD, { path: "/api/v1/subscriptions/" }),
  ...guard(permissionOf(CREATE_CARD), session),
  description: "Same operation as criar-nova-assinatura, paid by credit card (creditCardToken, or creditCard + creditCardHolderInfo).",
  request: { headers: TenantHeaders, body: json(CardSubscriptionBody) },
  responses: createResponses,
});
const list = createRoute({
  ...nativeOperation(LIST),
  ...guard(permissionOf(LIST), session),
  request: { headers: TenantHeaders, query: PaginationQuery.extend(SubscriptionListQuery.shape) },
  responses: { 200: { description: "A page of subscriptions, newest first.", content: { "application/json": { schema: listEnvelopeOf(Subscription) } } }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const get = createRoute({
  ...nativeOperation(GET),
  ...guard(permissionOf(GET), session),
  request: { headers: TenantHeaders, params: IdParam },
  responses: { 200: one("The subscription."), ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const cancel = createRoute({
  ...nativeOperation(CANCEL),
  ...guard(permissionOf(CANCEL), session),
  description: "Cancels the subscription upstream (no further charges): status CANCELED, event subscription.canceled. Already canceled: 409 INVALID_STATE.",
  request: { headers: TenantHeaders, params: IdParam },
  responses: { [CANCEL_STATUS]: one("The canceled subscription."), ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS) },
});
const update = createRoute({
  ...routeGroup("subscriptions", "internal"),
  "x-implementation": "native",
  method: "patch",
  path: "/api/v1/subscriptions/{id}",
  operationId: "service-subscriptions-update",
  summary: "Update a subscription (value, billing type, next due date, description)",
  ...guard("subscriptions.manage", session),
  request: { headers: TenantHeaders, params: IdParam, body: json(UpdateSubscriptionBody) },
  responses: { 200: one("The updated subscription."), ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS) },
});

export function registerSubscriptionRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(create, async (c) => ok(c, await createSubscription(depsFrom(c), c.get("principal"), c.req.valid("json")), CREATE_STATUS));
  documentVariant(app, createCard);
  app.openapi(list, async (c) => {
    const { limit, offset, ...filters } = c.req.valid("query");
    const page = { limit, offset };
    const { rows, totalCount } = await listSubscriptions(depsFrom(c), c.get("principal"), page, filters);
    return okList(c, rows, pagination(page, totalCount));
  });
  app.openapi(get, async (c) => ok(c, await getSubscription(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
  app.openapi(cancel, async (c) => ok(c, await cancelSubscription(depsFrom(c), c.get("principal"), c.req.valid("param").id), CANCEL_STATUS));
  app.openapi(update, async (c) => ok(c, await updateSubscription(depsFrom(c), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200));
}
