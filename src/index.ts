// Worker entry: HTTP through the app, the events queue into the webhook fan-out, the cron into the
// sweepers, and the Durable Object classes the bindings name.
import { buildApp } from "./app";
import type { Env } from "./config";
import { consumeEventBatch } from "./events/consumer";
import { runSweepers } from "./scheduled";

export { EndpointDO } from "./events/endpoint-do";
export { ListenDO } from "./events/listen-do";

const app = buildApp();

export default {
  fetch: app.fetch,
  async queue(batch, env, ctx) {
    await consumeEventBatch(batch, env, ctx);
  },
  async scheduled(_controller, env, ctx) {
    await runSweepers(env, ctx);
  },
} satisfies ExportedHandler<Env>;
