// The worker's HTTP entry: one app per path segment, built on the segment's first request from the
// groups that answer under it (src/route-groups.ts). Start-up then evaluates no route module, zod
// schema or page; a request pays only for its own part of the API, once per isolate.
//
// The other segments are not built ahead in waitUntil after the first response (issue 29 asked for
// it): a later request would then await a build another request started, and in the test runtime,
// where module loads are I/O, workerd refuses that ("Cannot perform I/O on behalf of a different
// request") and cancels the request as hung.
import type { App, RootFetch } from "./app";
import { groupsFor, REFERENCE_SEGMENTS, type Registrar } from "./route-groups";
import { ERROR_STATUS, INTERNAL_ERROR_MESSAGE } from "./http/errors";
import { newRequestId, REQUEST_ID_HEADER } from "./http/request-id";
import { pathOf, segmentOf } from "./http/segment";
import { logLine, summarizeError } from "./lib/log";

/** A part of the API that could not be loaded (a broken deployment): a 500 in the envelope, logged. */
function loadFailed(err: unknown): Response {
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
const keyOf = (segment: string | undefined): string =>
  segment !== undefined && (groupsFor(segment).length > 0 || REFERENCE_SEGMENTS.includes(segment)) ? segment : "";

export function lazyApp(): { fetch: RootFetch } {
  const ready = new Map<string, App>();
  const building = new Map<string, Promise<App>>();

  /** The reference documents every route, so its segments get the whole API; any other gets its groups. */
  const build = async (key: string): Promise<App> => {
    if (REFERENCE_SEGMENTS.includes(key)) return (await import("./app")).buildApp(fetch);
    const [{ createApp }, ...registrars] = await Promise.all([import("./app"), ...groupsFor(key).map((group) => group.load(key))] as const);
    return createApp(registrars as Registrar[], fetch);
  };

  const appFor = (key: string): App | Promise<App> => {
    const app = ready.get(key);
    if (app) return app;
    let pending = building.get(key);
    if (!pending) {
      pending = build(key);
      building.set(key, pending);
      pending.then(
        (built) => {
          ready.set(key, built);
          building.delete(key);
        },
        () => building.delete(key), // a failed load is retried by the next request
      );
    }
    return pending;
  };

  const fetch: RootFetch = (req, env, ctx) => {
    const app = appFor(keyOf(segmentOf(pathOf(req.url))));
    return app instanceof Promise ? app.then((a) => a.fetch(req, env, ctx), loadFailed) : app.fetch(req, env, ctx);
  };
  return { fetch };
}
