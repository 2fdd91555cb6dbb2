// Pure parsing and rendering of the upstream response shapes (no I/O), shared by
// scripts/generate-shapes.mjs and test/unit/upstream-shapes.test.ts.
// Source: scripts/catalogue/upstream-shapes.json (see its $comment); output: src/compat/upstream-shapes.ts.

const SCALARS = new Set(["string", "integer", "number", "boolean", "any", "money", "date", "datetime", "id"]);
const RESPONSES = new Set(["object", "list", "delete", "file", "empty"]);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parses one field token `name:type[!]` into its parts; throws on a malformed token.
 * @param {string} token
 */
export function parseField(token) {
  const at = token.indexOf(":");
  if (at <= 0) throw new Error(`field "${token}": expected name:type`);
  const name = token.slice(0, at);
  let type = token.slice(at + 1);
  const required = type.endsWith("!");
  if (required) type = type.slice(0, -1);
  const array = type.endsWith("[]");
  if (array) type = type.slice(0, -2);
  if (!NAME.test(name)) throw new Error(`field "${token}": bad name`);
  if (type.startsWith("enum:")) return { name, kind: "enum", of: type.slice(5), array, required };
  if (SCALARS.has(type)) return { name, kind: type, array, required };
  if (NAME.test(type)) return { name, kind: "object", of: type, array, required };
  throw new Error(`field "${token}": unknown type`);
}

/**
 * Parses and cross-checks upstream-shapes.json against the catalogue rows ({operationId, upstreamMethod, upstreamPath}).
 * Throws an Error listing every problem.
 * @param {string} jsonText
 * @param {{operationId: string, upstreamMethod: string, upstreamPath: string}[]} catalogue
 */
export function parseShapes(jsonText, catalogue) {
  const src = JSON.parse(jsonText);
  const problems = [];
  const enums = src.enums ?? {};
  const dtos = {};
  for (const [dtoName, dto] of Object.entries(src.dtos ?? {})) {
    const fields = [];
    for (const token of String(dto.fields ?? "")
      .split(/\s+/)
      .filter(Boolean)) {
      try {
        fields.push(parseField(token));
      } catch (err) {
        problems.push(`dto ${dtoName}: ${err.message}`);
      }
    }
    dtos[dtoName] = { ...dto, fields };
  }
  for (const [dtoName, dto] of Object.entries(dtos)) {
    for (const f of dto.fields) {
      if (f.kind === "enum" && !enums[f.of]) problems.push(`dto ${dtoName}.${f.name}: unknown enum ${f.of}`);
      if (f.kind === "object" && !dtos[f.of]) problems.push(`dto ${dtoName}.${f.name}: unknown dto ${f.of}`);
    }
    if (dto.kind === "delete" && dto.fields.map((f) => f.name).join(",") !== "deleted,id") {
      problems.push(`dto ${dtoName}: a delete answer has exactly deleted and id`);
    }
  }
  const operations = {};
  const byId = new Map(catalogue.map((op) => [op.operationId, op]));
  for (const [operationId, op] of Object.entries(src.operations ?? {})) {
    const cat = byId.get(operationId);
    const [method, path] = String(op.upstream).split(" ");
    if (!cat) problems.push(`operation ${operationId}: not in the catalogue`);
    else if (cat.upstreamMethod !== method || cat.upstreamPath !== path) {
      problems.push(`operation ${operationId}: upstream ${op.upstream} but the catalogue says ${cat.upstreamMethod} ${cat.upstreamPath}`);
    }
    const [response, dto] = String(op.response).split(" ");
    if (!RESPONSES.has(response)) problems.push(`operation ${operationId}: unknown response kind ${response}`);
    if ((response === "file" || response === "empty") !== (dto === undefined))
      problems.push(`operation ${operationId}: response ${op.response}`);
    if (dto !== undefined && !dtos[dto]) problems.push(`operation ${operationId}: unknown dto ${dto}`);
    if (response === "delete" && dtos[dto]?.kind !== "delete") problems.push(`operation ${operationId}: ${dto} is not a delete answer`);
    operations[operationId] = { method, path, en: op.en, response, dto, filters: op.filters ?? [] };
  }
  for (const op of catalogue) if (!operations[op.operationId]) problems.push(`operation ${op.operationId}: no shape`);
  if (problems.length > 0) throw new Error(`upstream-shapes.json:\n  ${problems.join("\n  ")}`);
  return { enums, dtos, operations };
}

const q = (s) => JSON.stringify(s);
const list = (xs) => `[${xs.map(q).join(", ")}]`;

/**
 * Renders src/compat/upstream-shapes.ts.
 * @param {string} jsonText
 * @param {{operationId: string, upstreamMethod: string, upstreamPath: string}[]} catalogue
 */
export function renderShapes(jsonText, catalogue) {
  const { enums, dtos, operations } = parseShapes(jsonText, catalogue);
  const token = (f) =>
    `${f.name}:${f.kind === "enum" ? `enum:${f.of}` : f.kind === "object" ? f.of : f.kind}${f.array ? "[]" : ""}${f.required ? "!" : ""}`;
  const out = [PRELUDE];
  out.push("export const UPSTREAM_ENUMS: Readonly<Record<string, readonly string[]>> = {");
  for (const [name, values] of Object.entries(enums)) out.push(`  ${name}: ${list(values)},`);
  out.push("};");
  out.push("");
  out.push("const DTOS: Readonly<Record<string, DtoSource>> = {");
  for (const [name, dto] of Object.entries(dtos)) {
    const parts = [];
    if (dto.object) parts.push(`object: ${q(dto.object)}`);
    if (dto.idPrefix) parts.push(`idPrefix: ${q(dto.idPrefix)}`);
    parts.push(`source: ${q(dto.source)}`);
    parts.push(`fields: ${q(dto.fields.map(token).join(" "))}`);
    out.push(`  ${name}: { ${parts.join(", ")} },`);
  }
  out.push("};");
  out.push("");
  out.push("/** Catalogue operationId → [upstream method, path, response kind, DTO, filters, en-US operationId]. */");
  out.push("const OPERATIONS: Readonly<Record<string, OperationSource>> = {");
  for (const [id, op] of Object.entries(operations)) {
    out.push(
      `  ${q(id)}: [${[q(op.method), q(op.path), q(op.response), q(op.dto ?? ""), q(op.filters.join(" ")), q(op.en ?? "")].join(", ")}],`,
    );
  }
  out.push("};");
  out.push(HELPERS);
  return `${out.join("\n")}\n`;
}

const PRELUDE = `// GENERATED by scripts/generate-shapes.mjs from scripts/catalogue/upstream-shapes.json — do not edit
// Regenerate with: npm run shapes. The upstream's (Asaas v3) success-answer shapes for the catalogue's 208
// operations (sources and field notation: the JSON's $comment). Import it lazily, never from the worker entry.

export type UpstreamScalar = "string" | "integer" | "number" | "boolean" | "any" | "money" | "date" | "datetime" | "id";

export interface UpstreamField {
  readonly name: string;
  readonly kind: UpstreamScalar | "enum" | "object";
  /** The enum's or the nested DTO's name. */
  readonly of?: string;
  readonly array: boolean;
  /** Always present and non-null in the upstream's answer. */
  readonly required: boolean;
}

export interface UpstreamDto {
  readonly name: string;
  /** The value of the DTO's \`object\` field, when it has one. */
  readonly object?: string;
  /** Prefix of the ids the simulator mints for it. */
  readonly idPrefix?: string;
  /** "spec": every field of the spec's schema; "core": the fields clients read. */
  readonly source: "spec" | "core";
  readonly fields: readonly UpstreamField[];
  /** Money fields: JSON numbers of reais upstream. */
  readonly money: readonly string[];
  /** Date fields: "YYYY-MM-DD". */
  readonly dates: readonly string[];
  /** Date-time fields: "YYYY-MM-DD HH:mm:ss" (upstream local time). */
  readonly dateTimes: readonly string[];
  /** Upstream identifiers. */
  readonly ids: readonly string[];
  /** Fields holding another DTO (or an array of them) → that DTO's name. */
  readonly nested: Readonly<Record<string, string>>;
}

export type UpstreamResponseKind = "object" | "list" | "delete" | "file" | "empty";

export interface UpstreamOperationShape {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** object: the DTO; list: the list envelope of DTOs; delete: {deleted, id}; file: a PDF; empty: 204 without a body. */
  readonly response: UpstreamResponseKind;
  readonly dto?: string;
  /** Documented query filters of a list (besides offset and limit). */
  readonly filters: readonly string[];
  /** The en-US docs' operationId, when known. */
  readonly en?: string;
}

interface DtoSource {
  readonly object?: string;
  readonly idPrefix?: string;
  readonly source: "spec" | "core";
  readonly fields: string;
}

type OperationSource = readonly [string, string, UpstreamResponseKind, string, string, string];
`;

const HELPERS = `
const resolvedDtos = new Map<string, UpstreamDto>();

function parseFieldToken(token: string): UpstreamField {
  const at = token.indexOf(":");
  const name = token.slice(0, at);
  let type = token.slice(at + 1);
  const required = type.endsWith("!");
  if (required) type = type.slice(0, -1);
  const array = type.endsWith("[]");
  if (array) type = type.slice(0, -2);
  if (type.startsWith("enum:")) return { name, kind: "enum", of: type.slice(5), array, required };
  if (/^[A-Z]/.test(type)) return { name, kind: "object", of: type, array, required };
  return { name, kind: type as UpstreamScalar, array, required };
}

/** A DTO with its fields parsed and grouped by role (memoised); throws for an unknown name. */
export function upstreamDto(name: string): UpstreamDto {
  const cached = resolvedDtos.get(name);
  if (cached) return cached;
  const src = DTOS[name];
  if (!src) throw new Error(\`unknown upstream DTO \${name}\`);
  const fields = src.fields.split(" ").map(parseFieldToken);
  const named = (kind: UpstreamField["kind"]) => fields.filter((f) => f.kind === kind).map((f) => f.name);
  const nested: Record<string, string> = {};
  for (const f of fields) if (f.kind === "object" && f.of) nested[f.name] = f.of;
  const dto: UpstreamDto = {
    name,
    object: src.object,
    idPrefix: src.idPrefix,
    source: src.source,
    fields,
    money: named("money"),
    dates: named("date"),
    dateTimes: named("datetime"),
    ids: named("id"),
    nested,
  };
  resolvedDtos.set(name, dto);
  return dto;
}

/** Names of every DTO. */
export const UPSTREAM_DTO_NAMES: readonly string[] = Object.keys(DTOS);

/** The shape of a catalogue operation's success answer, or undefined for an unknown operationId. */
export function upstreamShape(operationId: string): UpstreamOperationShape | undefined {
  const src = OPERATIONS[operationId];
  if (!src) return undefined;
  const [method, path, response, dto, filters, en] = src;
  return {
    operationId,
    method,
    path,
    response,
    dto: dto === "" ? undefined : dto,
    filters: filters === "" ? [] : filters.split(" "),
    en: en === "" ? undefined : en,
  };
}

/** Every catalogue operationId with a shape. */
export const UPSTREAM_OPERATION_IDS: readonly string[] = Object.keys(OPERATIONS);`;
