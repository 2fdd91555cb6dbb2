// The worker's HTTP entry: one app per path segment, built on the segment's first request from the
// groups that answer under it (src/route-groups.ts). Start-up then evaluates no route module, zod
// schema or page; a request pays only for its own part of the API.
//
// After an isolate's first response, `warm` builds the other segments' apps in the background (the
// entry runs it in waitUntil, issue 29) in small steps — each group's modules, then each segment's app, then
// the modules the groups' requests import on first use (src/route-groups.ts `onFirstUse`) — with a yield to
// the event loop before each, so a request arriving meanwhile waits for one step at most, and the next request to any segment finds its app ready. No request ever awaits a build another request (or the warm-up)
// started: a caller that finds no app builds its own, and the first one built is kept. Deployed, a
// build is imports of bundled modules (microtasks) and app construction, done before any other event
// runs, so two builds of one segment never overlap there; in the vitest runtime an import is I/O bound
// to the request that started it, and awaiting another request's would hang (docs/testing.md).
import type { App, RootFetch } from "./app";
import type { Env } from "./config";
import type { Registrar } from "./route-groups";
import { ERROR_STATUS, INTERNAL_ERROR_MESSAGE } from "./http/errors";
import { newRequestId, REQUEST_ID_HEADER } from "./http/request-id";
import { pathOf, segmentOf } from "./http/segment";
import { loadOnce } from "./lib/load-once";
import { logLine, summarizeError } from "./lib/log";

/** The route group table, imported by the first request: start-up then evaluates neither it nor the catalogue it reads. */
const routeTable = loadOnce(() => import("./route-groups"));
type RouteTable = Awaited<ReturnType<typeof routeTable>>;

/** A part of the API that could not be loaded (a broken deployment): a 500 in the envelope, logged. */
export function loadFailed(err: unknown): Response {
  const requestId = newRequestId();
  logLine("error", "route group failed to load", { requestId, error: summarizeError(err) });
  return Response.json(
    { error: { code: "INTERNAL_ERROR", message: INTERNAL_ERROR_MESSAGE, details: {}, requestId } },
    { status: ERROR_STATUS.INTERNAL_ERROR, headers: { [REQUEST_ID_HEADER]: requestId } },
  );
}

/**
 * The app a segment is served by, named by its key: the segment itself when groups answer under it or
 * it is the reference's, "" (one shared app of 404s) for any other, so unknown paths add no entries.
 */
const keyOf = ({ groupsFor, REFERENCE_SEGMENTS }: RouteTable, segment: string | undefined): string =>
  segment !== undefined && (groupsFor(segment).length > 0 || REFERENCE_SEGMENTS.includes(segment)) ? segment : "";

/**
 * The keys the warm-up builds, in order: every segment groups answer under, then the 404 app. The API
 * reference (the whole API and its document) is left to its first request: rarely asked for and the largest.
 */
const warmedKeys = ({ SEGMENTS }: RouteTable): readonly string[] => [...SEGMENTS, ""];

/** A turn of the event loop: a request waiting to run goes before the next step of the warm-up. */
const yieldToRequests = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export interface LazyApp {
  /** `path`: the request's path when the caller has read it already (the worker's entry); else it is read from the URL. */
  fetch: (req: Request, env: Env, ctx: ExecutionContext, path?: string) => ReturnType<RootFetch>;
  /** Builds every warmed segment's app not built yet, one step per turn of the event loop. Never rejects. */
  warm: () => Promise<void>;
}

export function lazyApp(): LazyApp {
  const ready = new Map<string, App>();

  /** The reference documents every route, so its segments get the whole API; any other gets its groups. */
  const build = async ({ groupsFor, REFERENCE_SEGMENTS }: RouteTable, key: string): Promise<App> => {
    if (REFERENCE_SEGMENTS.includes(key)) return (await import("./app")).buildApp(fetch);
    const [{ createApp }, ...registrars] = await Promise.all([import("./app"), ...groupsFor(key).map((group) => group.load(key))] as const);
    return createApp(registrars as Registrar[], fetch);
  };

  /** The segment's app; a failed load is not kept, so the next request retries it. */
  const appFor = (table: RouteTable, key: string): App | Promise<App> =>
    ready.get(key) ??
    build(table, key).then((built) => {
      const kept = ready.get(key) ?? built;
      ready.set(key, kept);
      return kept;
    });

  const fetch: LazyApp["fetch"] = (req, env, ctx, path) => {
    const table = routeTable();
    if (table instanceof Promise) return table.then(() => fetch(req, env, ctx, path), loadFailed);
    const app = appFor(table, keyOf(table, segmentOf(path ?? pathOf(req.url))));
    return app instanceof Promise ? app.then((a) => a.fetch(req, env, ctx), loadFailed) : app.fetch(req, env, ctx);
  };

  const warm = async (): Promise<void> => {
    const started = Date.now();
    let built = 0;
    let failed = 0;
    try {
      const table = await routeTable();
      // First each group's modules, one group per step (module evaluation is the longest work), then each app.
      for (const group of table.ROUTE_GROUPS) {
        if (group.segments.every((segment) => ready.has(segment))) continue;
        await yieldToRequests();
        await group.load().catch(() => undefined); // a failed load fails again, and is counted, when its segment is built
      }
      for (const key of warmedKeys(table)) {
        if (ready.has(key)) continue;
        await yieldToRequests();
        // A failed load is left to the segment's first request, which retries it and answers (and logs) the failure.
        await Promise.resolve(appFor(table, key)).then(
          () => built++,
          () => failed++,
        );
      }
      // Last, what the groups' requests import on first use, after their apps (each once: a module is evaluated once per isolate).
      for (const onFirstUse of new Set(table.ROUTE_GROUPS.map((group) => group.onFirstUse))) {
        if (!onFirstUse) continue;
        await yieldToRequests();
        await onFirstUse().catch(() => undefined); // a request that needs it retries the import, and answers (and logs) its failure
      }
    } catch {
      failed++; // the table itself did not load: every request answers the failure
    }
    logLine("info", "route segments warmed", { built, failed, ms: Date.now() - started });
  };

  return { fetch, warm };
}
