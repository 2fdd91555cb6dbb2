// OpenAPI-only registrations: an operation variant documented at its own path (e.g. the card
// variant of POST /payments at /payments/) but served by another route.
import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { AppEnv } from "./app-env";

export function documentVariant(app: OpenAPIHono<AppEnv>, route: RouteConfig) {
  // Route middleware is runtime wiring, not part of the OpenAPI operation object.
  const { middleware: _middleware, ...operation } = route;
  app.openAPIRegistry.registerPath(operation);
}
