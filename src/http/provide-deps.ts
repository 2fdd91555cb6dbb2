// Builds the request's `Deps` (database, bindings, clock, request id, waitUntil) once, as
// `c.var.deps`, so handlers and console pages hand services the same object instead of building it,
// and after the response forwards the audit rows the request staged (db/org-logs/audit-forward.ts).
// Lives in src/http, not beside `Deps`: src/deps.ts knows nothing of Hono or the HTTP layer.
//
// The database is a D1 session (Sessions API): a read (GET/HEAD) may be served by the nearest read
// replica, a write starts on the primary, and the response carries the session's bookmark in
// `X-D1-Bookmark`. A client that sends that bookmark back gets a session at least as fresh as it, so
// it always reads its own writes, even from a replica. Under D1_QUERY_COUNTING a request that asks gets
// its round trips counted on that binding (src/http/query-counter.ts).
import type { MiddlewareHandler } from "hono";
import { createDb } from "../db/client";
import { forwardStagedAudit } from "../db/org-logs/audit-forward";
import type { Deps } from "../deps";
import type { AppEnv } from "./app-env";
import { countQueriesIfAsked } from "./query-counter";

export const BOOKMARK_HEADER = "X-D1-Bookmark";
/** What a D1 bookmark looks like (hex groups and dashes); anything else is ignored, never an error. */
const BOOKMARK = /^[0-9a-f]{1,64}(-[0-9a-f]{1,64}){1,8}$/i;

/**
 * The request's session, opened on its first query: a request that never touches D1 through its
 * services (a passthrough, a cached auth) pays nothing for it.
 */
function lazySession(db: D1Database, constraintOrBookmark: string) {
  let session: D1DatabaseSession | undefined;
  const open = () => {
    session ??= db.withSession(constraintOrBookmark);
    return session;
  };
  const d1 = {
    prepare: (query: string) => open().prepare(query),
    batch: (statements: D1PreparedStatement[]) => open().batch(statements),
  } as unknown as D1Database;
  return { d1, bookmark: () => session?.getBookmark() ?? null };
}

export const provideDeps = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const reportQueries = countQueriesIfAsked(c);
  const sent = c.req.header(BOOKMARK_HEADER);
  const readOnly = c.req.method === "GET" || c.req.method === "HEAD";
  const session = lazySession(c.env.DB, sent && BOOKMARK.test(sent) ? sent : readOnly ? "first-unconstrained" : "first-primary");
  const d1 = session.d1;
  let db: Deps["db"] | undefined;
  const deps: Deps = {
    get db() {
      db ??= createDb(d1);
      return db;
    },
    set db(value) {
      db = value;
    },
    env: c.env,
    now: () => new Date(),
    requestId: c.get("requestId"),
    stagedAudit: new Set(),
    waitUntil: (p) => {
      try {
        c.executionCtx.waitUntil(p);
      } catch {
        void p.catch(() => undefined);
      }
    },
  };
  c.set("d1", d1);
  c.set("deps", deps);
  await next();
  // The audit rows this request staged in D1 go to their organization's store after the response.
  for (const organizationId of deps.stagedAudit ?? []) deps.waitUntil(forwardStagedAudit(c.env, organizationId));
  const bookmark = session.bookmark();
  if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
  reportQueries?.();
};
