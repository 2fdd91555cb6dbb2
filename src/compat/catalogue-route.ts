// The OpenAPI fields of a compatibility operation, read from its catalogue row (never hand-copied):
// the passthrough routes (compat/passthrough-routes.ts) and the native billing routes
// (modules/customers, payments, payment-methods, subscriptions) both build on `catalogueRoute`, so
// every compatibility operation documents the same tag, operationId, summary, surface and permission.
import type { Permission } from "../lib/permissions";
import { CATALOGUE, type CatalogueOperation } from "./catalogue";

const BY_ID = new Map(CATALOGUE.map((op) => [op.operationId, op]));

export function catalogueOperation(operationId: string): CatalogueOperation {
  const op = BY_ID.get(operationId);
  if (!op) throw new Error(`No catalogue operation '${operationId}'`);
  return op;
}

/**
 * Where the OpenAPI document lists an operation. OpenAPI allows one operation per method+path, so
 * a second variant on the same method+path (e.g. the card variant of POST /payments) is listed at
 * the path with a trailing slash, exactly as the upstream's own spec does; the app is built with
 * `strict: false`, so that path reaches the same route.
 */
export function documentedPath(op: CatalogueOperation): string {
  const siblings = CATALOGUE.filter((o) => o.method === op.method && o.path === op.path);
  return siblings.indexOf(op) > 0 ? `${op.path}/` : op.path;
}

/** The OpenAPI fields of a catalogue operation, spread into `createRoute` (native and passthrough alike). */
export function catalogueRoute(operationId: string) {
  const op = catalogueOperation(operationId);
  return {
    tags: [op.group],
    operationId: op.operationId,
    summary: op.title,
    "x-upstream": `${op.upstreamMethod} ${op.upstreamPath}`,
    "x-surface": "public" as const,
    "x-implementation": op.kind,
    "x-permission": op.permission as Permission,
  };
}

/** The description of each compatibility group (a top-level tag of the document), from the catalogue's counts. */
export function compatGroupDescriptions(): Record<string, string> {
  const groups = new Map<string, { native: number; passthrough: number }>();
  for (const op of CATALOGUE) {
    const g = groups.get(op.group) ?? { native: 0, passthrough: 0 };
    g[op.kind]++;
    groups.set(op.group, g);
  }
  return Object.fromEntries(
    [...groups].map(([group, g]) => [
      group,
      `Compatibility: the upstream's "${group}" operations (${g.native + g.passthrough}; ${g.native} native, ${g.passthrough} through the gateway). All available.`,
    ]),
  );
}

/** A native row (served by Ponte itself); throws at module load on a passthrough or unknown id. */
function nativeRow(operationId: string): CatalogueOperation {
  const op = catalogueOperation(operationId);
  if (op.kind !== "native") throw new Error(`catalogue operation '${operationId}' is ${op.kind}, not native`);
  return op;
}

/** The platform group a native compatibility group's records also belong to (the document lists them under both). */
const PLATFORM_TAG_OF_GROUP: Readonly<Record<string, string>> = {
  Clientes: "customers",
  Cobranças: "payments",
  Estornos: "payments",
  Assinaturas: "subscriptions",
  "Cartão de crédito": "payment-methods",
};

/** What a native route spreads into `createRoute`: the catalogue fields plus its method and documented path. */
export function nativeOperation(operationId: string) {
  const op = nativeRow(operationId);
  const platformTag = PLATFORM_TAG_OF_GROUP[op.group];
  return {
    ...catalogueRoute(operationId),
    tags: platformTag ? [op.group, platformTag] : [op.group],
    "x-implementation": "native" as const,
    method: op.method.toLowerCase() as Lowercase<CatalogueOperation["method"]>,
    path: documentedPath(op),
  };
}

/** The permission the catalogue gives a native row (what its route's `guard()` checks). */
export const permissionOf = (operationId: string) => nativeRow(operationId).permission as Permission;

/**
 * The row's success status. The literal is for the route's TypeScript types; the catalogue decides,
 * and a mismatch fails at module load (every test run), so the two can never drift apart.
 */
export function successStatusOf<S extends 200 | 201>(operationId: string, typed: S): S {
  const status = nativeRow(operationId).successStatus;
  if (status !== typed) throw new Error(`catalogue says ${operationId} answers ${status}, the route is typed ${typed}`);
  return typed;
}

/** `{id}` → `:id`, the router's spelling of a path parameter. */
export const routerPath = (path: string) => path.replace(/\{([^}]+)\}/g, ":$1");

/** The names of a catalogue path's parameters, in order. */
export const pathParamNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? "");
