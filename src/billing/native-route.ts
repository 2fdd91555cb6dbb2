// The OpenAPI fields of a native catalogue operation, read from the catalogue row (never hand-copied).
import { CATALOGUE, type CatalogueOperation } from "../compat/catalogue";
import type { Permission } from "../lib/permissions";

export function catalogueRow(operationId: string): CatalogueOperation {
  const row = CATALOGUE.find((op) => op.operationId === operationId && op.kind === "native");
  if (!row) throw new Error(`no native catalogue operation '${operationId}'`);
  return row;
}

/** operationId, tag, surface, implementation kind, method and path of a native row. */
export function nativeOperation(operationId: string, options: { path?: string } = {}) {
  const row = catalogueRow(operationId);
  return {
    operationId: row.operationId,
    tags: [row.group],
    "x-surface": "public" as const,
    "x-implementation": "native" as const,
    method: row.method.toLowerCase() as Lowercase<CatalogueOperation["method"]>,
    path: options.path ?? row.path,
    summary: row.title,
  };
}

export const permissionOf = (operationId: string) => catalogueRow(operationId).permission as Permission;
/**
 * The row's success status. The literal is for the route's TypeScript types; the catalogue decides,
 * and a mismatch fails at module load (every test run), so the two can never drift apart.
 */
export function successStatusOf<S extends 200 | 201>(operationId: string, typed: S): S {
  const status = catalogueRow(operationId).successStatus;
  if (status !== typed) throw new Error(`catalogue says ${operationId} answers ${status}, the route is typed ${typed}`);
  return typed;
}
