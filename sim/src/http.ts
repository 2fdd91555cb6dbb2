// Upstream-shaped HTTP helpers: JSON bodies, the error envelope, list paging, ids and dates.

export type Json = Record<string, unknown>;

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  const h = new Headers(headers);
  if (!h.has("content-type")) h.set("content-type", "application/json");
  return new Response(JSON.stringify(body), { status, headers: h });
}

/** The upstream error envelope: `{ errors: [{ code, description }] }`. */
export function errorResponse(status: number, code: string, description: string): Response {
  return json({ errors: [{ code, description }] }, status);
}

/** Thrown by handlers to answer with an upstream error. */
export class UpstreamError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
  ) {
    super(`${status} ${code}: ${description}`);
  }
  toResponse(): Response {
    return errorResponse(this.status, this.code, this.description);
  }
}

export const badRequest = (code: string, description: string) => new UpstreamError(400, code, description);
export const notFound = (description = "Recurso não encontrado") => new UpstreamError(404, "not_found", description);

export interface Page {
  offset: number;
  limit: number;
}

/** Reads `offset`/`limit` (limit 1..100, default 10) or throws a 400. */
export function readPage(query: URLSearchParams): Page {
  const rawLimit = query.get("limit");
  const rawOffset = query.get("offset");
  const limit = rawLimit === null || rawLimit === "" ? 10 : Number(rawLimit);
  const offset = rawOffset === null || rawOffset === "" ? 0 : Number(rawOffset);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw badRequest("invalid_limit", "O parâmetro limit deve ser um número inteiro entre 1 e 100.");
  }
  if (!Number.isInteger(offset) || offset < 0) {
    throw badRequest("invalid_offset", "O parâmetro offset deve ser um número inteiro maior ou igual a 0.");
  }
  return { offset, limit };
}

export function listBody<T>(items: readonly T[], page: Page): Json {
  const data = items.slice(page.offset, page.offset + page.limit);
  return {
    object: "list",
    hasMore: page.offset + data.length < items.length,
    totalCount: items.length,
    limit: page.limit,
    offset: page.offset,
    data,
  };
}

const ALPHANUM = "abcdefghijklmnopqrstuvwxyz0123456789";

export function randomAlphanumeric(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const b of bytes) out += ALPHANUM[b % ALPHANUM.length];
  return out;
}

export function randomDigits(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const b of bytes) out += String(b % 10);
  return out;
}

/** Upstream-style id: `cus_…`, `pay_…`, `sub_…` with 16 random alphanumerics. */
export const newId = (prefix: string) => `${prefix}_${randomAlphanumeric(16)}`;

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** The upstream's clock: São Paulo wall time, UTC−3 all year (Brazil has kept no summer time since 2019). */
export const UPSTREAM_UTC_OFFSET_MS = -3 * 3_600_000;

/** `instant` as a Date whose UTC fields read the upstream's wall clock. */
const wallClock = (instant: Date) => new Date(instant.getTime() + UPSTREAM_UTC_OFFSET_MS);

/** "YYYY-MM-DD" of a calendar date (its UTC fields); by default today on the upstream's clock (São Paulo). */
export function isoDate(d: Date = wallClock(new Date())): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** "YYYY-MM-DD HH:mm:ss": `instant` on the upstream's São Paulo wall clock, no offset written, as it answers date-times. */
export function dateTime(instant: Date = new Date()): string {
  const d = wallClock(instant);
  return `${isoDate(d)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

export function isDateString(v: unknown): v is string {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && isoDate(d) === v;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return isoDate(d);
}

/** Adds months, clamping to the last day of the target month (Jan 31 + 1 → Feb 28/29). */
export function addMonths(date: string, months: number): string {
  const [y, m, day] = date.split("-").map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return isoDate(target);
}

/** Rounds money to cents, returned as a JSON number like the upstream. */
export const money = (n: number) => Math.round(n * 100) / 100;

export function asString(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export function asNumber(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

export function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
