// Worker entry: HTTP through the app (built per path segment on demand), the events queue into the
// webhook fan-out, the cron into the sweepers, and the Durable Object classes the bindings name.
// Start-up evaluates only this, the app table and the Durable Object classes: the Asaas dialect's
// entry (the catalogue and its path patterns) is imported by the first request, the queue and cron
// handlers when they first run. After an isolate's first response the rest of the HTTP app is built
// in waitUntil (src/lazy-app.ts), so later first requests of a segment find it ready.
import type { Env } from "./config";
import { pathOf } from "./http/segment";
import { lazyApp, loadFailed } from "./lazy-app";
import { loadOnce } from "./lib/load-once";

export { EndpointDO } from "./events/endpoint-do";
export { ListenDO } from "./events/listen-do";
export { OrgLogDO } from "./db/org-logs/org-log-do";

const app = lazyApp();
const asaasDialect = loadOnce(() => import("./compat/asaas-dialect/request"));
type AsaasDialect = Awaited<ReturnType<typeof asaasDialect>>;

/**
 * A request in the Asaas dialect — at the upstream's layout (/v3/…, /api/v3/…), or at /api/v1 with the
 * key in access_token and no Authorization — is rewritten once to Ponte's route (its layout and method
 * aliases) before the app picks its segment, and every error it gets is in Asaas's shape
 * (src/compat/asaas-dialect/request.ts); every other request goes straight to the app.
 */
function route({ asaasLayoutOf, serveAsaas }: AsaasDialect, req: Request, path: string, env: Env, ctx: ExecutionContext) {
  const layout = asaasLayoutOf(req, path);
  return layout ? serveAsaas(req, layout, (r) => app.fetch(r, env, ctx)) : app.fetch(req, env, ctx, path);
}

let warmUpStarted = false;

export default {
  fetch: (req, env, ctx) => {
    // Local runs only (`npm start`, the e2e worker): the upstream simulator's control API, for the seed
    // and tools on this machine (it is bound as UPSTREAM and has no port of its own). Never deployed.
    // The path is read from the URL once here (the URL is a string the runtime makes on every read of `req.url`)
    // and handed to the dialect check and the segment dispatch.
    const path = pathOf(req.url);
    if (env.ENVIRONMENT === "local" && env.UPSTREAM && path.startsWith("/__sim/")) return env.UPSTREAM.fetch(req);
    const dialect = asaasDialect();
    const answer =
      dialect instanceof Promise ? dialect.then((d) => route(d, req, path, env, ctx), loadFailed) : route(dialect, req, path, env, ctx);
    // The isolate's first response goes out first; then the other segments are built, never on a request's path.
    if (!warmUpStarted && ctx) {
      warmUpStarted = true;
      if (env.SEGMENT_WARM_UP === "off") return answer;
      const warm = () => app.warm();
      ctx.waitUntil(Promise.resolve(answer).then(warm, warm));
    }
    return answer;
  },
  async queue(batch, env, ctx) {
    const { consumeEventBatch } = await import("./events/consumer");
    await consumeEventBatch(batch, env, ctx);
  },
  async scheduled(_controller, env, ctx) {
    const { runSweepers } = await import("./scheduled");
    await runSweepers(env, ctx);
  },
} satisfies ExportedHandler<Env>;
