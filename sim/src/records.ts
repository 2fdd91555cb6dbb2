// Shape-driven records: a new record of an upstream DTO carries every field of its shape, filled from the
// request where the request names the field with a value of the right type, else a default (required fields)
// or null. Generic collections and per-path singletons live on the account (state.ts).
import { UPSTREAM_ENUMS, type UpstreamField, upstreamDto } from "../../src/compat/upstream-shapes";
import { asNumber, dateTime, isObject, isoDate, money, newId, type Json } from "./http";
import type { Account } from "./state";

/**
 * One of the upstream's enums (src/compat/upstream-shapes.ts, generated from its API reference): the simulator
 * checks a request against it instead of keeping its own copy. A name the reference lacks fails at load.
 */
export function upstreamEnum<T extends string = string>(name: string): readonly T[] {
  const values = UPSTREAM_ENUMS[name];
  if (!values) throw new Error(`src/compat/upstream-shapes.ts has no enum ${name}`);
  return values as readonly T[];
}

function defaultOf(field: UpstreamField): unknown {
  if (field.array) return [];
  switch (field.kind) {
    case "string":
    case "id":
      return "";
    case "integer":
    case "number":
    case "money":
      return 0;
    case "boolean":
      return false;
    case "date":
      return isoDate();
    case "datetime":
      return dateTime();
    case "enum":
      return UPSTREAM_ENUMS[field.of ?? ""]?.[0] ?? "";
    case "object":
      return blankRecord(field.of ?? "", {});
    default:
      return null;
  }
}

/** `value` as the field's type, or undefined when it does not fit. */
function coerce(field: UpstreamField, value: unknown): unknown {
  if (value === null) return field.required ? undefined : null;
  if (field.array) return Array.isArray(value) ? value : undefined;
  switch (field.kind) {
    case "string":
    case "id":
      return typeof value === "string" ? value : undefined;
    case "integer": {
      const n = asNumber(value);
      return n !== undefined && Number.isInteger(n) ? n : undefined;
    }
    case "number":
      return asNumber(value);
    case "money": {
      const n = asNumber(value);
      return n === undefined ? undefined : money(n);
    }
    case "boolean":
      return typeof value === "boolean" ? value : value === "true" ? true : value === "false" ? false : undefined;
    case "date":
      return typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
    case "datetime":
      return typeof value === "string" && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value) ? value : undefined;
    case "enum":
      return UPSTREAM_ENUMS[field.of ?? ""]?.includes(value as string) ? value : undefined;
    case "object":
      return isObject(value) ? blankRecord(field.of ?? "", value) : undefined;
    default:
      return value;
  }
}

/** A record of `dtoName` with every field: from `input` when it fits the field, else a default (required) or null. */
export function blankRecord(dtoName: string, input: Json): Json {
  const dto = upstreamDto(dtoName);
  const record: Json = {};
  for (const field of dto.fields) {
    const given = input[field.name] === undefined ? undefined : coerce(field, input[field.name]);
    record[field.name] = given !== undefined ? given : field.required ? defaultOf(field) : null;
  }
  if (dto.object) record.object = dto.object;
  if ("id" in record && (record.id === "" || record.id === null)) record.id = dto.idPrefix ? newId(dto.idPrefix) : crypto.randomUUID();
  return record;
}

/** Applies the fields of `input` that fit the DTO onto `record` (an update); returns the names changed. */
export function applyFields(dtoName: string, record: Json, input: Json, except: readonly string[] = ["id", "object"]): string[] {
  const changed: string[] = [];
  for (const field of upstreamDto(dtoName).fields) {
    if (except.includes(field.name) || input[field.name] === undefined) continue;
    const value = coerce(field, input[field.name]);
    if (value === undefined) continue;
    record[field.name] = value;
    changed.push(field.name);
  }
  return changed;
}

/** The account's generic collection `name` (created on first use), insertion-ordered. */
export function collection(account: Account, name: string): Map<string, Json> {
  let c = account.records.get(name);
  if (!c) {
    c = new Map();
    account.records.set(name, c);
  }
  return c;
}

/** Sums money values in integer cents (no floating-point drift), answered as reais. */
export function sumMoney(values: Iterable<unknown>): number {
  let cents = 0;
  for (const v of values) cents += Math.round((asNumber(v) ?? 0) * 100);
  return cents / 100;
}
