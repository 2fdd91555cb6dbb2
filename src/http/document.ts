// The finishing pass over the generated OpenAPI document: what holds for every operation is stated
// once here rather than on each route — the tenant headers every authenticated operation honours,
// the availability status of every compatibility operation, and the top-level `tags` list with what
// each group is; and, for the reference (/api/v1/docs), each operation's permission as a line of its
// description, an example on every JSON body and success response, and the error responses a
// credential-checked operation can answer, each with one example per error code (src/http/examples.ts).
import { errorExampleComponents, errorExamples, exampleOf, type Schema } from "./examples";
import { ORGANIZATION_HEADER, WORKSPACE_HEADER } from "./tenant-headers";

/** What each platform (non-compatibility) group covers. */
export const PLATFORM_TAGS: Readonly<Record<string, string>> = {
  auth: "Sign-up, sign-in and the console session (cookie); the current user and their memberships.",
  organizations: "The caller's organization: name, default workspace.",
  members: "Team members of the organization, their roles, and invitations.",
  workspaces: "Workspaces of the organization: each holds its own records, keys and gateway account.",
  "api-keys": "API keys: permissions, live/test environment, optional workspace binding, rotation and revocation.",
  audit: "The organization's audit trail of control-plane changes.",
  "gateway-accounts": "Upstream credentials per workspace and environment (stored encrypted), verification, inbound webhook token.",
  "gateway-api-logs": "Every call the gateway made to the upstream: operation, status, latency.",
  "webhook-endpoints": "Merchant endpoints for Ponte's signed events: subscription to kinds, secret rotation, test, recovery.",
  "webhook-logs": "Deliveries of events to endpoints, their attempts, and redelivery.",
  webhooks: "Inbound webhooks from the upstream (authenticated by the gateway account's token).",
  customers: "Customers, Ponte's own records mirrored to the upstream (also listed under the compatibility group Clientes).",
  payments: "Charges by PIX, boleto and card: Ponte's records, refunds, cancellation (also under the compatibility group Cobranças).",
  "payment-methods": "Card tokens (brand and last 4 digits; card numbers are never stored).",
  plans: "Recurring billing plans that subscriptions are created from.",
  "cost-categories":
    "Finance: a two-level tree of cost categories (FIXED/VARIABLE) that expenses are filed under; `key` is the slug formulas use.",
  suppliers: "Finance: who the workspace pays (CPF/CNPJ checked), with a default cost category; search by name or document.",
  expenses:
    "Finance: costs in BRL or USD (with the exchange rate and the exact BRL amount), due/paid, allocated to a plan or customer, recurring monthly or yearly.",
  "aws-connections":
    "Finance: AWS accounts (access key, or a role Ponte assumes) whose Cost Explorer costs are imported daily as expenses, one per day and service.",
  metrics:
    "Analytics: the metric catalogue and daily/weekly/monthly series (revenue, MRR, churn, …) read from daily rollups, exact to the cent.",
  formulas: "Analytics: merchant-defined metrics over the catalogue, `expenses.<categoryKey>` and other formulas, evaluated exactly.",
  profitability:
    "Analytics: revenue, direct and shared costs, gross profit and margin by month, plan, customer or cost category; totals equal the metrics.",
  dashboard:
    "Analytics: the first screen in one call — cards with the previous period, revenue vs expenses, top customers and plans, next charges.",
  subscriptions: "Subscriptions created from a plan (also under the compatibility group Assinaturas).",
  health: "Liveness and readiness of the deployment.",
};

/** The third security scheme: Asaas's own (`access_token: ponte_test_…`), answered in Asaas's wire format. */
export const ASAAS_SECURITY_SCHEME = "asaasAccessToken";
export const ASAAS_SECURITY_SCHEME_OBJECT = {
  type: "apiKey",
  in: "header",
  name: "access_token",
  description:
    "The Asaas dialect: the same API key in Asaas's `access_token` header (also spelled `access-token`; no Authorization). The compatibility operations then speak Asaas's wire format: objects at the top level, Asaas lists, `{errors:[{code, description}]}`, upstream ids, and the other methods Asaas accepts (`POST /customers/{id}` for an update…). The dialect is also served at the upstream's own layout: `/v3/<path>` (and the legacy `/api/v3/<path>`) is the dialect of `/api/v1/<path>`, so an Asaas client needs only its base URL (`https://api.asaas.com/v3` → `https://<this host>/v3`) and key changed; there the key must be in `access_token` (docs/compatibility.md, Migrating from Asaas).",
} as const;

const TENANT_HEADERS = [
  {
    name: ORGANIZATION_HEADER,
    in: "header",
    required: false,
    schema: { type: "string" },
    description: "Optional: the organization to act in. A key acts only in its own (403 otherwise); a session may name any it belongs to.",
  },
  {
    name: WORKSPACE_HEADER,
    in: "header",
    required: false,
    schema: { type: "string", format: "uuid" },
    description:
      "Optional: the workspace to act in (default: the organization's default). A workspace-bound key may name only its own (403).",
  },
] as const;

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

interface MediaType {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, unknown>;
}
interface Response {
  description?: string;
  content?: Record<string, MediaType>;
}

interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  description?: string;
  requestBody?: unknown;
  responses?: unknown;
  "x-permission"?: string;
  "x-implementation"?: string;
  "x-upstream"?: string;
}

/** The spec: every compatibility operation's description carries its status, `available` (all 208 are callable). */
function compatibilityDescription(op: Operation): string {
  const how =
    op["x-implementation"] === "native"
      ? "Served natively by Ponte (Ponte owns the record)."
      : "Forwarded through the gateway with the workspace's gateway account.";
  const upstream = op["x-upstream"] ? ` Upstream: \`${op["x-upstream"]}\`.` : "";
  return [`Status: available. ${how}${upstream}`, op.description].filter(Boolean).join("\n\n");
}
interface Document {
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  tags?: { name: string; description?: string }[];
  components?: { schemas?: Record<string, unknown>; examples?: Record<string, unknown> };
}

/** The line of an operation's description that says who may call it. */
function accessLine(op: Operation): string {
  const schemes = new Set((op.security ?? []).flatMap((s) => Object.keys(s)));
  const permission = op["x-permission"];
  if (permission) {
    const key = schemes.has(ASAAS_SECURITY_SCHEME) ? "an API key (bearer, or the `access_token` header)" : "an API key (bearer)";
    const who = schemes.has("sessionCookie") ? `${key} or a console session whose role grants it` : `${key} that holds it`;
    return `**Permission:** \`${permission}\` — ${who}.`;
  }
  if (schemes.has("sessionCookie")) return "**Permission:** none — a signed-in console session (cookie); acts on the user, not a tenant.";
  return "**Permission:** none — no credential needed.";
}

/** The error statuses a credential-checked operation can answer; a write also 409 (idempotency key in flight, state). */
const GUARDED_ERRORS = ["400", "401", "403", "404", "429"] as const;

const ERROR_SCHEMA = { $ref: "#/components/schemas/Error" };

/**
 * Examples for the reference: one built from the schema on each JSON request body and success
 * response that has none, and named error-envelope examples on each error response. Adds the
 * error responses a credential-checked operation can answer where the route did not list them.
 * Replaces the media-type objects rather than editing them: the generator may share them.
 */
function addExamples(op: Operation, method: string, schemas: Readonly<Record<string, Schema>>): void {
  const body = op.requestBody as { content?: Record<string, MediaType> } | undefined;
  const json = body?.content?.["application/json"];
  if (body?.content && json && json.example === undefined && json.examples === undefined) {
    const example = exampleOf(json.schema, schemas);
    if (example !== undefined) body.content = { ...body.content, "application/json": { ...json, example } };
  }
  if (!op.responses) op.responses = {};
  const responses = op.responses as Record<string, Response>;
  if (op["x-permission"]) {
    for (const status of [...GUARDED_ERRORS, ...(method === "get" ? [] : ["409"])]) {
      responses[status] ??= { description: "Error", content: { "application/json": { schema: ERROR_SCHEMA } } };
    }
  }
  for (const [status, response] of Object.entries(responses)) {
    const media = response.content?.["application/json"];
    if (!response.content || !media || media.example !== undefined || media.examples !== undefined) continue;
    if (status.startsWith("2")) {
      const example = exampleOf(media.schema, schemas);
      if (example !== undefined)
        responses[status] = { ...response, content: { ...response.content, "application/json": { ...media, example } } };
    } else {
      const examples = errorExamples(Number(status), op["x-permission"]);
      if (Object.keys(examples).length > 0) {
        responses[status] = { ...response, content: { ...response.content, "application/json": { ...media, examples } } };
      }
    }
  }
}

/** The description with the access line: after the status line of a compatibility operation, first otherwise. */
function withAccessLine(op: Operation): string {
  const [first, ...rest] = (op.description ?? "").split("\n\n").filter(Boolean);
  const line = accessLine(op);
  if (first?.startsWith("Status: ")) return [first, line, ...rest].join("\n\n");
  return [line, first, ...rest].filter(Boolean).join("\n\n");
}

const named = (p: unknown): string | undefined =>
  typeof p === "object" && p !== null && "name" in p ? String((p as { name: unknown }).name).toLowerCase() : undefined;

/**
 * Adds the tenant headers to every operation a credential is checked on (`x-permission`), where the
 * route did not already document them, each operation's permission line and examples, and the top-level `tags` list in first-use order, each with
 * its description from `descriptions` (a tag without one fails here, so none goes undocumented).
 */
export function finishDocument<D extends Document>(doc: D, descriptions: Readonly<Record<string, string>>): D {
  const order: string[] = [];
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      for (const tag of op.tags ?? []) if (!order.includes(tag)) order.push(tag);
      if (op["x-implementation"]) {
        op.description = compatibilityDescription(op);
        // The Asaas dialect: every compatibility operation also takes the key in Asaas's `access_token` header.
        if (op.security?.some((s) => "bearerAuth" in s)) op.security = [...op.security, { [ASAAS_SECURITY_SCHEME]: [] }];
      }
      op.description = withAccessLine(op);
      addExamples(op, method, (doc.components?.schemas ?? {}) as Record<string, Schema>);
      if (!op["x-permission"]) continue;
      const present = new Set((op.parameters ?? []).map(named));
      op.parameters = [...(op.parameters ?? []), ...TENANT_HEADERS.filter((h) => !present.has(h.name.toLowerCase()))];
    }
  }
  doc.components = { ...doc.components, examples: { ...doc.components?.examples, ...errorExampleComponents() } };
  doc.tags = order.map((name) => {
    const description = descriptions[name];
    if (!description) throw new Error(`OpenAPI tag '${name}' has no description (src/http/document.ts or the catalogue)`);
    return { name, description };
  });
  return doc;
}

/**
 * The document's `servers`: this deployment's public origin (PUBLIC_BASE_URL of its wrangler.toml environment, never
 * the request's Host header) with its environment. Ponte's paths are under /api/v1; the Asaas layout (/v3) is served
 * on the same host. Without a configured origin (the client generator builds the document with no env) it is "/".
 */
export function documentServers(env: { PUBLIC_BASE_URL?: string; ENVIRONMENT: string }): { url: string; description: string }[] {
  const origin = env.PUBLIC_BASE_URL?.trim().replace(/\/+$/, "");
  if (!origin) return [{ url: "/", description: "This deployment" }];
  return [{ url: origin, description: `${env.ENVIRONMENT}: Ponte's API (/api/v1); the Asaas dialect at ${origin}/v3` }];
}
