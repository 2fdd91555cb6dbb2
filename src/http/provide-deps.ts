// The first middleware of every request: gives it its id (src/http/request-id.ts) and builds its
// `Deps` (database, bindings, clock, request id, waitUntil) once, as `c.get("deps")`, so handlers and
// console pages hand services the same object instead of building it; after the response it forwards
// the audit rows the request staged (db/org-logs/audit-forward.ts) and stamps the response with the
// request id and the D1 bookmark. One middleware, not two: every layer of Hono's chain costs each
// request an async frame and its closures (bench:js).
// Lives in src/http, not beside `Deps`: src/deps.ts knows nothing of Hono or the HTTP layer.
//
// The database is a D1 session (Sessions API): a read (GET/HEAD) may be served by the nearest read
// replica, a write starts on the primary, and the response carries the session's bookmark in
// `X-D1-Bookmark`. A client that sends that bookmark back gets a session at least as fresh as it, so
// it always reads its own writes, even from a replica. Under D1_QUERY_COUNTING a request that asks gets
// its round trips counted on that binding (src/http/query-counter.ts).
import type { Context, MiddlewareHandler, Next } from "hono";
import type { RouterRoute } from "hono/types";
import type { Env } from "../config";
import { createSessionDb } from "../db/client";
import { forwardStagedAudit } from "../db/org-logs/audit-forward";
import type { Deps } from "../deps";
import type { AppEnv } from "./app-env";
import { handleError } from "./error-handler";
import type { Fuse } from "./memo-router";
import { countQueriesIfAsked } from "./query-counter";
import { newRequestId, stampRequestId } from "./request-id";
import { startServerTiming } from "./server-timing";

export const BOOKMARK_HEADER = "X-D1-Bookmark";
/** What a D1 bookmark looks like (hex groups and dashes); anything else is ignored, never an error. */
const BOOKMARK = /^[0-9a-f]{1,64}(-[0-9a-f]{1,64}){1,8}$/i;

/**
 * The request's session, opened on its first query: a request that never touches D1 through its
 * services (a passthrough, a cached auth) pays nothing for it. It is the D1 binding the request's
 * services see (`prepare` and `batch` are all they use).
 */
class LazySession {
  private session: D1DatabaseSession | undefined;

  constructor(
    private readonly binding: D1Database,
    private readonly constraintOrBookmark: string,
  ) {}

  private open(): D1DatabaseSession {
    this.session ??= this.binding.withSession(this.constraintOrBookmark);
    return this.session;
  }

  prepare(query: string): D1PreparedStatement {
    return this.open().prepare(query);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.open().batch<T>(statements);
  }

  bookmark(): string | null {
    return this.session?.getBookmark() ?? null;
  }
}

const now = () => new Date();

/** A request's Deps: its query builder is made on first use, its audit set when a row is first staged. */
class RequestDeps implements Deps {
  private builder: Deps["db"] | undefined;
  private staged: Set<string> | undefined;
  readonly now = now;
  beforeSideEffect?: () => Promise<void>;
  upstreamTimeoutMs?: number;

  constructor(
    private readonly c: Context<AppEnv>,
    private readonly session: D1Database,
    readonly env: Env,
    readonly requestId: string,
  ) {}

  get db(): Deps["db"] {
    this.builder ??= createSessionDb(this.session);
    return this.builder;
  }

  /** What `db` runs on: the session, or the binding of a query builder set in its place (the idempotency claim's gate). */
  get d1(): D1Database {
    return this.builder ? this.builder.$client : this.session;
  }

  set db(value: Deps["db"]) {
    this.builder = value;
  }

  get stagedAudit(): Set<string> {
    this.staged ??= new Set();
    return this.staged;
  }

  /** The organizations whose audit rows this request staged; undefined when it staged none (most requests). */
  stagedOrganizations(): ReadonlySet<string> | undefined {
    return this.staged;
  }

  /** Bound to this request, so it may be handed on detached; made on first use (most reads never use it). */
  get waitUntil(): (p: Promise<unknown>) => void {
    this.boundWaitUntil ??= (p) => this.schedule(p);
    return this.boundWaitUntil;
  }

  private boundWaitUntil: ((p: Promise<unknown>) => void) | undefined;

  private schedule(p: Promise<unknown>): void {
    try {
      this.c.executionCtx.waitUntil(p);
    } catch {
      void p.catch(() => undefined);
    }
  }
}

/** Where the API's routes live: the part of the app the API layer (the Asaas dialect) wraps. */
const API_PREFIX = "/api/v1";
const isApiPath = (path: string) => path.startsWith(API_PREFIX) && (path.length === API_PREFIX.length || path[API_PREFIX.length] === "/");

/** A layer that only some of the API's requests enter (the Asaas dialect: those that speak it). */
export interface ApiLayer {
  /** Whether the request enters the layer; a request it does not apply to goes straight to the route. */
  appliesTo: (headers: Headers) => boolean;
  layer: MiddlewareHandler<AppEnv>;
}

/**
 * The first middleware. `apiLayer`, when given, runs inside it for the API's paths (`/api/v1` and
 * below) that it applies to, as the next layer of Hono's chain would — a Response it returns is
 * adopted, an error it throws becomes the error response — without a dispatch frame of its own; any
 * other request goes to its route without the layer's async frame either (bench:js).
 */
export const provideDeps =
  (apiLayer?: ApiLayer): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const requestId = newRequestId();
    c.set("requestId", requestId);
    const reportQueries = countQueriesIfAsked(c);
    const method = c.req.method;
    const sent = c.req.raw.headers.get(BOOKMARK_HEADER);
    const readOnly = method === "GET" || method === "HEAD";
    const session = new LazySession(c.env.DB, sent && BOOKMARK.test(sent) ? sent : readOnly ? "first-unconstrained" : "first-primary");
    const d1 = session as unknown as D1Database;
    const deps = new RequestDeps(c, d1, c.env, requestId);
    c.set("d1", d1);
    c.set("deps", deps);
    const stampTiming = c.env.SERVER_TIMING === "on" ? startServerTiming(deps) : undefined;
    if (apiLayer && isApiPath(c.req.path) && apiLayer.appliesTo(c.req.raw.headers)) await runLayer(c, apiLayer.layer, next);
    else await next();
    stampRequestId(c.res, requestId);
    // The audit rows this request staged in D1 go to their organization's store after the response.
    const staged = deps.stagedOrganizations();
    if (staged) for (const organizationId of staged) deps.waitUntil(forwardStagedAudit(c.env, organizationId));
    const bookmark = session.bookmark();
    if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
    reportQueries?.();
    stampTiming?.(c.res);
  };

/** One middleware run as Hono's compose runs a layer: its returned Response adopted, its error answered by the error handler. */
async function runLayer(c: Context<AppEnv>, layer: MiddlewareHandler<AppEnv>, next: Next): Promise<void> {
  try {
    const res = await layer(c, next);
    if (res instanceof Response && !c.finalized) c.res = res;
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    c.error = err;
    c.res = await handleError(err, c);
  }
}

type RouterEntry = [MiddlewareHandler<AppEnv>, RouterRoute];

/**
 * What the app's router fuses (src/http/memo-router.ts): `first` (the app's first middleware) followed
 * by a route's lone handler, run as Hono's compose runs those two layers: the route's layer through
 * `runLayer`, so its Response is adopted and its error answered by the error handler before `first`
 * stamps the response. One fused handler per route, made on its first match.
 */
export function fuseAfter(first: MiddlewareHandler<AppEnv>): Fuse<RouterEntry> {
  const fused = new WeakMap<RouterEntry, RouterEntry>();
  return (a, b) => {
    if (a[0] !== first) return undefined;
    let one = fused.get(b);
    if (!one) {
      const route = b[0];
      one = [(c, next) => first(c, () => runLayer(c, route, next)), b[1]];
      fused.set(b, one);
    }
    return one;
  };
}
