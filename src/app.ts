// Builds the API: the middleware every request passes, the route groups (src/route-groups.ts), the
// error handlers, and the OpenAPI document. The worker builds one app per path segment on demand
// (src/lazy-app.ts); `buildApp()` builds them all (the document, the tests).
import { OpenAPIHono } from "@hono/zod-openapi";
import { API_VERSION, type Env } from "./config";
import type { AppEnv } from "./http/app-env";
import { BODY_METHODS, bodyGuard } from "./http/body-guard";
import { DOCS_CSP, DOCS_PAGE } from "./http/docs-page";
import { handleError, notFoundHandler, validationHook } from "./http/error-handler";
import { MemoTrieRouter } from "./http/memo-router";
import { fuseAfter, provideDeps } from "./http/provide-deps";
import { queryRule } from "./http/query-rule";
import { chainOpenApiRoutes } from "./http/route-chain";
import { documentPassthroughRoutes } from "./compat/passthrough-routes";
import { asaasDialect, speaksAsaas } from "./compat/asaas-dialect";
import { compatGroupDescriptions } from "./compat/catalogue-route";
import { ASAAS_SECURITY_SCHEME, ASAAS_SECURITY_SCHEME_OBJECT, documentServers, finishDocument, PLATFORM_TAGS } from "./http/document";
import { ROUTE_GROUPS, type Registrar } from "./route-groups";

export const OPENAPI_CONFIG = {
  openapi: "3.1.0",
  info: {
    title: "Ponte API",
    version: API_VERSION,
    description: [
      "Ponte: a payments platform API for Brazilian merchants.",
      "Bearer API keys (`ponte_live_…` on production, `ponte_test_…` on sandbox).",
      "Every response is an envelope: `{ data, meta: { requestId } }` or `{ error: { code, message, details, requestId } }`.",
    ].join(" "),
  },
  servers: [{ url: "/", description: "This deployment" }],
};

/** How the app re-enters the API for a request it makes on a client's behalf (the Asaas dialect). */
export type RootFetch = (req: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;

/**
 * The OpenAPI document the app serves: generated from its routes, each passthrough answer described
 * from the upstream shapes (loaded here, on the first document: they are no part of start-up), then
 * finished (src/http/document.ts).
 */
export async function openApiDocumentOf(app: OpenAPIHono<AppEnv>) {
  const { describePassthroughAnswers } = await import("./compat/passthrough-answers");
  const doc = describePassthroughAnswers(app.getOpenAPI31Document(OPENAPI_CONFIG));
  return finishDocument(doc, { ...PLATFORM_TAGS, ...compatGroupDescriptions() });
}

const NO_QUERY: ReadonlySet<string> = new Set();

/** Every group's routes and the API reference over them: the whole API. */
export async function buildApp(root?: RootFetch) {
  const app = createApp(await Promise.all(ROUTE_GROUPS.map((group) => group.load())), root);
  let cachedDocument: ReturnType<typeof openApiDocumentOf> | undefined;
  const openApiDocument = () => {
    if (!cachedDocument) {
      cachedDocument = openApiDocumentOf(app);
      cachedDocument.catch(() => {
        cachedDocument = undefined; // a failed build is retried by the next request
      });
    }
    return cachedDocument;
  };
  // `servers` names this deployment by its configured origin and environment (never the request's Host).
  app.get("/api/v1/openapi.json", queryRule(NO_QUERY), async (c) =>
    c.json({ ...(await openApiDocument()), servers: documentServers(c.env) }),
  );
  app.get("/api/v1/docs", queryRule(NO_QUERY), (c) => {
    c.header("Content-Security-Policy", DOCS_CSP);
    c.header("X-Content-Type-Options", "nosniff");
    return c.html(DOCS_PAGE);
  });
  return app;
}

/** The shared middleware, then the given routes (in order), then the error handlers. */
export function createApp(registrars: readonly Registrar[], root?: RootFetch) {
  // A (memoised) TrieRouter outright: the catalogue has paths Hono's RegExpRouter rejects (a literal and
  // a parameter at the same position with further segments), so the default SmartRouter would spend
  // 20–40 ms of CPU on every isolate's first request failing to build it before falling back to a trie.
  // The request id, the request's Deps and D1 session; afterwards the id and bookmark headers. Inside it,
  // for /api/v1 paths, the Asaas dialect (access_token requests only): translates ids and bodies in,
  // Asaas's shapes out; a request that does not speak it never enters that layer. One layer of Hono's
  // chain for both (bench:js); with a route that is one handler (a read, src/http/route-chain.ts) the
  // router fuses it into one handler, which Hono runs without its compose (src/http/memo-router.ts).
  const first = provideDeps({ appliesTo: speaksAsaas, layer: asaasDialect(root ?? ((req, env, ctx) => app.fetch(req, env, ctx))) });
  const app = new OpenAPIHono<AppEnv>({ strict: false, defaultHook: validationHook, router: new MemoTrieRouter(fuseAfter(first)) });
  // Every route registered through app.openapi() refuses query parameters its schema does not declare,
  // in as few layers of Hono's chain as the route allows (src/http/route-chain.ts).
  chainOpenApiRoutes(app);
  app.use("*", first);
  // Only requests that may carry a body pass the body rules: a GET does not enter the middleware at all.
  app.on(BODY_METHODS, "/api/v1/*", bodyGuard());

  for (const register of registrars) register(app);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "API key: `Authorization: Bearer ponte_test_…`",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "sessionCookie", {
    type: "apiKey",
    in: "cookie",
    name: "ponte_session",
    description: "Developer console session (HttpOnly cookie).",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", ASAAS_SECURITY_SCHEME, ASAAS_SECURITY_SCHEME_OBJECT);

  // Documentation that only the OpenAPI document needs is built when a document is first generated,
  // not at start-up (whoever asks: /openapi.json, the reference, the tests, the scripts).
  for (const getter of ["getOpenAPIDocument", "getOpenAPI31Document"] as const) {
    const generate = app[getter].bind(app) as (...args: unknown[]) => unknown;
    (app as unknown as Record<string, unknown>)[getter] = (...args: unknown[]) => {
      documentPassthroughRoutes(app);
      return generate(...args);
    };
  }

  app.notFound(notFoundHandler(() => app.routes));
  app.onError(handleError);
  return app;
}

export type App = ReturnType<typeof createApp>;
