// Typed walking of the generated OpenAPI document for the unit tests (openapi3-ts's 3.1 types):
// references resolved, and a missing part fails the test with where it was looked for.
import type { OpenAPIObject, OperationObject, ReferenceObject, ResponseObject, SchemaObject } from "openapi3-ts/oas31";

export const METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type Method = (typeof METHODS)[number];

export interface DocumentedOperation {
  path: string;
  method: Method;
  op: OperationObject;
}

export function operationsOf(doc: OpenAPIObject): DocumentedOperation[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = item[method];
      return op ? [{ path, method, op }] : [];
    }),
  );
}

const isRef = (x: object): x is ReferenceObject => "$ref" in x;

/** The schema itself, following one `$ref` into components.schemas. */
export function resolveSchema(doc: OpenAPIObject, schema: SchemaObject | ReferenceObject | undefined): SchemaObject {
  if (!schema) throw new Error("no schema here");
  if (!isRef(schema)) return schema;
  const target = doc.components?.schemas?.[schema.$ref.split("/").pop() ?? ""];
  if (!target || isRef(target)) throw new Error(`unresolvable ${schema.$ref}`);
  return target;
}

/** A property of an object schema, resolved. */
export function propertyOf(doc: OpenAPIObject, schema: SchemaObject, name: string): SchemaObject {
  return resolveSchema(doc, schema.properties?.[name]);
}

/** The JSON request body schema of an operation, resolved. */
export function requestSchema(doc: OpenAPIObject, path: string, method: Method): SchemaObject {
  const body = doc.paths?.[path]?.[method]?.requestBody;
  if (!body || isRef(body)) throw new Error(`${method} ${path} has no inline request body`);
  return resolveSchema(doc, body.content["application/json"]?.schema);
}

/** One documented response of an operation (not a reference). */
export function responseOf(op: OperationObject, status: string): ResponseObject | undefined {
  const res = op.responses?.[status] as ResponseObject | ReferenceObject | undefined;
  return res && !isRef(res) ? res : undefined;
}
