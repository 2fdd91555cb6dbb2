// Tests for the upstream simulator, run inside workerd:
//   npx vitest run --config sim/vitest.config.ts
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = dirname(fileURLToPath(import.meta.url));

// Stands in for Ponte behind the PONTE service binding: records webhook deliveries and lets
// tests read them back; paths containing "/fail" answer 500.
const WEBHOOK_RECEIVER = `
const received = [];
export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/__received") return Response.json(received);
    received.push({
      method: request.method,
      path: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      body: await request.text(),
    });
    return new Response(url.pathname.includes("/fail") ? "nope" : "ok", { status: url.pathname.includes("/fail") ? 500 : 200 });
  },
};
`;

export default defineConfig({
  root: here,
  plugins: [
    cloudflareTest({
      wrangler: { configPath: join(here, "wrangler.toml") },
      miniflare: {
        serviceBindings: { PONTE: "webhook-receiver" },
        workers: [{ name: "webhook-receiver", modules: true, script: WEBHOOK_RECEIVER, compatibilityDate: "2026-10-20" }],
      },
    }),
  ],
  test: {
    name: "sim",
    include: ["test/**/*.test.ts"],
    testTimeout: 15_000,
  },
});
