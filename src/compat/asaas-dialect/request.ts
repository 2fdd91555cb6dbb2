// The Asaas dialect at the worker's entry, before routing: who speaks it, at which URL layout, and the
// methods and paths Asaas accepts that Ponte spells otherwise. src/index.ts asks `asaasLayoutOf` of
// every request (a prefix and a header check, nothing parsed) and hands only a request in the dialect
// to `serveAsaas`, which rewrites it once to Ponte's route and answers every error in Asaas's shape.
// Pure rewriting of the Request (no database); the ids and bodies are translated by the middleware
// in src/compat/asaas-dialect.ts.
import { LIMITS } from "../../config";
import { ASAAS_KEY_HEADERS, asaasKeyOf } from "../../http/asaas-key";
import { INTERNAL_ERROR_MESSAGE } from "../../http/errors";
import { newRequestId, REQUEST_ID_HEADER } from "../../http/request-id";
import { pathOf } from "../../http/segment";
import { UPSTREAM_LAYOUT_HEADER, UPSTREAM_LAYOUTS, type UpstreamLayout } from "../../http/upstream-layout";
import { logLine, summarizeError } from "../../lib/log";
import { CATALOGUE, CATALOGUE_ALIASES, type CatalogueOperation } from "../catalogue";
import { asaasError, type PonteError } from "./shapes";

/** Asaas's own scheme: the key in `access_token` (or `access-token`) and no `Authorization` (a Bearer request is Ponte's dialect, untouched). */
export const speaksAsaas = (headers: Headers) =>
  // Authorization first: a Bearer request (most of them) is decided by one header look-up, not three.
  !headers.has("authorization") && ASAAS_KEY_HEADERS.some((name) => headers.has(name));

const API = "/api/v1";

/** Where a request enters the dialect: an upstream layout's prefix, `/api/v1` (the key in access_token), or null (not the dialect). */
export type AsaasLayout = UpstreamLayout | typeof API;

/** `path`: the request's path when the caller has it already (the worker's entry), so the URL is not read again. */
export function asaasLayoutOf(req: Request, path = pathOf(req.url)): AsaasLayout | null {
  if (path.startsWith(`${API}/`)) return speaksAsaas(req.headers) ? API : null;
  for (const prefix of UPSTREAM_LAYOUTS) if (path === prefix || path.startsWith(`${prefix}/`)) return prefix;
  return null;
}

type Matcher<T> = { item: T; method: string; names: string[]; pattern: RegExp; params: number };

/** Path templates as patterns, the ones with fewer parameters first (a literal such as /payments/limits wins over /payments/{id}). */
function matchersOf<T>(items: readonly T[], methodOf: (t: T) => string, templateOf: (t: T) => string): Matcher<T>[] {
  return items
    .map((item) => {
      const path = templateOf(item);
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
      return {
        item,
        method: methodOf(item),
        names,
        params: names.length,
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "([^/]+)")}/?$`),
      };
    })
    .sort((a, b) => a.params - b.params);
}

const OPERATIONS = matchersOf(
  CATALOGUE,
  (op) => op.method,
  (op) => op.path,
);

/** The catalogue operation a method and path reach, with its path parameter values in order. */
export function operationFor(method: string, path: string): { op: CatalogueOperation; values: string[] } | null {
  for (const m of OPERATIONS) {
    if (m.method !== method) continue;
    const hit = m.pattern.exec(path);
    if (hit) return { op: m.item, values: hit.slice(1) };
  }
  return null;
}

const BY_ID = new Map(CATALOGUE.map((op) => [op.operationId, op]));
const ALIASES = matchersOf(
  CATALOGUE_ALIASES,
  (a) => a.method,
  (a) => a.path,
);

/**
 * The operation's own method and path for a method the upstream also accepts (CATALOGUE_ALIASES,
 * generated with the catalogue: `POST /customers/{id}` → `PUT /customers/{id}`,
 * `POST /transfers/{id}/cancel` → `DELETE …`, `DELETE /subscriptions/{id}` → Ponte's cancel…), or
 * null: a method and path the catalogue serves itself are never rewritten.
 */
export function aliasFor(method: string, path: string): { method: string; path: string; operationId: string } | null {
  if (operationFor(method, path)) return null;
  for (const m of ALIASES) {
    if (m.method !== method) continue;
    const hit = m.pattern.exec(path);
    const op = hit ? BY_ID.get(m.item.operationId) : undefined;
    if (!hit || !op) continue;
    const values = new Map(m.names.map((name, i) => [name, hit[i + 1] as string]));
    return {
      method: op.method,
      path: op.path.replace(/\{([^}]+)\}/g, (_, name: string) => values.get(name) ?? ""),
      operationId: op.operationId,
    };
  }
  return null;
}

const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

/**
 * The request Ponte routes: an upstream layout's path under /api/v1 (its Authorization dropped: the
 * key there is the one in access_token), the method alias applied, and a POST/PUT/PATCH with no body
 * read as `{}` (Asaas accepts a bodiless action such as a refund). A request needing none of it is
 * returned as it came.
 */
async function toPonteRequest(req: Request, layout: AsaasLayout): Promise<Request> {
  const url = new URL(req.url);
  if (layout !== API) url.pathname = API + url.pathname.slice(layout.length);
  const target = aliasFor(req.method, url.pathname);
  const method = target?.method ?? req.method;
  if (layout === API && !target && !WITH_BODY.has(method)) return req;
  if (target) url.pathname = target.path;
  const headers = new Headers(req.headers);
  if (layout !== API) {
    headers.delete("authorization");
    headers.set(UPSTREAM_LAYOUT_HEADER, layout); // errors naming the route name the caller's path
  } else headers.delete(UPSTREAM_LAYOUT_HEADER);
  const contentType = req.headers.get("content-type") ?? "";
  // Only a body known to be small is read here; a large or unsized one streams on to the body guard (413).
  const declared = Number(req.headers.get("content-length") ?? Number.NaN);
  const small = req.body === null || (Number.isFinite(declared) && declared <= LIMITS.maxJsonBodyBytes);
  if (!WITH_BODY.has(method) || /multipart\//i.test(contentType) || !small) {
    const keepsBody = WITH_BODY.has(method) ? WITH_BODY.has(req.method) : !target;
    return new Request(url, { method, headers, body: keepsBody ? req.body : null });
  }
  let sent = WITH_BODY.has(req.method) ? await req.text() : "";
  if (sent.trim() === "") {
    sent = "{}";
    headers.set("content-type", "application/json");
  }
  headers.set("content-length", String(new TextEncoder().encode(sent).byteLength));
  return new Request(url, { method, headers, body: sent });
}

/** An error in the dialect's shape, `{errors: [{code, description}]}`, with the request id header. */
function dialectError(error: PonteError, status: number, requestId: string): Response {
  const answer = asaasError(error, status);
  return Response.json(answer.body, { status: answer.status, headers: { [REQUEST_ID_HEADER]: requestId } });
}

/** An answer in Ponte's error envelope (one the app's middleware did not translate: a route group that failed to load), in Asaas's shape. */
async function inDialect(res: Response): Promise<Response> {
  if (res.status < 400 || !/application\/json/i.test(res.headers.get("content-type") ?? "")) return res;
  const body: unknown = await res
    .clone()
    .json()
    .catch(() => undefined);
  const error = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined;
  if (typeof error !== "object" || error === null) return res;
  const { status, body: out } = asaasError(error as PonteError, res.status);
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  const requestId = (error as { requestId?: unknown }).requestId;
  if (!headers.has(REQUEST_ID_HEADER) && typeof requestId === "string") headers.set(REQUEST_ID_HEADER, requestId);
  return new Response(JSON.stringify(out), { status, headers });
}

/**
 * A request in the dialect, served: at an upstream layout the key must be in access_token (Bearer
 * is Ponte's, at /api/v1: a 401 saying so), the request is rewritten to Ponte's route and routed by
 * `route`, and whatever error comes back or is thrown — a 500 included — answers in Asaas's shape.
 */
export async function serveAsaas(
  req: Request,
  layout: AsaasLayout,
  route: (req: Request) => Response | Promise<Response>,
): Promise<Response> {
  try {
    if (layout !== API && asaasKeyOf(req.headers) === null) {
      const message = req.headers.has("authorization")
        ? `Authorization: Bearer is not accepted at ${layout}/ (the Asaas API's layout): send the API key in the access_token header, or call /api/v1 with Bearer.`
        : "No API key: send it in the access_token header.";
      return dialectError({ code: "UNAUTHORIZED", message }, 401, newRequestId());
    }
    return await inDialect(await route(await toPonteRequest(req, layout)));
  } catch (err) {
    const requestId = newRequestId();
    logLine("error", "Asaas dialect request failed", { requestId, error: summarizeError(err) });
    return dialectError({ code: "INTERNAL_ERROR", message: INTERNAL_ERROR_MESSAGE }, 500, requestId);
  }
}
