// POST /api/v1/webhooks/upstream/{gatewayAccountId}: the upstream's notifications (no bearer key;
// the account's token in `asaas-access-token`). Answers 200 as soon as the delivery is applied.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { depsFrom } from "../../deps";
import type { AppEnv } from "../../http/app-env";
import { envelopeOf, errorResponses, ok, routeGroup } from "../../http/envelope";
import { authenticateUpstream, parseEnvelope, receiveUpstreamWebhook, UPSTREAM_TOKEN_HEADER } from "./service";

type Account = Awaited<ReturnType<typeof authenticateUpstream>>;
const accounts = new WeakMap<Request, Account>();

// Runs before body validation, so a caller without the token learns nothing but 401.
const authenticateAccount: MiddlewareHandler<AppEnv> = async (c, next) => {
  const gatewayAccountId = c.req.path.split("/").pop() ?? "";
  accounts.set(c.req.raw, await authenticateUpstream(depsFrom(c), decodeURIComponent(gatewayAccountId), c.req.header(UPSTREAM_TOKEN_HEADER)));
  await next();
};

const receive = createRoute({
  ...routeGroup("webhooks", "internal"),
  method: "post",
  path: "/api/v1/webhooks/upstream/{gatewayAccountId}",
  operationId: "webhooks-upstream-receive",
  summary: "Inbound webhook from the upstream provider",
  description: `Authenticated by the gateway account's webhook token in \`${UPSTREAM_TOKEN_HEADER}\` (401 when missing or wrong). Deduplicated by the upstream event id; a repeat answers 200 with duplicate: true and has no effect.`,
  security: [],
  middleware: [authenticateAccount] as const,
  request: {
    params: z.object({ gatewayAccountId: z.string().openapi({ param: { name: "gatewayAccountId", in: "path" } }) }),
    body: { required: true, content: { "application/json": { schema: z.object({ id: z.string(), event: z.string() }).loose().openapi("UpstreamWebhook") } } },
  },
  responses: {
    200: { description: "Received.", content: { "application/json": { schema: envelopeOf(z.object({ received: z.literal(true), duplicate: z.boolean() })) } } },
    ...errorResponses(400, 401, 413, 415, 500),
  },
});

export function registerUpstreamWebhookRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(receive, async (c) => {
    const deps = depsFrom(c);
    const account = accounts.get(c.req.raw);
    if (!account) throw new Error("upstream webhook reached the handler unauthenticated");
    const { duplicate } = await receiveUpstreamWebhook(deps, account, parseEnvelope(c.req.valid("json")));
    return ok(c, { received: true as const, duplicate }, 200);
  });
}
