// Examples for the OpenAPI document's finishing pass (src/http/document.ts): every JSON request body
// and success response gets an example built from its schema (the schema's own `example` first, then
// format- and field-name-aware values), and every error response gets one named example per error
// code its status can carry, in the error envelope, so a reader sees each shape without calling.
import { ERROR_STATUS, type ErrorCode, INTERNAL_ERROR_MESSAGE } from "./errors";

export type Schema = Record<string, unknown>;
type Schemas = Readonly<Record<string, Schema>>;

/** Values for string fields by name, where the schema names no format (Brazilian sample data). */
const FIELD_EXAMPLES: Readonly<Record<string, string>> = {
  name: "Maria Silva",
  email: "maria@example.com",
  cpfCnpj: "52998224725",
  phone: "1132300606",
  mobilePhone: "11987654321",
  postalCode: "01310-100",
  address: "Avenida Paulista",
  addressNumber: "1000",
  province: "Bela Vista",
  city: "São Paulo",
  state: "SP",
  description: "Pedido 1001",
  externalReference: "order-1001",
  dueDate: "2026-12-01",
  paymentDate: "2026-12-01",
  billingType: "PIX",
  value: "129.90",
  url: "https://merchant.example.com/webhooks/ponte",
  createdAt: "2026-11-21T20:38:35.123Z",
  updatedAt: "2026-11-21T20:38:35.123Z",
  requestId: "req_01JD6Z8XG4M1T0Q9W5Y2V3K7PA",
};

const SAMPLE_UUID = "01936d2b-5f3a-7c4e-9b1d-2a6f8e0c4d57";
const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  uuid: SAMPLE_UUID,
  date: "2026-12-01",
  "date-time": "2026-11-21T20:38:35.123Z",
  email: "maria@example.com",
  uri: "https://merchant.example.com/webhooks/ponte",
  url: "https://merchant.example.com/webhooks/ponte",
  ipv4: "203.0.113.7",
};

/** Beyond this depth (nested objects, followed references) an example stops: enough to read, no cycles. */
const MAX_DEPTH = 6;

const isSchema = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

/** The first type a schema allows that is not "null" (`type: ["string", "null"]` reads as string). */
function typeOf(schema: Schema): string | undefined {
  const t = schema.type;
  if (Array.isArray(t)) return t.find((x) => x !== "null") as string | undefined;
  if (typeof t === "string") return t;
  if (isSchema(schema.properties)) return "object";
  if (schema.items !== undefined) return "array";
  return undefined;
}

function stringExample(schema: Schema, field: string | undefined): string {
  if (typeof schema.format === "string" && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format] as string;
  if (field && FIELD_EXAMPLES[field]) return FIELD_EXAMPLES[field] as string;
  if (field && /(^id$|Id$|^(customer|subscription|payment|plan|installment|endpoint|workspace)$)/.test(field)) return SAMPLE_UUID;
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const text = field ?? "string";
  return text.length >= min ? text : text.padEnd(min, "x");
}

function numberExample(schema: Schema, integer: boolean): number {
  const min =
    typeof schema.minimum === "number" ? schema.minimum : typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : 1;
  const max = typeof schema.maximum === "number" ? schema.maximum : undefined;
  const value = max !== undefined && min > max ? max : min;
  return integer ? Math.ceil(value) : value;
}

/**
 * An example value for a JSON schema of the document: its own `example`/`examples`/`default`/`const`/
 * first `enum` value when it has one, else one built from its type, following `$ref`s into
 * `schemas` (components.schemas). Undefined for a schema that says nothing usable.
 */
export function exampleOf(schema: unknown, schemas: Schemas, field?: string, depth = 0, seen: readonly string[] = []): unknown {
  if (!isSchema(schema) || depth > MAX_DEPTH) return undefined;
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.replace("#/components/schemas/", "");
    if (seen.includes(name)) return undefined;
    return exampleOf(schemas[name], schemas, field, depth + 1, [...seen, name]);
  }
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null);
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const option = options.find((o) => isSchema(o) && o.type !== "null") ?? options[0];
      return exampleOf(option, schemas, field, depth + 1, seen);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((s) => exampleOf(s, schemas, field, depth + 1, seen));
    return parts.every(isSchema) ? Object.assign({}, ...parts) : parts.find((p) => p !== undefined);
  }
  switch (typeOf(schema)) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(isSchema(schema.properties) ? schema.properties : {})) {
        const value = exampleOf(property, schemas, key, depth + 1, seen);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case "array": {
      const item = exampleOf(schema.items, schemas, field, depth + 1, seen);
      return item === undefined ? [] : [item];
    }
    case "string":
      return stringExample(schema, field);
    case "integer":
      return numberExample(schema, true);
    case "number":
      return numberExample(schema, false);
    case "boolean":
      return true;
    default:
      return undefined;
  }
}

/** What a sample error of each code says, with its details (the messages the API sends). */
const ERROR_SAMPLES: Readonly<Partial<Record<ErrorCode, { message: string; details?: Record<string, unknown> }>>> = {
  VALIDATION_FAILED: {
    message: "Invalid request body: body.value.",
    details: { fields: [{ path: "body.value", message: "Too small: expected number to be >0", code: "too_small" }] },
  },
  MALFORMED_JSON: { message: "Request body is not valid JSON." },
  IDEMPOTENCY_KEY_INVALID: { message: "Idempotency-Key must be 1 to 255 characters." },
  UNAUTHORIZED: { message: "Invalid API key." },
  ENVIRONMENT_MISMATCH: {
    message: "This host accepts test keys (ponte_test_…); the key sent is a live key.",
    details: { hostEnvironment: "sandbox" },
  },
  FORBIDDEN: { message: "This credential lacks the 'payments.manage' permission.", details: { requiredPermission: "payments.manage" } },
  NOT_FOUND: { message: `No record with id '${SAMPLE_UUID}'.`, details: { id: SAMPLE_UUID } },
  CONFLICT: { message: "A record with these fields already exists." },
  IDEMPOTENCY_KEY_IN_USE: { message: "A request with this Idempotency-Key is being processed; retry shortly." },
  INVALID_STATE: { message: `The record's status does not allow this change.`, details: { status: "REFUNDED" } },
  GATEWAY_ACCOUNT_MISSING: {
    message:
      "This workspace has no gateway account for the test environment. Create one with POST /api/v1/gateway-accounts (your upstream API key) before calling the upstream.",
    details: { workspaceId: SAMPLE_UUID, environment: "test" },
  },
  PAYLOAD_TOO_LARGE: { message: "Request body exceeds the limit of 1048576 bytes.", details: { limitBytes: 1048576 } },
  UNSUPPORTED_MEDIA_TYPE: { message: "Request bodies must be application/json (multipart/form-data for document uploads)." },
  IDEMPOTENCY_KEY_REUSED: { message: "This Idempotency-Key was already used with a different request (method, path or body)." },
  LIMIT_EXCEEDED: {
    message: "Formula 'margin' cannot be evaluated: a value reached 1.000e+16, past the bound of ±1e15.",
    details: { key: "margin", limit: "1e15" },
  },
  RATE_LIMITED: { message: "Too many requests for this credential; retry after 12 seconds.", details: { retryAfterSeconds: 12 } },
  INTERNAL_ERROR: { message: INTERNAL_ERROR_MESSAGE },
  UPSTREAM_ERROR: { message: "The upstream provider answered 500." },
  UPSTREAM_AUTH_FAILED: { message: "The upstream provider rejected the gateway account's credential." },
  NOT_READY: { message: "Database migrations are not all applied." },
  UPSTREAM_TIMEOUT: { message: "The upstream provider did not answer in time." },
};

/** The codes a status documents an example for: the ones with a sample, in the order of src/http/errors.ts. */
const codesOf = (status: number) =>
  (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => ERROR_STATUS[code] === status && ERROR_SAMPLES[code]);

const errorEnvelope = (code: ErrorCode, message: string, details: Record<string, unknown>) => ({
  error: { code, message, details, requestId: FIELD_EXAMPLES.requestId },
});

/** `components.examples`: one error-envelope example per error code, named `Error<CODE>`, that operations refer to. */
export function errorExampleComponents(): Record<string, { summary: string; value: unknown }> {
  const out: Record<string, { summary: string; value: unknown }> = {};
  for (const [code, sample] of Object.entries(ERROR_SAMPLES) as [ErrorCode, { message: string; details?: Record<string, unknown> }][]) {
    out[`Error${code}`] = { summary: code, value: errorEnvelope(code, sample.message, sample.details ?? {}) };
  }
  return out;
}

/**
 * Named examples (`examples` of a media type) of the error envelope for a status, one per code, as
 * references to `components.examples` (errorExampleComponents); a 403 names the operation's own
 * permission inline. Empty for a status with no known code.
 */
export function errorExamples(status: number, permission?: string): Record<string, { summary: string; value: unknown } | { $ref: string }> {
  const out: Record<string, { summary: string; value: unknown } | { $ref: string }> = {};
  for (const code of codesOf(status)) {
    out[code] =
      code === "FORBIDDEN" && permission
        ? {
            summary: code,
            value: errorEnvelope(code, `This credential lacks the '${permission}' permission.`, { requiredPermission: permission }),
          }
        : { $ref: `#/components/examples/Error${code}` };
  }
  return out;
}
