// Types the `env` of `cloudflare:test` as the worker's own bindings plus the test-only ones.
import type { D1Migration } from "cloudflare:test";
import type { Env as PonteEnv } from "../../src/config";

declare global {
  namespace Cloudflare {
    interface Env extends PonteEnv {
      /** A secret, so worker-configuration.d.ts (which merges into this interface) cannot know it is always set. */
      SECRETS_ENCRYPTION_KEY: string;
      UPSTREAM?: Fetcher;
      TEST_MIGRATIONS: D1Migration[];
      /** The environment the vitest project runs the worker as (vitest.config.ts `workerProject`). */
      TEST_ENVIRONMENT: "local" | "sandbox" | "production";
      /** The upstream simulator, bound in every worker project (its control API, `/__sim/…`). */
      TEST_SIM: Fetcher;
    }
  }
}
