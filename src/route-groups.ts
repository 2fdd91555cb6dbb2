// Every group of routes the API serves, in registration order, with the first path segments
// (`/api/v1/<segment>/…`) it answers under and how to load it. Loading is a dynamic import: a group's
// modules (its zod schemas, services, pages) are evaluated when a request first needs them, not at
// the worker's start-up (src/lazy-app.ts builds one app per segment from this table).
//
// Order matters where segments are shared: the first matching route answers, so passthrough literals
// such as GET /payments/limits must come before native patterns such as GET /payments/{id}.
// test/unit/route-groups.test.ts checks that each group registers routes under its segments only and
// that every segment's app routes exactly as the full app does.
import type { OpenAPIHono } from "@hono/zod-openapi";
import { CATALOGUE } from "./compat/catalogue";
import type { AppEnv } from "./http/app-env";
import { CONSOLE_SEGMENT, segmentOf } from "./http/segment";

export type Registrar = (app: OpenAPIHono<AppEnv>) => void;

export interface RouteGroup {
  readonly name: string;
  /** First path segments under /api/v1 (`console` stands for /console). */
  readonly segments: readonly string[];
  /** Only this segment's routes, when the group spans several (the passthrough catalogue). */
  readonly load: (segment?: string) => Promise<Registrar>;
  /**
   * The modules the group's requests import on first use, after its app is built (large tables a request loads
   * only when it needs them): the warm-up loads them too, so a first request after it finds them evaluated.
   */
  readonly onFirstUse?: () => Promise<unknown>;
}

/**
 * A Bearer caller's passthrough answers and events in Ponte's vocabulary, and the query rule of a passthrough request
 * with a query string: both import the upstream shapes (~70 kB) on first use (src/compat/bearer-dialect.ts,
 * src/compat/passthrough-routes.ts).
 */
const upstreamVocabulary = () => Promise.all([import("./compat/bearer-vocabulary"), import("./compat/passthrough-query")]);

const passthroughSegments = [...new Set(CATALOGUE.filter((op) => op.kind === "passthrough").map((op) => segmentOf(op.path) as string))];

export const ROUTE_GROUPS: readonly RouteGroup[] = [
  { name: "health", segments: ["health"], load: async () => (await import("./modules/health/routes")).registerHealthRoutes },
  { name: "auth", segments: ["auth"], load: async () => (await import("./modules/accounts/routes")).registerAuthRoutes },
  {
    name: "organizations",
    segments: ["organizations"],
    load: async () => (await import("./modules/organizations/routes")).registerOrganizationRoutes,
  },
  {
    name: "members",
    segments: ["organizations", "auth"],
    load: async () => (await import("./modules/members/routes")).registerMemberRoutes,
  },
  { name: "workspaces", segments: ["workspaces"], load: async () => (await import("./modules/workspaces/routes")).registerWorkspaceRoutes },
  { name: "api-keys", segments: ["api-keys"], load: async () => (await import("./modules/api-keys/routes")).registerApiKeyRoutes },
  { name: "audit", segments: ["audit-logs"], load: async () => (await import("./modules/audit/routes")).registerAuditRoutes },
  {
    name: "webhook-endpoints",
    segments: ["webhook-endpoints"],
    load: async () => (await import("./modules/webhook-endpoints/routes")).registerWebhookEndpointRoutes,
  },
  {
    name: "webhook-logs",
    segments: ["webhook-logs"],
    load: async () => (await import("./modules/webhook-logs/routes")).registerWebhookLogRoutes,
  },
  { name: "listen", segments: ["listen"], load: async () => (await import("./modules/listen/routes")).registerListenRoutes },
  {
    name: "gateway-accounts",
    segments: ["gateway-accounts"],
    load: async () => (await import("./modules/gateway-accounts/routes")).registerGatewayAccountRoutes,
  },
  {
    name: "gateway-api-logs",
    segments: ["gateway-api-logs"],
    load: async () => (await import("./modules/gateway-api-logs/routes")).registerGatewayApiLogRoutes,
  },
  {
    // A compatibility write's answer updates the native record it names (payments, subscriptions).
    name: "passthrough",
    segments: passthroughSegments,
    load: async (segment) => {
      const [{ registerPassthroughRoutes }, { syncNativeRecords }, { syncSubscriptionRecords }] = await Promise.all([
        import("./compat/passthrough-routes"),
        import("./modules/payments/passthrough-sync"),
        import("./modules/subscriptions/passthrough-sync"),
      ]);
      const afterAnswer: Parameters<typeof registerPassthroughRoutes>[1] = async (deps, principal, op, data) => {
        await syncNativeRecords(deps, principal, op, data);
        await syncSubscriptionRecords(deps, principal, op, data);
      };
      return (app) => registerPassthroughRoutes(app, afterAnswer, segment);
    },
    onFirstUse: upstreamVocabulary,
  },
  { name: "customers", segments: ["customers"], load: async () => (await import("./modules/customers/routes")).registerCustomerRoutes },
  { name: "plans", segments: ["plans"], load: async () => (await import("./modules/plans/routes")).registerPlanRoutes },
  { name: "payments", segments: ["payments"], load: async () => (await import("./modules/payments/routes")).registerPaymentRoutes },
  {
    name: "payment-methods",
    segments: ["payment-methods"],
    load: async () => (await import("./modules/payment-methods/routes")).registerPaymentMethodRoutes,
  },
  {
    name: "subscriptions",
    segments: ["subscriptions"],
    load: async () => (await import("./modules/subscriptions/routes")).registerSubscriptionRoutes,
  },
  {
    name: "upstream-webhooks",
    segments: ["webhooks"],
    load: async () => (await import("./modules/upstream-webhooks/routes")).registerUpstreamWebhookRoutes,
    onFirstUse: upstreamVocabulary,
  },
  {
    name: "cost-categories",
    segments: ["cost-categories"],
    load: async () => (await import("./modules/cost-categories/routes")).registerCostCategoryRoutes,
  },
  { name: "suppliers", segments: ["suppliers"], load: async () => (await import("./modules/suppliers/routes")).registerSupplierRoutes },
  { name: "expenses", segments: ["expenses"], load: async () => (await import("./modules/expenses/routes")).registerExpenseRoutes },
  {
    name: "aws-connections",
    segments: ["aws-connections"],
    load: async () => (await import("./modules/aws-connections/routes")).registerAwsConnectionRoutes,
  },
  {
    name: "analytics",
    segments: ["profitability", "dashboard", "metrics", "formulas"],
    load: async () => (await import("./modules/analytics/routes")).registerAnalyticsRoutes,
  },
  { name: "console", segments: [CONSOLE_SEGMENT], load: async () => (await import("./console")).registerConsole },
];

/** The API reference (/api/v1/openapi.json, /api/v1/docs) documents every route: the whole API's app serves it. */
export const REFERENCE_SEGMENTS: readonly string[] = ["openapi.json", "docs"];

const bySegment = new Map<string, RouteGroup[]>();
for (const group of ROUTE_GROUPS) for (const segment of group.segments) bySegment.set(segment, [...(bySegment.get(segment) ?? []), group]);

/** Every segment groups answer under, in registration order: what an isolate warms after its first response. */
export const SEGMENTS: readonly string[] = [...bySegment.keys()];

/** The groups that answer under `segment`, in registration order (none for an unknown segment). */
export function groupsFor(segment: string | undefined): readonly RouteGroup[] {
  return (segment !== undefined && bySegment.get(segment)) || [];
}
