// Card tokenization (native row tokenizacao-de-cartao-de-credito).
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../auth";
import { nativeOperation, permissionOf, successStatusOf } from "../../billing/native-route";
import { depsFrom } from "../../deps";
import type { AppEnv } from "../../http/app-env";
import { WRITE_ERRORS, envelopeOf, errorResponses, ok } from "../../http/envelope";
import { PaymentMethod, TokenizeBody, tokenizeCard } from "./service";

const TOKENIZE = "tokenizacao-de-cartao-de-credito";
const TOKENIZE_STATUS = successStatusOf(TOKENIZE, 200);

const tokenize = createRoute({
  ...nativeOperation(TOKENIZE),
  ...guard(permissionOf(TOKENIZE)),
  description: "The card goes straight to the upstream tokenizer; Ponte stores only the token, brand and last 4 digits. Use the returned id as creditCardToken on a charge.",
  request: { body: { required: true, content: { "application/json": { schema: TokenizeBody } } } },
  responses: { [TOKENIZE_STATUS]: { description: "The payment method.", content: { "application/json": { schema: envelopeOf(PaymentMethod) } } }, ...errorResponses(...WRITE_ERRORS, 502, 504) },
});

export function registerPaymentMethodRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(tokenize, async (c) => ok(c, await tokenizeCard(depsFrom(c), c.get("principal"), c.req.valid("json")), TOKENIZE_STATUS));
}
