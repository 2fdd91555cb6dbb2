// Builds the API: middleware order, module routers, the OpenAPI document and the docs page.
import { OpenAPIHono } from "@hono/zod-openapi";
import { API_VERSION } from "./config";
import type { AppEnv } from "./http/app-env";
import { d1QueryCounter } from "./http/query-counter";
import { bodyGuard } from "./http/body-guard";
import { DOCS_CSP, DOCS_PAGE } from "./http/docs-page";
import { handleError, notFoundHandler, validationHook } from "./http/error-handler";
import { MemoTrieRouter } from "./http/memo-router";
import { provideDeps } from "./http/provide-deps";
import { requestId } from "./http/request-id";
import { documentPassthroughRoutes, registerPassthroughRoutes } from "./compat/passthrough-routes";
import { asaasDialect } from "./compat/asaas-dialect";
import { compatGroupDescriptions } from "./compat/catalogue-route";
import { ASAAS_SECURITY_SCHEME, ASAAS_SECURITY_SCHEME_OBJECT, finishDocument, PLATFORM_TAGS } from "./http/document";
import { registerApiKeyRoutes } from "./modules/api-keys/routes";
import { registerConsole } from "./console";
import { registerAuditRoutes } from "./modules/audit/routes";
import { registerGatewayAccountRoutes } from "./modules/gateway-accounts/routes";
import { registerGatewayApiLogRoutes } from "./modules/gateway-api-logs/routes";
import { registerAuthRoutes } from "./modules/accounts/routes";
import { registerHealthRoutes } from "./modules/health/routes";
import { registerOrganizationRoutes } from "./modules/organizations/routes";
import { registerMemberRoutes } from "./modules/members/routes";
import { registerWebhookEndpointRoutes } from "./modules/webhook-endpoints/routes";
import { registerWebhookLogRoutes } from "./modules/webhook-logs/routes";
import { registerListenRoutes } from "./modules/listen/routes";
import { registerWorkspaceRoutes } from "./modules/workspaces/routes";
import { registerCustomerRoutes } from "./modules/customers/routes";
import { registerPaymentMethodRoutes } from "./modules/payment-methods/routes";
import { registerPaymentRoutes } from "./modules/payments/routes";
import { syncNativeRecords } from "./modules/payments/passthrough-sync";
import { registerPlanRoutes } from "./modules/plans/routes";
import { registerCostCategoryRoutes } from "./modules/cost-categories/routes";
import { registerSupplierRoutes } from "./modules/suppliers/routes";
import { registerExpenseRoutes } from "./modules/expenses/routes";
import { registerAwsConnectionRoutes } from "./modules/aws-connections/routes";
import { registerAnalyticsRoutes } from "./modules/analytics/routes";
import { registerSubscriptionRoutes } from "./modules/subscriptions/routes";
import { syncSubscriptionRecords } from "./modules/subscriptions/passthrough-sync";
import { registerUpstreamWebhookRoutes } from "./modules/upstream-webhooks/routes";

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

/** The OpenAPI document the app serves: generated from its routes, then finished (src/http/document.ts). */
export function openApiDocumentOf(app: OpenAPIHono<AppEnv>) {
  return finishDocument(app.getOpenAPI31Document(OPENAPI_CONFIG), { ...PLATFORM_TAGS, ...compatGroupDescriptions() });
}

export function buildApp() {
  // A (memoised) TrieRouter outright: the catalogue has paths Hono's RegExpRouter rejects (a literal and
  // a parameter at the same position with further segments), so the default SmartRouter would spend
  // 20–40 ms of CPU on every isolate's first request failing to build it before falling back to a trie.
  const app = new OpenAPIHono<AppEnv>({ strict: false, defaultHook: validationHook, router: new MemoTrieRouter() });

  app.use("*", requestId());
  app.use("*", d1QueryCounter());
  app.use("*", provideDeps());
  // The Asaas dialect (access_token requests only): translates ids and bodies in, Asaas's shapes out.
  app.use(
    "/api/v1/*",
    asaasDialect((req, env, ctx) => app.fetch(req, env, ctx)),
  );
  app.use("/api/v1/*", bodyGuard());

  registerHealthRoutes(app);
  registerAuthRoutes(app);
  registerOrganizationRoutes(app);
  registerMemberRoutes(app);
  registerWorkspaceRoutes(app);
  registerApiKeyRoutes(app);
  registerAuditRoutes(app);
  registerWebhookEndpointRoutes(app);
  registerWebhookLogRoutes(app);
  registerListenRoutes(app);
  registerGatewayAccountRoutes(app);
  registerGatewayApiLogRoutes(app);
  // Before the native billing routes: the first matching route answers, and passthrough literals
  // such as GET /payments/limits must win over native patterns such as GET /payments/{id}.
  // A compatibility write's answer updates the native record it names (payments, subscriptions).
  registerPassthroughRoutes(app, async (deps, principal, op, data) => {
    await syncNativeRecords(deps, principal, op, data);
    await syncSubscriptionRecords(deps, principal, op, data);
  });
  registerCustomerRoutes(app);
  registerPlanRoutes(app);
  registerPaymentRoutes(app);
  registerPaymentMethodRoutes(app);
  registerSubscriptionRoutes(app);
  registerUpstreamWebhookRoutes(app);
  registerCostCategoryRoutes(app);
  registerSupplierRoutes(app);
  registerExpenseRoutes(app);
  registerAwsConnectionRoutes(app);
  registerAnalyticsRoutes(app);

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

  let cachedDocument: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  const openApiDocument = () => (cachedDocument ??= openApiDocumentOf(app));
  app.get("/api/v1/openapi.json", (c) => c.json(openApiDocument()));
  app.get("/api/v1/docs", (c) => {
    c.header("Content-Security-Policy", DOCS_CSP);
    c.header("X-Content-Type-Options", "nosniff");
    return c.html(DOCS_PAGE);
  });

  registerConsole(app);

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

export type App = ReturnType<typeof buildApp>;
