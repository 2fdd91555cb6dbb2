// Checks a JSON value against an upstream shape (src/compat/upstream-shapes.ts): required fields present and
// non-null, present fields of the right type (money a number, dates "YYYY-MM-DD", date-times "YYYY-MM-DD HH:mm:ss",
// enums among their values, nested DTOs recursively), lists in the upstream envelope, deletes {deleted, id}.
// Extra fields are allowed (the upstream adds fields over time). Returns the problems, empty when the value fits.
// With `exact` (for answers Ponte shapes itself, the Asaas dialect's native objects): every field of the DTO is
// present (null where there is no value), and a DTO transcribed whole from the spec has no field it lacks,
// except the `allowed` ones ("Dto.field").
import { UPSTREAM_ENUMS, type UpstreamField, type UpstreamOperationShape, upstreamDto } from "../../src/compat/upstream-shapes";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export interface CheckOptions {
  exact?: { allowed: readonly string[] };
}

function checkScalar(field: UpstreamField, value: unknown, at: string, problems: string[], depth: number, options: CheckOptions): void {
  const bad = (want: string) => problems.push(`${at}: expected ${want}, got ${JSON.stringify(value)?.slice(0, 60)}`);
  switch (field.kind) {
    case "string":
    case "id":
      if (typeof value !== "string") bad(field.kind);
      return;
    case "integer":
      if (!Number.isInteger(value)) bad("integer");
      return;
    case "number":
    case "money":
      if (typeof value !== "number" || !Number.isFinite(value)) bad(field.kind);
      return;
    case "boolean":
      if (typeof value !== "boolean") bad("boolean");
      return;
    case "date":
      if (typeof value !== "string" || !DATE.test(value)) bad("date YYYY-MM-DD");
      return;
    case "datetime":
      if (typeof value !== "string" || !DATE_TIME.test(value)) bad("date-time YYYY-MM-DD HH:mm:ss");
      return;
    case "enum":
      if (!UPSTREAM_ENUMS[field.of ?? ""]?.includes(value as string)) bad(`one of ${field.of}`);
      return;
    case "object":
      if (!isRecord(value)) bad(`object ${field.of}`);
      else checkDto(field.of ?? "", value, at, problems, options, depth + 1);
      return;
    case "any":
      return;
  }
}

function checkDto(dtoName: string, value: Record<string, unknown>, at: string, problems: string[], options: CheckOptions, depth = 0): void {
  if (depth > 6) return;
  const dto = upstreamDto(dtoName);
  if (options.exact) {
    const known = new Set(dto.fields.map((f) => f.name));
    for (const field of dto.fields) if (!(field.name in value)) problems.push(`${at}.${field.name}: missing (null when there is no value)`);
    if (dto.source === "spec")
      for (const name of Object.keys(value))
        if (!known.has(name) && !options.exact.allowed.includes(`${dtoName}.${name}`))
          problems.push(`${at}.${name}: not a field of ${dtoName}`);
  }
  for (const field of dto.fields) {
    const where = `${at}.${field.name}`;
    const v = value[field.name];
    if (v === undefined || v === null) {
      if (field.required) problems.push(`${where}: required`);
      continue;
    }
    if (field.array) {
      if (!Array.isArray(v)) problems.push(`${where}: expected an array`);
      else for (const [i, item] of v.entries()) checkScalar(field, item, `${where}[${i}]`, problems, depth, options);
    } else checkScalar(field, v, where, problems, depth, options);
  }
  if (dto.object && value.object !== undefined && value.object !== dto.object) {
    problems.push(`${at}.object: expected "${dto.object}", got ${JSON.stringify(value.object)}`);
  }
}

/** Problems with `value` as the answer of an operation of this shape ([] when it fits). */
export function checkAnswer(shape: UpstreamOperationShape, value: unknown, options: CheckOptions = {}): string[] {
  const problems: string[] = [];
  if (shape.response === "file" || shape.response === "empty") return problems;
  if (!isRecord(value)) return [`answer: expected an object, got ${JSON.stringify(value)?.slice(0, 60)}`];
  if (shape.response === "list") {
    if (value.object !== "list") problems.push(`answer.object: expected "list"`);
    if (typeof value.hasMore !== "boolean") problems.push("answer.hasMore: expected boolean");
    for (const k of ["totalCount", "limit", "offset"]) if (!Number.isInteger(value[k])) problems.push(`answer.${k}: expected integer`);
    if (!Array.isArray(value.data)) return [...problems, "answer.data: expected an array"];
    value.data.forEach((item, i) => {
      if (!isRecord(item)) problems.push(`answer.data[${i}]: expected an object`);
      else checkDto(shape.dto ?? "", item, `answer.data[${i}]`, problems, options);
    });
    return problems;
  }
  checkDto(shape.dto ?? "", value, "answer", problems, options);
  if (shape.response === "delete" && value.deleted !== true) problems.push("answer.deleted: expected true");
  return problems;
}
