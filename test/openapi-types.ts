// The parts of an OpenAPI 3.1 document the tests walk. Vendor extensions (x-*) and anything not named here stay unknown.

export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  allOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  enum?: unknown[];
  [keyword: string]: unknown;
}

export interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
  [keyword: string]: unknown;
}

export interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: SchemaObject }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: SchemaObject }> }>;
  security?: Record<string, string[]>[];
  "x-permission"?: string;
  "x-surface"?: string;
  "x-implementation"?: string;
  [extension: string]: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [field: string]: unknown };
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, SchemaObject>; [field: string]: unknown };
  [field: string]: unknown;
}
