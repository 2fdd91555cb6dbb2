// Worker entry: HTTP through the app (built per path segment on demand), the events queue into the
// webhook fan-out, the cron into the sweepers, and the Durable Object classes the bindings name.
// The queue and cron handlers are imported when they first run, not at start-up.
import { asaasLayoutOf, serveAsaas } from "./compat/asaas-dialect/request";
import type { Env } from "./config";
import { pathOf } from "./http/segment";
import { lazyApp } from "./lazy-app";

export { EndpointDO } from "./events/endpoint-do";
export { ListenDO } from "./events/listen-do";
export { OrgLogDO } from "./db/org-logs/org-log-do";

const app = lazyApp();

export default {
  // A request in the Asaas dialect — at the upstream's layout (/v3/…, /api/v3/…), or at /api/v1 with
  // the key in access_token and no Authorization — is rewritten once to Ponte's route (its layout and
  // method aliases) before the app picks its segment, and every error it gets is in Asaas's shape
  // (src/compat/asaas-dialect/request.ts); every other request goes straight to the app.
  fetch: (req, env, ctx) => {
    // Local runs only (`npm start`, the e2e worker): the upstream simulator's control API, for the seed
    // and tools on this machine (it is bound as UPSTREAM and has no port of its own). Never deployed.
    if (env.ENVIRONMENT === "local" && env.UPSTREAM && pathOf(req.url).startsWith("/__sim/")) return env.UPSTREAM.fetch(req);
    const layout = asaasLayoutOf(req);
    return layout ? serveAsaas(req, layout, (r) => app.fetch(r, env, ctx)) : app.fetch(req, env, ctx);
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
