// The reference's side of "one vocabulary per dialect": what a Bearer caller receives from each
// passthrough operation, as JSON Schema components derived from the generated upstream shapes
// (src/compat/upstream-shapes.ts) the way src/compat/bearer-vocabulary.ts converts an answer —
// money as decimal strings, date-times in ISO 8601 UTC, a list's items in Ponte's list envelope,
// held records by their Ponte UUID with `upstreamId` beside. Applied to the generated document
// before its finishing pass (src/app.ts, openApiDocumentOf); loaded only when a document is built,
// since it carries the shapes module.
import { heldIdFields } from "./bearer-vocabulary";
import { catalogueOperation } from "./catalogue-route";
import { UPSTREAM_ENUMS, type UpstreamField, upstreamDto, upstreamShape } from "./upstream-shapes";

type Schema = Record<string, unknown>;

interface Operation {
  operationId?: string;
  "x-implementation"?: string;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

interface Document {
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components?: { schemas?: Record<string, unknown> };
}

/** Component names: the upstream's DTO and enum names under one prefix, clear of Ponte's own schemas. */
const PREFIX = "Upstream";
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${PREFIX}${name}` });

/** What the upstream may leave out or send as null (every field the shapes do not mark `!`). */
function nullable(schema: Schema): Schema {
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

const MONEY: Schema = {
  type: "string",
  pattern: "^-?\\d+\\.\\d{2,}$",
  description: 'Money in reais as a decimal string, at least 2 decimals ("50.00"; a value finer than a centavo keeps its exact digits).',
  example: "129.90",
};
const DATE_TIME: Schema = {
  type: "string",
  format: "date-time",
  description: "ISO 8601 UTC (the upstream's São Paulo wall clock, converted).",
};
const HELD_ID_DESCRIPTION = "The Ponte UUID when this workspace holds the record, else the upstream's id.";

/** One field's value (one item of it when it is an array), registering the enum or nested DTO it names. */
function valueSchema(field: UpstreamField, held: boolean, need: (kind: "dto" | "enum", name: string) => void): Schema {
  switch (field.kind) {
    case "money":
      return MONEY;
    case "datetime":
      return DATE_TIME;
    case "date":
      return { type: "string", format: "date" };
    case "id":
      return held ? { type: "string", description: HELD_ID_DESCRIPTION } : { type: "string", description: "The upstream's id." };
    case "string":
      return { type: "string" };
    case "integer":
      return { type: "integer" };
    case "number":
      return { type: "number" };
    case "boolean":
      return { type: "boolean" };
    case "enum":
      need("enum", field.of ?? "");
      return ref(field.of ?? "");
    case "object":
      need("dto", field.of ?? "");
      return ref(field.of ?? "");
    case "any":
      return {};
  }
}

/** A DTO as a Bearer caller reads it: every field the shapes list (required: the `!` ones), unknown fields allowed. */
function dtoSchema(name: string, need: (kind: "dto" | "enum", name: string) => void): Schema {
  const dto = upstreamDto(name);
  const held = new Set(heldIdFields(dto));
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const field of dto.fields) {
    let schema = valueSchema(field, held.has(field.name), need);
    if (field.name === "object" && dto.object !== undefined) schema = { type: "string", const: dto.object };
    if (field.array) schema = { type: "array", items: schema };
    properties[field.name] = field.required ? schema : nullable(schema);
    if (field.required) required.push(field.name);
  }
  if (held.has("id")) {
    properties.upstreamId = { type: "string", description: "The upstream's id of the record (as its dashboard shows it)." };
    if (required.includes("id")) required.push("upstreamId");
  }
  const description = [
    `The upstream's \`${name}\` in Ponte's vocabulary.`,
    dto.source === "core"
      ? "The fields clients read; the upstream may send more, as it sent them."
      : "The upstream may add fields, sent as they came.",
  ].join(" ");
  return { type: "object", description, properties, ...(required.length ? { required } : {}) };
}

const META: Schema = {
  type: "object",
  required: ["requestId", "upstream"],
  properties: {
    requestId: { type: "string" },
    upstream: {
      type: "object",
      required: ["status", "durationMs"],
      properties: { status: { type: "integer", description: "The upstream's HTTP status." }, durationMs: { type: "integer" } },
    },
  },
};
const PAGE_META: Schema = {
  ...META,
  required: ["requestId", "pagination", "upstream"],
  properties: {
    ...(META.properties as Schema),
    pagination: {
      type: "object",
      description: "The upstream list's paging.",
      required: ["limit", "offset", "totalCount", "hasMore"],
      properties: {
        limit: { type: "integer" },
        offset: { type: "integer" },
        totalCount: { type: "integer" },
        hasMore: { type: "boolean" },
      },
    },
  },
};
const META_REF: Schema = { $ref: "#/components/schemas/PassthroughMeta" };
const PAGE_META_REF: Schema = { $ref: "#/components/schemas/PassthroughPageMeta" };
const EMPTY: Schema = { type: "string", maxLength: 0, description: "The upstream answered no body." };

/** The success body of an operation with an upstream shape; undefined for a file or an unknown operation. */
function answerSchema(operationId: string, need: (kind: "dto" | "enum", name: string) => void): Schema | undefined {
  const shape = upstreamShape(operationId);
  if (!shape || shape.response === "file") return undefined;
  if (shape.response === "empty") return { type: "object", required: ["data", "meta"], properties: { data: EMPTY, meta: META_REF } };
  if (!shape.dto) return undefined;
  need("dto", shape.dto);
  if (shape.response === "list")
    return {
      type: "object",
      required: ["data", "meta"],
      properties: { data: { type: "array", items: ref(shape.dto) }, meta: PAGE_META_REF },
    };
  return { type: "object", required: ["data", "meta"], properties: { data: ref(shape.dto), meta: META_REF } };
}

/**
 * Gives each passthrough operation's success response (application/json) its own schema, from the
 * upstream shapes in Ponte's vocabulary, and adds the DTOs and enums they reference (once each) to
 * `components.schemas`. Operations without a shape keep the generic answer. Returns the document.
 */
export function describePassthroughAnswers<D extends Document>(doc: D): D {
  const components: Record<string, unknown> = {};
  const pending: ["dto" | "enum", string][] = [];
  const need = (kind: "dto" | "enum", name: string) => {
    if (!(`${PREFIX}${name}` in components)) {
      components[`${PREFIX}${name}`] = true; // reserved; filled below
      pending.push([kind, name]);
    }
  };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op?.["x-implementation"] !== "passthrough" || !op.operationId) continue;
      const response = op.responses?.[String(catalogueOperation(op.operationId).successStatus)];
      const media = response?.content?.["application/json"];
      const schema = media ? answerSchema(op.operationId, need) : undefined;
      // A new media object rather than an edit: the generator may share them between operations.
      if (response?.content && media && schema) response.content = { ...response.content, "application/json": { ...media, schema } };
    }
  }
  for (let next = pending.shift(); next; next = pending.shift()) {
    const [kind, name] = next;
    components[`${PREFIX}${name}`] = kind === "enum" ? { type: "string", enum: [...(UPSTREAM_ENUMS[name] ?? [])] } : dtoSchema(name, need);
  }
  components.PassthroughMeta = META;
  components.PassthroughPageMeta = PAGE_META;
  const schemas = doc.components?.schemas ?? {};
  for (const name of Object.keys(components))
    if (name in schemas) throw new Error(`component '${name}' already in the document: rename the upstream shapes' prefix`);
  doc.components = { ...doc.components, schemas: { ...schemas, ...components } };
  return doc;
}
