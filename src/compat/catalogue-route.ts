// Catalogue lookups shared by the passthrough routes and the native billing routes, so every
// compatibility operation documents the same OpenAPI fields (tag, operationId, surface, permission).
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
    "x-surface": "public" as const,
    "x-implementation": op.kind,
    "x-permission": op.permission as Permission,
  };
}

/** `{id}` → `:id`, the router's spelling of a path parameter. */
export const routerPath = (path: string) => path.replace(/\{([^}]+)\}/g, ":$1");

/** The names of a catalogue path's parameters, in order. */
export const pathParamNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
