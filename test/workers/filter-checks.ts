// What a documented list filter must do, derived from the filter's name and schema and from the records
// the list holds: the value is taken from a record of the unfiltered first page (so the filter has
// something to find), and every record the filtered list answers must satisfy it. A filter whose field
// the records do not show (includeDeleted, q, an empty list's filters) is still sent with a valid value
// and must answer a consistent page.
import { expect } from "vitest";
import type { SchemaObject } from "../openapi-types";
import type { Filter, Item, Page } from "./list-operations";

export type Relation = "eq" | "contains" | "ge" | "le" | "sent";

export interface FilterPlan {
  filter: Filter;
  value: string;
  relation: Relation;
  /** The record field the filter selects on, when the records show it. */
  field: string | null;
}

/** Free-text filters: a part of the field matches (`name=Silva` finds "Maria Silva"). */
const CONTAINS = new Set(["name", "q", "description", "searchText"]);
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T/;

/** The Brazilian civil day (UTC−03:00, the upstream's clock) of an instant. */
const brazilDay = (iso: string) => new Date(Date.parse(iso) - 3 * 3_600_000).toISOString().slice(0, 10);

function relationOf(name: string): { base: string; relation: Relation } {
  const range = /^(.+)\[(ge|le)\]$/i.exec(name);
  if (range) return { base: range[1] ?? name, relation: (range[2] ?? "").toLowerCase() as Relation };
  if (name === "from") return { base: name, relation: "ge" };
  if (name === "to") return { base: name, relation: "le" };
  return { base: name, relation: CONTAINS.has(name) ? "contains" : "eq" };
}

/** Where a filter's value is found on a record: its own name, `<name>Id`, or (from/to, dateCreated) the field the description names. */
function candidates(filter: Filter, base: string): string[] {
  if (base === "from" || base === "to") {
    const named = /^(\w+) on or (?:after|before)/.exec(filter.schema.description ?? "")?.[1];
    return named ? [named] : ["createdAt"];
  }
  if (base === "dateCreated") return ["dateCreated", "createdAt"];
  return [base, `${base}Id`];
}

const isDayFilter = (schema: SchemaObject) => typeof schema.pattern === "string" && schema.pattern.includes("\\d{4}-\\d{2}-\\d{2}$");

/** A record's value as the filter compares it (an instant against a day filter: its Brazilian day). */
function comparable(value: unknown, schema: SchemaObject): string | null {
  if (value === null || value === undefined || typeof value === "object") return null;
  const s = String(value);
  return isDayFilter(schema) && INSTANT.test(s) ? brazilDay(s) : s;
}

/** A valid value from the filter's schema alone (the records do not show the field). */
function schemaSample(filter: Filter): string {
  const { schema, name } = filter;
  if (filter.sample !== undefined) return filter.sample;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return String(schema.enum[0]);
  if (schema.format === "uuid") return crypto.randomUUID();
  if (schema.format === "date-time") return new Date(Date.now() - 30 * 86_400_000).toISOString();
  if (isDayFilter(schema)) return new Date().toISOString().slice(0, 10);
  if (schema.type === "integer" || schema.type === "number") return String(schema.minimum ?? 1);
  if (/Id$|^(customer|subscription|plan|installment|payment)$/.test(name)) return crypto.randomUUID();
  return "a";
}

/** The filter's value and what it must select, from the unfiltered first page's records. */
export function planFilter(filter: Filter, items: Item[]): FilterPlan {
  const { base, relation } = relationOf(filter.name);
  for (const field of candidates(filter, base)) {
    const values = items.map((i) => comparable(i[field], filter.schema)).filter((v): v is string => v !== null);
    if (values.length === 0) continue;
    const sorted = relation === "ge" || relation === "le" ? [...values].sort() : values;
    const value = sorted[Math.floor(sorted.length / 2)] ?? "";
    if (relation !== "contains" && isDayFilter(filter.schema) && !DAY.test(value)) continue;
    return { filter, value, relation, field };
  }
  return { filter, value: schemaSample(filter), relation: "sent", field: null };
}

function satisfies(plan: FilterPlan, item: Item): boolean {
  if (!plan.field) return true;
  const v = comparable(item[plan.field], plan.filter.schema);
  if (v === null) return false;
  switch (plan.relation) {
    case "eq":
      return v === plan.value;
    case "contains":
      return v.toLowerCase().includes(plan.value.toLowerCase());
    case "ge":
      return v >= plan.value;
    case "le":
      return v <= plan.value;
    default:
      return true;
  }
}

/** The filtered page keeps only records that satisfy the filter, finds the record the value came from, and never grows the list. */
export function expectFiltered(plan: FilterPlan, unfiltered: Page, filtered: Page, what: string) {
  if (!plan.field) return;
  const wrong = filtered.items.filter((i) => !satisfies(plan, i)).map((i) => `${String(i.id)}: ${JSON.stringify(i[plan.field ?? ""])}`);
  expect(wrong, `${what}: records that do not satisfy ${plan.filter.name}=${plan.value}`).toEqual([]);
  expect(filtered.totalCount, `${what}: the record the value came from`).toBeGreaterThanOrEqual(1);
  expect(filtered.totalCount, `${what}: a filter never adds records`).toBeLessThanOrEqual(unfiltered.totalCount);
}
