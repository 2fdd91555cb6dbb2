// Card tokenization (native row tokenizacao-de-cartao-de-credito).
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import { nativeOperation, permissionOf, successStatusOf } from "../../compat/catalogue-route";
import type { AppEnv } from "../../http/app-env";
import { z } from "@hono/zod-openapi";
import { IdParam } from "../../billing/schemas";
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
import { pagination } from "../../http/pagination";
import {
  PaymentMethod,
  PaymentMethodListQuery,
  TokenizeBody,
  deletePaymentMethod,
  getPaymentMethod,
  listPaymentMethods,
  tokenizeCard,
} from "./service";

const DeletedPaymentMethod = z
  .object({ id: z.uuid(), object: z.literal("payment_method"), deleted: z.literal(true) })
  .openapi("DeletedPaymentMethod");

const TOKENIZE = "tokenizacao-de-cartao-de-credito";
const TOKENIZE_STATUS = successStatusOf(TOKENIZE, 200);

export function registerPaymentMethodRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...nativeOperation(TOKENIZE),
      ...guard(permissionOf(TOKENIZE)),
      description:
        "The card goes straight to the upstream tokenizer; Ponte stores only the token, brand and last 4 digits. Use the returned id as creditCardToken on a payment.",
      request: { body: jsonBody(TokenizeBody) },
      responses: {
        [TOKENIZE_STATUS]: dataResponse("The payment method.", PaymentMethod),
        ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS),
      },
    }),
    async (c) => ok(c, await tokenizeCard(c.get("deps"), c.get("principal"), c.req.valid("json")), TOKENIZE_STATUS),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/api/v1/payment-methods",
      operationId: "payment-methods-list",
      summary: "List saved cards (brand and last 4 digits), newest first",
      ...routeGroup("payment-methods", "internal"),
      ...guard("payment_methods.read", { allowSession: true }),
      request: { query: PaymentMethodListQuery },
      responses: { 200: listResponse("A page of payment methods.", PaymentMethod), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const { limit, offset, customer } = c.req.valid("query");
      const page = { limit, offset };
      const { rows, totalCount } = await listPaymentMethods(c.get("deps"), c.get("principal"), page, customer);
      return okList(c, rows, pagination(page, totalCount));
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/api/v1/payment-methods/{id}",
      operationId: "payment-methods-get",
      summary: "Get a saved card",
      ...routeGroup("payment-methods", "internal"),
      ...guard("payment_methods.read", { allowSession: true }),
      request: { params: IdParam },
      responses: { 200: dataResponse("The payment method.", PaymentMethod), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getPaymentMethod(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/api/v1/payment-methods/{id}",
      operationId: "payment-methods-delete",
      summary: "Delete a saved card: its id and token no longer charge through Ponte",
      ...routeGroup("payment-methods", "internal"),
      ...guard("payment_methods.manage", { allowSession: true }),
      request: { params: IdParam },
      responses: { 200: dataResponse("Deleted.", DeletedPaymentMethod), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await deletePaymentMethod(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );
}
