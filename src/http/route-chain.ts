// How a route registered through the app's `openapi()` is chained: its own middleware (the guard),
// the query-string rule (src/http/query-rule.ts), the validators @hono/zod-openapi adds for the request
// parts it declares, then its handler. Every layer of Hono's chain costs each request an async
// dispatch frame, a `next` closure and a try/catch (bench:js), so a read (GET, which also answers HEAD)
// with no validators whose own middleware are all transparent on reads (below) is registered as one
// handler: the middleware, each handed the next step as its `next`, then the query rule, then the
// handler. Writes keep their layers: the idempotency step needs the handler's errors already turned
// into the error response when its `next` returns, as Hono's layers do. Behaviour is the same as the
// layers': a transparent middleware does nothing after its `next` that an error would skip, so a
// route's error passing through it to Hono's error handler gives the response the handler's own layer
// would have given, and the handler's Response is adopted as Hono adopts it.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppEnv } from "./app-env";
import { declaredQueryNames, queryRule, unknownQueryError, unknownQueryNames } from "./query-rule";

const transparent = new WeakSet<MiddlewareHandler<AppEnv>>();

/**
 * Marks `middleware` transparent on reads: on a GET or HEAD, after its `next` settles it does nothing
 * (no header, no cleanup) and it catches no error its `next` throws. Such middleware may share a layer
 * with a read route's handler.
 */
export function transparentMiddleware(middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  transparent.add(middleware);
  return middleware;
}

type Route = Parameters<OpenAPIHono<AppEnv>["openapi"]>[0];
type RouteHandler = (c: Context<AppEnv>, next: Next) => unknown;

/** Whether @hono/zod-openapi puts validators between the route's middleware and its handler (any request part declared). */
function hasValidators(route: Route): boolean {
  const r = route.request;
  return (
    r !== undefined &&
    (r.query !== undefined || r.params !== undefined || r.headers !== undefined || r.cookies !== undefined || r.body !== undefined)
  );
}

/** The handler's Response becomes the context's, as Hono's compose adopts what a layer returns. */
function adopt(c: Context<AppEnv>, res: unknown): void {
  if (res instanceof Response && !c.finalized) c.res = res;
}

/** `adopt` once the handler's answer settles: no async frame of its own (bench:js). */
function adopted(c: Context<AppEnv>, answer: unknown): Promise<void> {
  return answer instanceof Promise ? answer.then((res) => adopt(c, res)) : Promise.resolve(adopt(c, answer));
}

/** `middleware`, each handed the next as its `next`, then `handler`: one layer of Hono's chain. */
function oneLayer(middleware: MiddlewareHandler<AppEnv>[], handler: RouteHandler): RouteHandler {
  if (middleware.length === 0) return handler;
  const last: RouteHandler = (c, next) => adopted(c, handler(c, next));
  return middleware.reduceRight<RouteHandler>((inner, step) => (c, next) => step(c, () => inner(c, next) as Promise<void>), last);
}

/**
 * The handlers to register for a route outside `openapi()` (`app.on(method, path, ...handlers)`): its
 * middleware and handler as one layer when it is a read whose middleware are all transparent, as they
 * are otherwise. For routes that check their query themselves (the passthrough routes).
 */
export function readInOneLayer(method: string, middleware: MiddlewareHandler<AppEnv>[], handler: RouteHandler): RouteHandler[] {
  return method.toUpperCase() === "GET" && middleware.every((m) => transparent.has(m))
    ? [oneLayer(middleware, handler)]
    : [...middleware, handler];
}

/** Makes every route registered through `app.openapi()` keep the query-string rule, in as few layers of Hono's chain as its shape allows. */
export function chainOpenApiRoutes(app: OpenAPIHono<AppEnv>): void {
  const register = app.openapi.bind(app) as (...args: unknown[]) => unknown;
  const wrapped = (route: Route, handler: RouteHandler, ...rest: unknown[]) => {
    const declared = declaredQueryNames(route.request?.query);
    const own = route.middleware === undefined ? [] : Array.isArray(route.middleware) ? route.middleware : [route.middleware];
    if (route.method !== "get" || hasValidators(route) || !own.every((m) => transparent.has(m))) {
      // Validators run after the rule and before the handler: the rule stays a layer of its own.
      return register({ ...route, middleware: [...own, queryRule(declared)] }, handler, ...rest);
    }
    const checked: RouteHandler = (c, next) => {
      const unknown = unknownQueryNames(c.req.url, declared);
      if (unknown.length > 0) throw unknownQueryError(unknown);
      return handler(c, next);
    };
    return register({ ...route, middleware: undefined }, oneLayer(own, checked), ...rest);
  };
  (app as unknown as { openapi: unknown }).openapi = wrapped;
}
