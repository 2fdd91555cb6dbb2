import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { fileURLToPath } from "node:url";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));
const simDist = fileURLToPath(new URL("./sim/dist", import.meta.url));

type Environment = "local" | "sandbox" | "production";

/** The tests whose outcome depends on ENVIRONMENT: they also run as sandbox and as production. */
const ENVIRONMENT_TESTS = ["test/workers/environments.test.ts"];

/**
 * Files that fail when they run late in a runtime other files have used (isolate: false): after many files,
 * workerd reports "Cannot perform I/O on behalf of a different request / Durable Object (I/O type:
 * RefcountedFulfiller)" and requests hang. The cause is in the test tooling, not in Ponte: in this runtime every
 * dynamic import() is I/O, and vite's module runner shares one in-flight module lookup between all the request
 * and Durable Object contexts importing that module at once (docs/testing.md, "One runtime per project"). These
 * are the files it hit in CI's order (small files run last); they get a fresh runtime each.
 */
const FRESH_RUNTIME_TESTS = ["test/workers/query-rule.test.ts", "test/workers/webhooks-handoff.test.ts"];

/** Production and sandbox keep SECRETS_ENCRYPTION_KEY as a `wrangler secret`; tests bind a throwaway one. */
const TEST_SECRETS_ENCRYPTION_KEY = "dGVzdC1vbmx5LWVuY3J5cHRpb24ta2V5LTMyLWJ5dGU=";

/**
 * The worker inside workerd with real D1, Queues, Durable Objects and rate limiter, configured as
 * wrangler.toml's `environment` ("production" is the top level), and the simulator (built by
 * `npm run build:sim`) as the upstream, whichever way that environment reaches it: local through the
 * UPSTREAM service binding, sandbox and production through the runtime's fetch, which
 * `outboundService` routes to the simulator, so the real base URLs are used and nothing leaves the
 * machine. TEST_ENVIRONMENT tells a test which environment its project claims to be; TEST_SIM reaches
 * the simulator's control API in every project.
 */
function workerProject(
  name: string,
  environment: Environment,
  include: string[],
  { exclude = [], isolate = false }: { exclude?: string[]; isolate?: boolean } = {},
): TestProjectInlineConfiguration {
  const runner = `vitest-plugin-runner-${name}`;
  return {
    plugins: [
      cloudflareTest({
        // The source, not wrangler.toml's main (dist/worker/index.js, the built worker `npm start` and deploys
        // run): the pool bundles the source itself, so the tests need no build and see src/ as it is. An absolute
        // path: with "./src/index.ts" the env-production project's run passed but never exited.
        main: fileURLToPath(new URL("./src/index.ts", import.meta.url)),
        wrangler: { configPath: "./wrangler.toml", ...(environment === "production" ? {} : { environment }) },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_ENVIRONMENT: environment,
            ...(environment === "local" ? {} : { SECRETS_ENCRYPTION_KEY: TEST_SECRETS_ENCRYPTION_KEY }),
          },
          serviceBindings: { TEST_SIM: "ponte-upstream-sim" },
          ...(environment === "local" ? {} : { outboundService: "ponte-upstream-sim" }),
          workers: [
            {
              name: "ponte-upstream-sim",
              modules: true,
              scriptPath: `${simDist}/index.js`,
              modulesRoot: simDist,
              compatibilityDate: "2026-10-20",
              bindings: { WEBHOOK_DELIVERY: "sync" },
              // The runner worker the plugin names after the project ("vitest-plugin-runner-<project>").
              serviceBindings: { PONTE: runner },
            },
          ],
        },
      }),
    ],
    // One runtime and one module graph serve the project's files in turn (`isolate: false`): starting
    // a runtime and re-evaluating the app for each of ~80 files was most of the suite's time. The
    // database would then outlive a file, so test/workers/setup.ts empties it before each file;
    // Durable Objects and the simulator's accounts are keyed by ids each test creates for itself.
    test: { name, include, exclude, setupFiles: ["./test/workers/setup.ts"], isolate },
  };
}

export default defineConfig({
  test: {
    projects: [
      // Pure code and repository checks, in Node.
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node" } },
      // Node-side clients (real client libraries, plain HTTP) against the local worker as `npm start` runs it.
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["./test/e2e/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      // The upstream simulator's own suite.
      "sim/vitest.config.ts",
      // Every worker test, as `npm start` runs the worker (ENVIRONMENT=local).
      workerProject("workers", "local", ["test/workers/**/*.test.ts"], { exclude: FRESH_RUNTIME_TESTS }),
      // Each in a runtime of its own, as every file once was (see FRESH_RUNTIME_TESTS).
      workerProject("workers-fresh", "local", FRESH_RUNTIME_TESTS, { isolate: true }),
      // The environment-dependent tests again, as the sandbox and the production worker.
      workerProject("env-sandbox", "sandbox", ENVIRONMENT_TESTS),
      workerProject("env-production", "production", ENVIRONMENT_TESTS),
    ],
  },
});
