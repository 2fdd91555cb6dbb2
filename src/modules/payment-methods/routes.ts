// Card tokenization (native row tokenizacao-de-cartao-de-credito).
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import { nativeOperation, permissionOf, successStatusOf } from "../../compat/catalogue-route";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { UPSTREAM_ERRORS, WRITE_ERRORS, dataResponse, errorResponses, jsonBody } from "../../http/openapi";
import { PaymentMethod, TokenizeBody, tokenizeCard } from "./service";

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
    async (c) => ok(c, await tokenizeCard(c.var.deps, c.var.principal, c.req.valid("json")), TOKENIZE_STATUS),
  );
}
