// The worker's HTTP entry: one app per path segment, built on the segment's first request from the
// groups that answer under it (src/route-groups.ts). Start-up then evaluates no route module, zod
// schema or page; a request pays only for its own part of the API, once per isolate.
import type { App, RootFetch } from "./app";
import { groupsFor, REFERENCE_SEGMENTS, type Registrar, type RouteGroup } from "./route-groups";
import { segmentOf } from "./http/segment";

/** The path of a request URL (`http://host/api/v1/x?y` → `/api/v1/x`), without parsing the whole URL. */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return url.slice(start, query < 0 ? undefined : query);
}

/** A part of the API that could not be loaded (a broken deployment): a 500 in the envelope, logged. */
function loadFailed(err: unknown): Response {
  const requestId = `req_${crypto.randomUUID().replaceAll("-", "")}`;
  console.error(JSON.stringify({ level: "error", requestId, msg: "route group failed to load", error: String(err) }));
  const message = "An unexpected error occurred. Quote the request id if you contact support.";
  return Response.json(
    { error: { code: "INTERNAL_ERROR", message, details: {}, requestId } },
    { status: 500, headers: { "X-Request-Id": requestId } },
  );
}

export function lazyApp(): { fetch: RootFetch } {
  const ready = new Map<string, App>();
  const building = new Map<string, Promise<App>>();

  const appFor = (segment: string | undefined): App | Promise<App> => {
    const app = ready.get(segment ?? "");
    if (app) return app;
    const groups = groupsFor(segment);
    // Every segment no group answers shares one app (its 404s), so unknown paths add no entries.
    const key = groups.length > 0 || REFERENCE_SEGMENTS.includes(segment as string) ? (segment as string) : "";
    const shared = ready.get(key);
    if (shared) return shared;
    let pending = building.get(key);
    if (!pending) {
      pending = build(key, groups, segment);
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

  /** The reference documents every route, so its segments get the whole API; any other gets its groups. */
  const build = async (key: string, groups: readonly RouteGroup[], segment: string | undefined): Promise<App> => {
    if (REFERENCE_SEGMENTS.includes(key)) return (await import("./app")).buildApp(fetch);
    const [{ createApp }, ...registrars] = await Promise.all([import("./app"), ...groups.map((group) => group.load(segment))] as const);
    return createApp(registrars as Registrar[], fetch);
  };

  const fetch: RootFetch = (req, env, ctx) => {
    const app = appFor(segmentOf(pathOf(req.url)));
    return app instanceof Promise ? app.then((a) => a.fetch(req, env, ctx), loadFailed) : app.fetch(req, env, ctx);
  };
  return { fetch };
}
