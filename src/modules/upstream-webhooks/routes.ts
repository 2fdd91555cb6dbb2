// POST /api/v1/webhooks/upstream/{gatewayAccountId}: the upstream's notifications (no bearer key;
// the account's token in `asaas-access-token`). Answers 200 as soon as the delivery is applied.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { dataResponse, errorResponses, jsonBody, routeGroup } from "../../http/openapi";
import { authenticateUpstream, receiveUpstreamWebhook, UPSTREAM_TOKEN_HEADER, type UpstreamEnvelope } from "./service";

/** What every upstream notification carries (the rest is read per event by the service). */
const UpstreamWebhookBody = z
  .object({
    id: z.string().min(1).openapi({ description: "The upstream event id: repeats are deduplicated on it." }),
    event: z.string().min(1).openapi({ example: "PAYMENT_RECEIVED" }),
  })
  .loose()
  .openapi("UpstreamWebhook");

type Account = Awaited<ReturnType<typeof authenticateUpstream>>;
const accounts = new WeakMap<Request, Account>();

// Runs before body validation, so a caller without the token learns nothing but 401.
const authenticateAccount: MiddlewareHandler<AppEnv> = async (c, next) => {
  const gatewayAccountId = c.req.path.split("/").pop() ?? "";
  accounts.set(
    c.req.raw,
    await authenticateUpstream(c.get("deps"), decodeURIComponent(gatewayAccountId), c.req.header(UPSTREAM_TOKEN_HEADER)),
  );
  await next();
};

export function registerUpstreamWebhookRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...routeGroup("webhooks", "internal"),
      method: "post",
      path: "/api/v1/webhooks/upstream/{gatewayAccountId}",
      operationId: "webhooks-upstream-receive",
      summary: "Inbound webhook from the upstream provider",
      description: [
        `Authenticated by the gateway account's webhook token in \`${UPSTREAM_TOKEN_HEADER}\` (401 when missing or wrong).`,
        `Deduplicated by the upstream event id;`,
        `a repeat answers 200 with duplicate:`,
        `true and has no effect.`,
      ].join(" "),
      security: [],
      middleware: [authenticateAccount] as const,
      request: {
        params: z.object({ gatewayAccountId: z.string().openapi({ param: { name: "gatewayAccountId", in: "path" } }) }),
        body: jsonBody(UpstreamWebhookBody),
      },
      responses: {
        200: dataResponse("Received.", z.object({ received: z.literal(true), duplicate: z.boolean() })),
        ...errorResponses(400, 401, 413, 415, 500),
      },
    }),
    async (c) => {
      const account = accounts.get(c.req.raw);
      if (!account) throw new Error("upstream webhook reached the handler unauthenticated");
      const { duplicate } = await receiveUpstreamWebhook(c.get("deps"), account, c.req.valid("json") as UpstreamEnvelope);
      return ok(c, { received: true as const, duplicate }, 200);
    },
  );
}
