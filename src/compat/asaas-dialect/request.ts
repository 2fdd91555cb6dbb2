// The Asaas dialect, request side before routing: who speaks it, and the methods and paths Asaas
// accepts that Ponte spells otherwise. Pure rewriting of the Request (no database): src/index.ts
// calls `rewriteAsaasRequest` before the app routes it, only for a request that speaks the dialect.
import { CATALOGUE, type CatalogueOperation } from "../catalogue";

const KEY_HEADER = "access_token";

/** Asaas's own scheme: the key in `access_token`, and no `Authorization` (a Bearer request is Ponte's dialect, untouched). */
export const speaksAsaas = (headers: Headers) => headers.has(KEY_HEADER) && !headers.has("authorization");

const API = "/api/v1";
/** A path id Asaas clients send: an upstream id (`cus_…`, `pay_…`, `sub_…`) or a Ponte UUID. */
const RECORD_ID = /^(?:[a-z]{3}_[A-Za-z0-9]+|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** [method, path pattern, new method, new path]: the aliases Asaas accepts. `$1` is the id. */
const ALIASES: readonly [string, RegExp, string, string][] = [
  ["POST", /^\/api\/v1\/customers\/([^/]+)\/?$/, "PUT", `${API}/customers/$1`],
  ["POST", /^\/api\/v1\/payments\/([^/]+)\/?$/, "PUT", `${API}/payments/$1`],
  ["DELETE", /^\/api\/v1\/subscriptions\/([^/]+)\/?$/, "POST", `${API}/subscriptions/$1/cancel`],
  ["POST", /^\/api\/v1\/creditCard\/tokenizeCreditCard\/?$/, "POST", `${API}/payment-methods/tokenize`],
];

function alias(method: string, path: string): { method: string; path: string } | null {
  for (const [from, pattern, to, target] of ALIASES) {
    if (method !== from) continue;
    const m = pattern.exec(path);
    if (!m) continue;
    if (m[1] !== undefined && !RECORD_ID.test(decodeURIComponent(m[1]))) continue;
    return { method: to, path: target.replace("$1", m[1] ?? "") };
  }
  return null;
}

const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

/**
 * A request in the dialect, rewritten to what Ponte routes: the Asaas method aliases
 * (`POST /customers/{id}` and `POST /payments/{id}` update, `DELETE /subscriptions/{id}` cancels,
 * `/creditCard/tokenizeCreditCard`), and a POST/PUT/PATCH with no body reads as `{}` (Asaas
 * accepts a bodiless action such as a refund). Any other request is returned as it came.
 */
export async function rewriteAsaasRequest(req: Request): Promise<Request> {
  if (!speaksAsaas(req.headers)) return req;
  const url = new URL(req.url);
  if (!url.pathname.startsWith(`${API}/`)) return req;
  const target = alias(req.method, url.pathname);
  const method = target?.method ?? req.method;
  const contentType = req.headers.get("content-type") ?? "";
  if (!WITH_BODY.has(method) || /multipart\//i.test(contentType)) {
    if (!target) return req;
    url.pathname = target.path;
    return new Request(url, { method, headers: req.headers, body: WITH_BODY.has(req.method) ? req.body : null });
  }
  const body = WITH_BODY.has(req.method) ? await req.text() : "";
  const headers = new Headers(req.headers);
  let sent = body;
  if (body.trim() === "") {
    sent = "{}";
    headers.set("content-type", "application/json");
  }
  headers.delete("content-length");
  if (target) url.pathname = target.path;
  return new Request(url, { method, headers, body: sent });
}

/** Catalogue operations, the ones with fewer path parameters first (a literal such as /payments/limits wins over /payments/{id}). */
const MATCHERS = [...CATALOGUE]
  .map((op) => ({
    op,
    params: (op.path.match(/\{/g) ?? []).length,
    pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, "([^/]+)")}/?$`),
  }))
  .sort((a, b) => a.params - b.params);

/** The catalogue operation a method and path reach, with its path parameter values in order. */
export function operationFor(method: string, path: string): { op: CatalogueOperation; values: string[] } | null {
  for (const m of MATCHERS) {
    if (m.op.method !== method) continue;
    const hit = m.pattern.exec(path);
    if (hit) return { op: m.op, values: hit.slice(1) };
  }
  return null;
}
