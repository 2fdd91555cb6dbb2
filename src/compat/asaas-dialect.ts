// The Asaas dialect: one translation layer at the edge. A request authenticated Asaas's way
// (`access_token: ponte_test_…` or `access-token`, no Authorization; at /v3/… and /api/v3/… that is
// every request, rewritten to /api/v1/… at the entry) gets Asaas's wire format on every operation —
// objects at the top level, Asaas lists, errors and deletes, native objects in Asaas's shape with the
// upstream's ids — and may speak it: upstream ids in paths, filters and bodies, Asaas's method
// aliases (src/compat/asaas-dialect/request.ts, applied before routing by src/index.ts). The routes
// themselves are Ponte's, unchanged; a Bearer request never enters this file's logic.
import type { Context, MiddlewareHandler } from "hono";
import { authenticate } from "../access/authenticate";
import { type Env, LIMITS } from "../config";
import type { AppEnv } from "../http/app-env";
import { handleError } from "../http/error-handler";
import { operationFor, speaksAsaas } from "./asaas-dialect/request";
import { type Refs, asaasError, asaasObject, referencedIds } from "./asaas-dialect/shapes";
import { upstreamRefsOf } from "./upstream-ids";
import { installmentBody, needsTenant, rewriteForTenant } from "./asaas-dialect/tenant-rewrite";

export { asaasLayoutOf, serveAsaas, speaksAsaas } from "./asaas-dialect/request";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
type Dispatch = (req: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;

/** Requests this layer already rewrote and handed back to the app: they are routed as they are. */
const rewritten = new WeakSet<Request>();
const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

function executionCtx(c: Context<AppEnv>): ExecutionContext {
  try {
    return c.executionCtx as unknown as ExecutionContext;
  } catch {
    return { waitUntil: () => undefined, passThroughOnException: () => undefined, props: {} } as unknown as ExecutionContext;
  }
}

async function jsonBodyOf(c: Context<AppEnv>): Promise<Obj | null> {
  if (!WITH_BODY.has(c.req.method) || !/json/i.test(c.req.header("content-type") ?? "")) return null;
  const declared = Number(c.req.header("content-length") ?? Number.NaN);
  if (!Number.isFinite(declared) || declared > LIMITS.maxJsonBodyBytes) return null; // the body guard answers it
  try {
    const parsed: unknown = JSON.parse(await c.req.raw.clone().text());
    return isObj(parsed) ? parsed : null;
  } catch {
    return null; // the body guard answers a malformed body
  }
}

/** The request with the dialect's ids, installments and plan translated; null when it goes as it came. */
async function rewriteRequest(c: Context<AppEnv>): Promise<Request | null> {
  let url = new URL(c.req.url);
  const op = operationFor(c.req.method, url.pathname)?.op ?? null;
  const original = await jsonBodyOf(c);
  let body = original;
  if (body && op?.operationId === "criar-nova-cobranca") body = installmentBody(body);
  const pending = { method: c.req.method, url, op, body };
  if (needsTenant(pending)) {
    const principal = await authenticate()(c, async () => undefined)
      .then(() => c.get("principal"))
      .catch(() => undefined); // the route's own guard answers the failure
    const translated = principal ? await rewriteForTenant(c.get("deps"), principal, pending) : null;
    if (translated) ({ url, body } = translated);
  }
  if (url.href === c.req.url && body === original) return null;
  const headers = new Headers(c.req.raw.headers);
  headers.delete("content-length");
  const sent = body !== original ? JSON.stringify(body) : WITH_BODY.has(c.req.method) ? c.req.raw.body : null;
  return new Request(url, { method: c.req.method, headers, body: sent });
}

/** Asaas's list: `{object: "list", hasMore, totalCount, limit, offset, data}`. */
function asaasList(items: unknown[], pagination: Obj, refs: Refs) {
  return {
    object: "list",
    hasMore: pagination.hasMore,
    totalCount: pagination.totalCount,
    limit: pagination.limit,
    offset: pagination.offset,
    data: items.map((i) => asaasObject(i, refs)),
  };
}

/** Asaas answers a removal `{deleted: true, id}`: a native delete, and Ponte's cancel that `DELETE /subscriptions/{id}` becomes. */
const isRemoval = (method: string, path: string) =>
  (method === "DELETE" && /^\/api\/v1\/(?:customers|payments)\/[^/]+\/?$/.test(path)) ||
  (method === "POST" && /^\/api\/v1\/subscriptions\/[^/]+\/cancel\/?$/.test(path));

/** Ponte's answer in the dialect: same headers (X-Request-Id included), Asaas's body and status. */
async function asaasResponse(c: Context<AppEnv>, res: Response): Promise<Response> {
  if (!/application\/json/i.test(res.headers.get("content-type") ?? "") || c.req.path.endsWith("/openapi.json")) return res;
  const body: unknown = await res
    .clone()
    .json()
    .catch(() => undefined);
  if (!isObj(body)) return res;
  let status = res.status;
  let out: unknown = body;
  if (isObj(body.error)) {
    const translated = asaasError(body.error as { code: string; message: string; details?: Obj }, res.status);
    ({ status, body: out } = translated);
  } else if ("data" in body && isObj(body.meta)) {
    const meta = body.meta;
    const data = body.data;
    if (meta.upstream !== undefined)
      out = data; // passthrough: as the upstream sent it
    else {
      const items = Array.isArray(data) ? data : [data];
      const principal = c.get("principal");
      const refs: Refs = principal ? await upstreamRefsOf(c.get("deps"), principal, referencedIds(items)) : new Map();
      if (Array.isArray(data)) out = asaasList(data, isObj(meta.pagination) ? meta.pagination : {}, refs);
      else if (isRemoval(c.req.method, c.req.path) && isObj(data)) out = { deleted: true, id: (asaasObject(data, refs) as Obj).id };
      else if (isObj(data) && /\/payments\/[^/]+\/status\/?$/.test(c.req.path)) out = { status: data.status };
      else out = asaasObject(data, refs);
    }
    if (status >= 200 && status < 300) status = 200; // Asaas answers 200 to every success
  } else return res;
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(out), { status, headers });
}

/**
 * The dialect's middleware, before the body guard on `/api/v1/*`. `dispatch` routes a rewritten
 * request through the app again (a path id is part of the route match, so it must be routed anew).
 */
export function asaasDialect(dispatch: Dispatch): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!speaksAsaas(c.req.raw.headers)) return next();
    try {
      if (!rewritten.has(c.req.raw)) {
        const inner = await rewriteRequest(c);
        if (inner) {
          rewritten.add(inner);
          return dispatch(inner, c.env, executionCtx(c));
        }
      }
      await next();
      c.res = await asaasResponse(c, c.res);
    } catch (err) {
      // A failure of this layer itself (an id lookup): the app's one error handler, in Asaas's shape.
      c.res = await asaasResponse(c, await handleError(err as Error, c));
    }
  };
}
