// Worker entry: HTTP through the app, the events queue into the webhook fan-out, the cron into the
// sweepers, and the Durable Object classes the bindings name.
import { buildApp } from "./app";
import { rewriteAsaasRequest, speaksAsaas } from "./compat/asaas-dialect";
import type { Env } from "./config";
import { consumeEventBatch } from "./events/consumer";
import { runSweepers } from "./scheduled";

export { EndpointDO } from "./events/endpoint-do";

const app = buildApp();

export default {
  // A request in the Asaas dialect (access_token, no Authorization) has its method aliases rewritten
  // before routing (src/compat/asaas-dialect/request.ts); every other request goes straight to the app.
  fetch: (req, env, ctx) =>
    speaksAsaas(req.headers) ? rewriteAsaasRequest(req).then((r) => app.fetch(r, env, ctx)) : app.fetch(req, env, ctx),
  async queue(batch, env, ctx) {
    await consumeEventBatch(batch, env, ctx);
  },
  async scheduled(_controller, env, ctx) {
    await runSweepers(env, ctx);
  },
} satisfies ExportedHandler<Env>;
