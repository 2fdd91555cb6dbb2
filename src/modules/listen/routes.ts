// GET /api/v1/listen: the WebSocket a `npm run listen --transport ws` CLI holds to receive one endpoint's deliveries
// (a deployed worker cannot reach the developer's machine). Handed to the endpoint's ListenDO after the checks.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import { LISTEN_PERMISSION } from "../../events/listen-stub";
import type { AppEnv } from "../../http/app-env";
import { AUTHENTICATED_ERRORS, errorResponses, routeGroup } from "../../http/openapi";
import { attachListen } from "./service";

const ListenQuery = z.object({
  endpointId: z.uuid().openapi({
    description: "A webhook endpoint of this workspace whose url is `ponte-listen://<session id>`.",
    param: { name: "endpointId", in: "query" },
  }),
});

export function registerListenRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...routeGroup("webhook-endpoints", "internal"),
      method: "get",
      path: "/api/v1/listen",
      operationId: "webhook-endpoints-listen",
      summary: "Stream a ponte-listen:// endpoint's deliveries over a WebSocket (npm run listen --transport ws)",
      description:
        'Upgrade to a WebSocket. The server sends `{type:"ready"}`, then `{type:"delivery",id,headers,body}` per attempt ' +
        '(the exact signed delivery); the client answers `{type:"result",id,status}` with its local receiver\'s status, ' +
        "which becomes the attempt's status (no answer within 9.5 s: 504). A newer connection replaces an older one. " +
        "Revoking or rotating the API key that opened the stream closes it (code 4001), and every delivery first " +
        "re-checks that key: once it no longer holds (revoked, permission or workspace gone), the stream closes with 4001.",
      ...guard(LISTEN_PERMISSION),
      request: { query: ListenQuery },
      responses: {
        101: { description: "Switching Protocols: the WebSocket." },
        ...errorResponses(...AUTHENTICATED_ERRORS, 409),
      },
    }),
    async (c) => {
      const upgraded = await attachListen(c.get("deps"), c.get("principal"), c.req.valid("query").endpointId, c.req.raw);
      // A fresh Response so later middleware may add headers (the DO's response headers are immutable).
      return new Response(null, { status: upgraded.status, webSocket: upgraded.webSocket, headers: new Headers(upgraded.headers) });
    },
  );
}
