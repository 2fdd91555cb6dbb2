import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));
const simDist = fileURLToPath(new URL("./sim/dist", import.meta.url));

export default defineConfig({
  test: {
    projects: [
      // Pure code and repository checks, in Node.
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node" } },
      // The upstream simulator's own suite.
      "sim/vitest.config.ts",
      // The worker itself, inside workerd with real D1, Queues and Durable Objects, and the
      // simulator (built by `npm run build:sim`) as the upstream, bound both ways.
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml", environment: "local" },
            miniflare: {
              bindings: { TEST_MIGRATIONS: migrations },
              workers: [
                {
                  name: "ponte-upstream-sim",
                  modules: true,
                  scriptPath: `${simDist}/index.js`,
                  modulesRoot: simDist,
                  compatibilityDate: "2026-10-20",
                  bindings: { WEBHOOK_DELIVERY: "sync" },
                  // The runner worker the plugin names after the project ("vitest-plugin-runner-<project>").
                  serviceBindings: { PONTE: "vitest-plugin-runner-workers" },
                },
              ],
            },
          }),
        ],
        test: {
          name: "workers",
          include: ["test/workers/**/*.test.ts"],
          setupFiles: ["./test/workers/setup.ts"],
        },
      },
    ],
  },
});
