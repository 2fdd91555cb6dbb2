// One vocabulary per dialect: what the upstream answers a passthrough call, and what it sends in an
// event Ponte re-emits as `upstream.<EVENT>`, said in Ponte's conventions for the Bearer dialect. The
// per-operation shapes (src/compat/upstream-shapes.ts) say which fields are money, dates, date-times
// and ids; only those change, everything else goes as the upstream sent it:
// - money (JSON numbers of reais) → decimal strings, `50` → "50.00" (src/lib/money.ts, never rounded);
// - date-times (`YYYY-MM-DD HH:mm:ss`, São Paulo wall time) → ISO 8601 UTC, `…T20:00:00.000Z`;
// - dates (`YYYY-MM-DD`) stay as they are;
// - the upstream's list envelope → Ponte's: the items as `data`, its paging as `meta.pagination`;
// - the id of a customer, payment, subscription or installment plan this workspace holds → the Ponte
//   UUID (and a reference to one in the fields that name them); such objects also carry `upstreamId`.
// Pure: the Ponte ids come in a map the caller looked up (upstreamIdsOf* say which ids to look up).
// Imported lazily (it pulls in the shapes module), never from the worker entry.
import type { Pagination } from "../http/pagination";
import { upstreamMoneyToDecimal } from "../lib/money";
import { zonedDateTimeToUtc } from "../lib/time-zones";
import { UPSTREAM_DTO_NAMES, type UpstreamDto, upstreamDto, upstreamShape } from "./upstream-shapes";

/** The upstream's wall clock: its date-times carry no offset. */
export const UPSTREAM_TIME_ZONE = "America/Sao_Paulo";

/** Objects Ponte keeps native records of (by the DTO's `object`): their ids may have a Ponte UUID. */
const HELD_OBJECTS = new Set(["customer", "payment", "subscription", "installment"]);
/** Fields that reference a record of one of those kinds. */
const HELD_REFERENCES = new Set(["customer", "customerId", "payment", "paymentId", "subscription", "installment"]);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Upstream id → Ponte UUID, for the records this workspace holds. */
export type PonteIds = ReadonlyMap<string, string>;

export interface BearerAnswer {
  data: unknown;
  /** Set when the upstream answered a list: its paging in Ponte's words. */
  pagination?: Pagination;
}

/** The id fields of `dto` whose values may name a record Ponte holds. */
export function heldIdFields(dto: UpstreamDto): string[] {
  return dto.ids.filter((name) => (name === "id" ? dto.object !== undefined && HELD_OBJECTS.has(dto.object) : HELD_REFERENCES.has(name)));
}

function collectIds(value: unknown, dtoName: string, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectIds(item, dtoName, into);
    return;
  }
  if (!isObj(value)) return;
  const dto = upstreamDto(dtoName);
  for (const name of heldIdFields(dto)) {
    const id = value[name];
    if (typeof id === "string" && id !== "") into.add(id);
  }
  for (const [name, nested] of Object.entries(dto.nested)) collectIds(value[name], nested, into);
}

/** One DTO (or an array of them) in Ponte's conventions. */
export function toPonteDto(value: unknown, dtoName: string, ponteIds: PonteIds): unknown {
  if (Array.isArray(value)) return value.map((item) => toPonteDto(item, dtoName, ponteIds));
  if (!isObj(value)) return value;
  const dto = upstreamDto(dtoName);
  const out: Obj = { ...value };
  for (const name of dto.money) {
    const amount = out[name];
    if (typeof amount === "number") out[name] = upstreamMoneyToDecimal(amount);
    else if (Array.isArray(amount)) out[name] = amount.map((a) => (typeof a === "number" ? upstreamMoneyToDecimal(a) : a));
  }
  for (const name of dto.dateTimes) {
    const at = out[name];
    if (typeof at === "string") out[name] = zonedDateTimeToUtc(at, UPSTREAM_TIME_ZONE) ?? at;
  }
  for (const name of heldIdFields(dto)) {
    const id = out[name];
    if (typeof id !== "string") continue;
    if (name === "id") out.upstreamId = id;
    out[name] = ponteIds.get(id) ?? id;
  }
  for (const [name, nested] of Object.entries(dto.nested)) if (name in out) out[name] = toPonteDto(out[name], nested, ponteIds);
  return out;
}

/** The ids in an operation's answer that may name records Ponte holds (look these up, then call bearerAnswer). */
export function upstreamIdsOfAnswer(operationId: string, body: unknown): string[] {
  const shape = upstreamShape(operationId);
  const ids = new Set<string>();
  if (shape?.dto === undefined) return [];
  if (shape.response === "list") collectIds(isObj(body) ? body.data : undefined, shape.dto, ids);
  else if (shape.response === "object" || shape.response === "delete") collectIds(body, shape.dto, ids);
  return [...ids];
}

const count = (v: unknown, fallback: number) => (typeof v === "number" && Number.isSafeInteger(v) ? v : fallback);

/**
 * A passthrough answer in the Bearer dialect. A list becomes its items plus `pagination` (the
 * upstream's `limit`, `offset`, `totalCount`, `hasMore`); an answer that is not shaped as the shapes
 * say (or an operation without a DTO) goes as it came.
 */
export function bearerAnswer(operationId: string, body: unknown, ponteIds: PonteIds): BearerAnswer {
  const shape = upstreamShape(operationId);
  if (shape?.dto === undefined) return { data: body };
  if (shape.response === "list") {
    if (!isObj(body) || !Array.isArray(body.data)) return { data: body };
    const items = body.data;
    const limit = count(body.limit, items.length);
    const offset = count(body.offset, 0);
    const totalCount = count(body.totalCount, offset + items.length);
    const hasMore = typeof body.hasMore === "boolean" ? body.hasMore : offset + items.length < totalCount;
    return { data: toPonteDto(items, shape.dto, ponteIds), pagination: { limit, offset, totalCount, hasMore } };
  }
  if (shape.response === "object" || shape.response === "delete") return { data: toPonteDto(body, shape.dto, ponteIds) };
  return { data: body };
}

const dtoByObject = new Map<string, string | null>();

/** The DTO of an upstream `object` value (a webhook's payload carries no operation): the full one when several share it. */
function dtoForObject(object: string): string | undefined {
  if (!dtoByObject.has(object)) {
    const candidates = UPSTREAM_DTO_NAMES.filter((name) => upstreamDto(name).object === object);
    const best = candidates.find((name) => upstreamDto(name).source === "spec") ?? candidates[0];
    dtoByObject.set(object, best ?? null);
  }
  return dtoByObject.get(object) ?? undefined;
}

/** The DTO of a webhook envelope's entry: by its `object`, else by its key (`transfer`, `invoice`…). */
function entryDto(key: string, value: unknown): string | undefined {
  if (!isObj(value)) return undefined;
  return dtoForObject(typeof value.object === "string" ? value.object : key);
}

/** The ids in an upstream webhook envelope that may name records Ponte holds. */
export function upstreamIdsOfEvent(envelope: Obj): string[] {
  const ids = new Set<string>();
  for (const [key, value] of Object.entries(envelope)) {
    const dto = entryDto(key, value);
    if (dto) collectIds(value, dto, ids);
  }
  return [...ids];
}

/**
 * An upstream webhook envelope (`{id, event, dateCreated, payment: {…}}`) as an `upstream.*` event's
 * data: its `dateCreated` in UTC and each entry the shapes know (by its `object`, else its key) in
 * Ponte's conventions. The event's own `id` (the upstream's event id) and unknown entries stay.
 */
export function bearerEvent(envelope: Obj, ponteIds: PonteIds): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(envelope)) {
    const dto = entryDto(key, value);
    if (dto) out[key] = toPonteDto(value, dto, ponteIds);
    else if (key === "dateCreated" && typeof value === "string") out[key] = zonedDateTimeToUtc(value, UPSTREAM_TIME_ZONE) ?? value;
    else out[key] = value;
  }
  return out;
}
