// Every operation of the app's OpenAPI document, in the shape the generated tests walk: the fuzz
// (no client input yields a 5xx) and the route guards (401 / 403 / 404 across tenants). A route
// added to the app is in the document, so it is covered without a test written by hand.
import { SELF } from "cloudflare:test";
import { buildApp, openApiDocumentOf } from "../../src/app";
import { CATALOGUE } from "../../src/compat/catalogue";
import { isPermission, type Permission } from "../../src/lib/permissions";
import type { OpenApiDocument, SchemaObject } from "../openapi-types";
import { PLATFORM_PERMISSIONS } from "./platform-permissions";
import { BASE } from "./support";

const CATALOGUE_PERMISSIONS = new Map(CATALOGUE.map((o) => [o.operationId, o.permission]));

/** The independent permission of an operation (see ApiOperation.permission); undefined when it is in neither list. */
function independentPermission(operationId: string, label: string): Permission | null | undefined {
  const fromCatalogue = CATALOGUE_PERMISSIONS.get(operationId);
  if (fromCatalogue !== undefined) {
    if (!isPermission(fromCatalogue)) throw new Error(`${operationId}: the catalogue names an unknown permission '${fromCatalogue}'`);
    return fromCatalogue;
  }
  return Object.hasOwn(PLATFORM_PERMISSIONS, label) ? PLATFORM_PERMISSIONS[label] : undefined;
}

export type SecurityScheme = "bearerAuth" | "sessionCookie";

export interface QueryParam {
  name: string;
  required: boolean;
  schema: Record<string, unknown>;
}

export interface ApiOperation {
  /** `GET /api/v1/payments/{id}`: how test names and failure lists spell an operation. */
  label: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The documented path, with `{name}` placeholders (a trailing slash marks a second variant). */
  path: string;
  operationId: string;
  /**
   * The permission the operation must check, from an independent list: the catalogue's permission
   * column for its 208 operations, test/workers/platform-permissions.ts for the rest; null when
   * unguarded. The 403 suites expect this one, so a wrong permission in a route's guard fails them.
   */
  permission: Permission | null;
  /** What the route's guard wrote into the document (`x-permission`); permissions.test.ts checks it equals `permission`. */
  documentedPermission: Permission | null;
  /** Whether the operation is in either independent list (a new route must be added to platform-permissions.ts). */
  listed: boolean;
  /** What authenticates it; empty for a public operation (health, sign-up, inbound webhooks). */
  security: SecurityScheme[];
  /** `public` (the upstream-compatible surface) or `internal` (the control plane). */
  surface: string | undefined;
  pathParams: string[];
  queryParams: QueryParam[];
  body: { required: boolean; contentTypes: string[]; properties: string[] } | null;
}

/** The document the app serves at /api/v1/openapi.json, built in process (tests are collected before any request can be made). */
export async function openApiDocument(): Promise<OpenApiDocument> {
  return (await openApiDocumentOf(await buildApp())) as unknown as OpenApiDocument;
}

/** The same document as served over HTTP, to check the in-process one is the real one. */
export async function servedOpenApiDocument(): Promise<OpenApiDocument> {
  const res = await SELF.fetch(`${BASE}/api/v1/openapi.json`);
  return (await res.json()) as OpenApiDocument;
}

function schemaProperties(schema: SchemaObject | undefined, components: OpenApiDocument["components"]): string[] {
  if (!schema) return [];
  if (schema.$ref) return schemaProperties(components?.schemas?.[schema.$ref.split("/").pop() ?? ""], components);
  const own = Object.keys(schema.properties ?? {});
  const nested = [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((s) =>
    schemaProperties(s, components),
  );
  return [...new Set([...own, ...nested])];
}

let cached: ApiOperation[] | undefined;

/** Every operation of the document, in document order. */
export async function apiOperations(): Promise<ApiOperation[]> {
  cached ??= operationsOf(await openApiDocument());
  return cached;
}

/** The operations of a given document. */
export function operationsOf(doc: OpenApiDocument): ApiOperation[] {
  const components = doc.components;
  const out: ApiOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const params = op.parameters ?? [];
      const permission = op["x-permission"];
      if (permission !== undefined && !isPermission(permission)) throw new Error(`${method} ${path}: unknown x-permission '${permission}'`);
      const content = op.requestBody?.content ?? {};
      const label = `${method.toUpperCase()} ${path}`;
      const expected = independentPermission(op.operationId, label);
      out.push({
        label,
        method: method.toUpperCase() as ApiOperation["method"],
        path,
        operationId: op.operationId,
        permission: expected ?? null,
        documentedPermission: permission ?? null,
        listed: expected !== undefined,
        security: (op.security ?? []).flatMap((s: Record<string, unknown>) => Object.keys(s)) as SecurityScheme[],
        surface: op["x-surface"],
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        queryParams: params
          .filter((p) => p.in === "query")
          .map((p) => ({ name: p.name, required: Boolean(p.required), schema: p.schema ?? {} })),
        body: op.requestBody
          ? {
              required: Boolean(op.requestBody.required),
              contentTypes: Object.keys(content),
              properties: schemaProperties(content["application/json"]?.schema, components),
            }
          : null,
      });
    }
  }
  return out;
}

/** The documented path with each `{name}` replaced by its (URL-encoded) value. */
export function fillPath(op: ApiOperation, value: (name: string) => string): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(value(name)));
}

/** A path parameter's resource: the collection segment before it (`payments` for `/payments/{id}`, `documents` for `/payments/{id}/documents/{documentId}`). */
export function paramResource(op: ApiOperation, name: string): string {
  const segments = op.path.split("/");
  const at = segments.indexOf(`{${name}}`);
  for (let i = at - 1; i >= 0; i--) if (!segments[i]!.startsWith("{")) return segments.slice(3, i + 1).join("/");
  throw new Error(`${op.label}: no collection before {${name}}`);
}
