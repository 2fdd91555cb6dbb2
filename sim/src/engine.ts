// The shape-driven resource engine: handlers for collections of upstream records (create, list with the
// documented filters and offset/limit, get, update, delete, status actions) and per-path singletons.
// Records are built from the operation's DTO (records.ts), so every answer carries the documented fields.
import { upstreamDto, upstreamShape } from "../../src/compat/upstream-shapes";
import { bodyObject, type Handler, type SimContext } from "./context";
import { badRequest, isObject, listBody, notFound, readPage, type Json } from "./http";
import { applyFields, blankRecord, collection } from "./records";

export interface Resource {
  /** The DTO its records have. */
  dto: string;
  /** The collection's name on the account; nested collections include the parent id (e.g. `documents:pay_…`). */
  key: (ctx: SimContext) => string;
  /** The path parameter naming one record (default `id`). */
  param?: string;
  /** The 404 description. */
  missing: string;
  /** Checks the parent exists before a nested collection is touched (throws a 404). */
  parent?: (ctx: SimContext) => void;
}

export type Init = (ctx: SimContext, record: Json, body: Json) => void;

/** A top-level collection named `name`. */
export const resource = (name: string, dto: string, missing: string): Resource => ({ dto, key: () => name, missing });

export function find(ctx: SimContext, r: Resource, id = ctx.params[r.param ?? "id"]): Json {
  r.parent?.(ctx);
  const record = id ? collection(ctx.account, r.key(ctx)).get(id) : undefined;
  if (!record) throw notFound(r.missing);
  return record;
}

/** Requires each named body field to be present and non-empty (400 `invalid_<field>`). */
export function requireFields(body: Json, fields: readonly string[]): void {
  for (const f of fields) {
    const v = body[f];
    if (v === undefined || v === null || v === "") throw badRequest(`invalid_${f}`, `O campo ${f} deve ser informado.`);
  }
}

/** Stores a new record built from the body (validated by `requires` and `init`, which may throw before anything is stored). */
export function insert(ctx: SimContext, r: Resource, body: Json, init?: Init, requires: readonly string[] = []): Json {
  r.parent?.(ctx);
  requireFields(body, requires);
  const record = blankRecord(r.dto, body);
  init?.(ctx, record, body);
  collection(ctx.account, r.key(ctx)).set(String(record.id), record);
  return record;
}

export const createIn =
  (r: Resource, requires: readonly string[] = [], init?: Init): Handler =>
  (ctx) =>
    insert(ctx, r, formOrBody(ctx), init, requires);

/** The JSON body, or a multipart body's text fields (file parts are described by name). */
export function formOrBody(ctx: SimContext): Json {
  if (!ctx.form) return bodyObject(ctx);
  const out: Json = {};
  for (const [name, value] of ctx.form.entries()) out[name] = typeof value === "string" ? value : { name: value.name, size: value.size };
  return out;
}

const RANGE = /^(.+)\[(ge|le)\]$/i;

/** The records matching the operation's documented filters: equality on same-named fields, [ge]/[le] ranges. */
export function applyFilters(ctx: SimContext, dto: string, records: Json[]): Json[] {
  const shape = ctx.operation ? upstreamShape(ctx.operation.operationId) : undefined;
  const names = new Set(upstreamDto(dto).fields.map((f) => f.name));
  let out = records;
  for (const filter of shape?.filters ?? []) {
    const want = ctx.query.get(filter);
    if (want === null || want === "") continue;
    const range = RANGE.exec(filter);
    if (range) {
      const [, field = "", bound = ""] = range;
      if (!names.has(field)) continue;
      out = out.filter((r) => {
        const v = String(r[field] ?? "").slice(0, 10);
        return v !== "" && (bound.toLowerCase() === "ge" ? v >= want : v <= want);
      });
    } else if (names.has(filter)) {
      out = out.filter((r) => String(r[filter]) === want);
    }
  }
  return out;
}

/** Newest first, filtered and paged. */
export function listRecords(ctx: SimContext, dto: string, records: Iterable<Json>): Json {
  return listBody(applyFilters(ctx, dto, [...records].reverse()), readPage(ctx.query));
}

export const listIn =
  (r: Resource): Handler =>
  (ctx) => {
    r.parent?.(ctx);
    return listRecords(ctx, r.dto, collection(ctx.account, r.key(ctx)).values());
  };

export const getIn =
  (r: Resource): Handler =>
  (ctx) =>
    find(ctx, r);

export const updateIn =
  (r: Resource, init?: Init): Handler =>
  (ctx) => {
    const record = find(ctx, r);
    const body = formOrBody(ctx);
    const next = structuredClone(record);
    applyFields(r.dto, next, body);
    init?.(ctx, next, body);
    Object.assign(record, next);
    return record;
  };

/** Removes the record; answers `{deleted: true, id}`. */
export const removeIn =
  (r: Resource): Handler =>
  (ctx) => {
    const record = find(ctx, r);
    collection(ctx.account, r.key(ctx)).delete(String(record.id));
    return { deleted: true, id: record.id };
  };

/** Moves the record to `status` when it is in one of `from`; answers the record. */
export const statusIn =
  (r: Resource, status: string, from: readonly string[], extra?: Init): Handler =>
  (ctx) => {
    const record = find(ctx, r);
    if (!from.includes(String(record.status))) {
      throw badRequest("invalid_action", `Não é possível alterar para ${status} um registro com situação ${String(record.status)}.`);
    }
    record.status = status;
    extra?.(ctx, record, formOrBody(ctx));
    return record;
  };

/** A per-path setting the upstream keeps one of: GET answers it (defaults until saved), POST/PUT merge the body. */
export function singleton(dto: string, defaults: Json, key?: (ctx: SimContext) => string): { get: Handler; save: Handler } {
  const keyOf = (ctx: SimContext) => (key ? key(ctx) : ctx.path.replace(/\/+$/, ""));
  const current = (ctx: SimContext) => {
    const k = keyOf(ctx);
    let record = ctx.account.singletons.get(k);
    if (!record) {
      record = blankRecord(dto, defaults);
      ctx.account.singletons.set(k, record);
    }
    return record;
  };
  return {
    get: current,
    save: (ctx) => {
      const record = current(ctx);
      const body = formOrBody(ctx);
      if (!isObject(body) || Object.keys(body).length === 0) throw badRequest("invalid_body", "Informe os campos a salvar.");
      applyFields(dto, record, body);
      return record;
    },
  };
}
