// Worker entry: HTTP through the app; queue and cron handlers join as their capabilities land.
import { buildApp } from "./app";
import type { Env } from "./config";

const app = buildApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
