// Every list the API answers, derived rather than listed by hand, for the generated list test
// (list-pages.test.ts): the OpenAPI document's GET operations whose 200 answer carries
// `meta.pagination` (native compatibility lists and the platform's lists), with the query filters the
// document gives them; and the catalogue's passthrough GETs that the upstream answers with a list
// (src/compat/upstream-shapes.ts), with the upstream's documented filters (samples in upstream-lists.ts). Also the dialects a list is asked in,
// and what a page must look like in each.
import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import { CATALOGUE } from "../../src/compat/catalogue";
import type { OpenApiDocument, SchemaObject } from "../openapi-types";
import { BASE } from "./support";
import { upstreamDto, upstreamShape } from "../../src/compat/upstream-shapes";
import { FILTER_SAMPLES } from "./upstream-lists";

export interface Dialect {
  name: string;
  /** Where the API lives for this dialect: `/api/v1`, or `/v3` (the upstream's own layout). */
  root: "/api/v1" | "/v3";
  /** `ponte`: `{data, meta: {pagination}}`; `asaas`: the upstream's `{object: "list", …}`. */
  shape: "ponte" | "asaas";
  headers: (key: string) => Record<string, string>;
  /** Only the compatibility surface (the catalogue) lives under this root. */
  catalogueOnly: boolean;
}

export const DIALECTS: readonly Dialect[] = [
  {
    name: "Bearer under /api/v1",
    root: "/api/v1",
    shape: "ponte",
    headers: (k) => ({ Authorization: `Bearer ${k}` }),
    catalogueOnly: false,
  },
  { name: "access_token under /api/v1", root: "/api/v1", shape: "asaas", headers: (k) => ({ access_token: k }), catalogueOnly: false },
  { name: "access_token under /v3", root: "/v3", shape: "asaas", headers: (k) => ({ access_token: k }), catalogueOnly: true },
];

export interface Filter {
  name: string;
  /** The documented schema (document lists), or {} for the upstream's filters. */
  schema: SchemaObject;
  /** The value to send when the records do not suggest one (upstream filters carry their sample). */
  sample?: string;
}

export interface ListOperation {
  /** `GET /api/v1/payments`. */
  label: string;
  /** The documented path under /api/v1, with `{name}` placeholders. */
  path: string;
  operationId: string;
  /** Forwarded to the upstream: the page is the upstream's list (in Ponte's list envelope for Bearer callers). */
  passthrough: boolean;
  /** A catalogue operation (the upstream-compatible surface). */
  catalogue: boolean;
  pathParams: string[];
  filters: Filter[];
}

const PAGING = new Set(["limit", "offset"]);
const CATALOGUE_IDS = new Set(CATALOGUE.map((op) => op.operationId));

function resolve(doc: OpenApiDocument, schema: SchemaObject | undefined): SchemaObject | undefined {
  if (!schema?.$ref) return schema;
  return doc.components?.schemas?.[schema.$ref.split("/").pop() ?? ""];
}

/**
 * The document's paginated lists served by Ponte: a GET whose 200 JSON answer is an array `data` with
 * `meta.pagination` (required). Passthrough lists (documented the same way, from the upstream shapes) come from
 * passthroughLists, which knows their upstream records and filter samples.
 */
export function documentedLists(doc: OpenApiDocument): ListOperation[] {
  const out: ListOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const op = item.get;
    if (!op || op["x-implementation"] === "passthrough") continue;
    const body = resolve(doc, op.responses["200"]?.content?.["application/json"]?.schema);
    const meta = resolve(doc, body?.properties?.meta);
    if (!meta?.properties?.pagination || !meta.required?.includes("pagination")) continue;
    // A paged report (profitability: `data` is the report, its `rows` the page) has its own paging test.
    if (resolve(doc, body?.properties?.data)?.type !== "array") continue;
    out.push({
      label: `GET ${path}`,
      path,
      operationId: op.operationId,
      passthrough: false,
      catalogue: CATALOGUE_IDS.has(op.operationId),
      pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? ""),
      filters: (op.parameters ?? [])
        .filter((p) => p.in === "query" && !PAGING.has(p.name))
        .map((p) => ({ name: p.name, schema: p.schema ?? {} })),
    });
  }
  return out;
}

/** The catalogue's passthrough GETs that the upstream answers with a list (the generated shapes say which), with its documented filters. */
export function passthroughLists(): ListOperation[] {
  return CATALOGUE.filter(
    (op) => op.kind === "passthrough" && op.method === "GET" && upstreamShape(op.operationId)?.response === "list",
  ).map((op) => ({
    label: `GET ${op.path}`,
    path: op.path,
    operationId: op.operationId,
    passthrough: true,
    catalogue: true,
    pathParams: [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? ""),
    filters: (upstreamShape(op.operationId)?.filters ?? []).map((name) => ({
      name,
      schema: {},
      sample: FILTER_SAMPLES[op.operationId]?.[name],
    })),
  }));
}

/** The name says list (`listar-…`, "Listar …"): how the catalogue spells it, and the simulator's own rule. */
export const namedAsList = (op: { operationId: string; title: string }) =>
  op.operationId.startsWith("listar") || /^Listar\b/.test(op.title);

export type Item = Record<string, unknown>;

/** One page as a client reads it, whatever the dialect. */
export interface Page {
  items: Item[];
  limit: number;
  offset: number;
  totalCount: number;
  hasMore: boolean;
}

export interface Answer {
  status: number;
  body: unknown;
}

/** Query strings as Asaas clients write them: `dueDate[ge]=…` with the brackets as they are. */
const queryString = (query: Record<string, string | number>) =>
  Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k).replace(/%5B/gi, "[").replace(/%5D/gi, "]")}=${encodeURIComponent(String(v))}`)
    .join("&");

export async function getList(dialect: Dialect, key: string, path: string, query: Record<string, string | number>): Promise<Answer> {
  const url = `${BASE}${dialect.root}${path.slice("/api/v1".length)}?${queryString(query)}`;
  const res = await SELF.fetch(url, { headers: dialect.headers(key) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: kept as text, and the shape check says so */
  }
  return { status: res.status, body };
}

const isObj = (v: unknown): v is Item => typeof v === "object" && v !== null && !Array.isArray(v);

/** The upstream's list object: `{object: "list", hasMore, totalCount, limit, offset, data}`. */
export function asaasList(body: unknown): Page | null {
  if (!isObj(body) || body.object !== "list" || !Array.isArray(body.data) || !body.data.every(isObj)) return null;
  const { hasMore, totalCount, limit, offset } = body;
  if (typeof hasMore !== "boolean" || typeof totalCount !== "number" || typeof limit !== "number" || typeof offset !== "number")
    return null;
  return { items: body.data, limit, offset, totalCount, hasMore };
}

/** The page in `answer`, or a failure that says what came instead. */
export function pageOf(op: ListOperation, dialect: Dialect, answer: Answer): Page {
  const seen = JSON.stringify(answer.body).slice(0, 300);
  expect(answer.status, `${dialect.name} ${op.label}: ${seen}`).toBe(200);
  const body = answer.body;
  let page: Page | null = null;
  if (dialect.shape === "asaas") page = asaasList(body);
  else if (isObj(body) && isObj(body.meta)) {
    // A passthrough list in Ponte's vocabulary: the same list envelope, with the upstream's status in meta.
    if (op.passthrough) expect(isObj(body.meta.upstream) && body.meta.upstream.status, `${op.label}: meta.upstream`).toBe(200);
    if (Array.isArray(body.data) && body.data.every(isObj) && isObj(body.meta.pagination)) {
      const p = body.meta.pagination;
      if (typeof p.limit === "number" && typeof p.offset === "number" && typeof p.totalCount === "number" && typeof p.hasMore === "boolean")
        page = { items: body.data, limit: p.limit, offset: p.offset, totalCount: p.totalCount, hasMore: p.hasMore };
    }
  }
  if (!page) throw new Error(`${dialect.name} ${op.label}: not the documented list shape: ${seen}`);
  return page;
}

/** A page agrees with what was asked and with itself: size, offset, and hasMore against totalCount. */
export function expectConsistent(page: Page, asked: { limit: number; offset: number }, what: string) {
  expect(page.limit, `${what}: limit`).toBe(asked.limit);
  expect(page.offset, `${what}: offset`).toBe(asked.offset);
  expect(page.items.length, `${what}: at most limit entries`).toBeLessThanOrEqual(asked.limit);
  expect(page.items.length, `${what}: entries on this page of ${page.totalCount}`).toBe(
    Math.max(0, Math.min(asked.limit, page.totalCount - asked.offset)),
  );
  expect(page.hasMore, `${what}: hasMore with ${page.totalCount} in all`).toBe(asked.offset + page.items.length < page.totalCount);
}

const DECIMAL = /^-?\d+\.\d{2,}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const WALL_CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * A passthrough page speaks its caller's vocabulary (src/compat/bearer-vocabulary.ts): for Bearer callers
 * the money fields of its items are decimal strings and their date-times ISO 8601 UTC; in the Asaas dialect
 * they stay the upstream's JSON numbers of reais and São Paulo wall-clock times. The shapes say which fields.
 */
export function expectVocabulary(op: ListOperation, dialect: Dialect, page: Page, what: string) {
  const dtoName = op.passthrough ? upstreamShape(op.operationId)?.dto : undefined;
  if (!dtoName) return;
  const dto = upstreamDto(dtoName);
  const bearer = dialect.shape === "ponte";
  for (const item of page.items) {
    for (const name of dto.money) {
      const amount = item[name];
      if (amount === null || amount === undefined || Array.isArray(amount)) continue;
      if (bearer) expect(amount, `${what}: ${name} as a decimal string`).toMatch(DECIMAL);
      else expect(typeof amount, `${what}: ${name} as the upstream's number`).toBe("number");
    }
    for (const name of dto.dateTimes) {
      const at = item[name];
      if (typeof at === "string") expect(at, `${what}: ${name}`).toMatch(bearer ? ISO_UTC : WALL_CLOCK);
    }
  }
}
