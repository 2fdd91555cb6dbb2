// npm run deploy:check's comparison: every name the code reads from `env` (the Env type) is provided in each
// deployed environment by wrangler.toml or by the secrets list, and no secret is written into wrangler.toml.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configurationProblems, DEPLOYED_ENVIRONMENTS, envProperties, providedNames } from "../../scripts/lib/deploy-config.mjs";

const toml = readFileSync(join(import.meta.dirname, "../../wrangler.toml"), "utf8");
const properties = envProperties();

describe("deploy configuration", () => {
  it("reads the Env type the code is compiled against, optional names marked", () => {
    const byName = new Map(properties.map((p) => [p.name, p.optional]));
    expect(byName.get("DB")).toBe(false);
    expect(byName.get("SECRETS_ENCRYPTION_KEY")).toBe(false);
    expect(byName.get("UPSTREAM")).toBe(true);
    expect(byName.get("PUBLIC_BASE_URL")).toBe(true);
  });

  it("production and sandbox provide every name the code needs", () => {
    for (const environment of DEPLOYED_ENVIRONMENTS) expect(configurationProblems(environment, { properties, tomlText: toml })).toEqual([]);
    expect([...providedNames("sandbox", toml)].sort()).toEqual(
      ["API_RATE_LIMITER", "ASSETS", "DB", "ENDPOINT_DO", "ENVIRONMENT", "EVENTS_QUEUE", "LISTEN_DO", "ORG_LOGS", "PUBLIC_BASE_URL"].sort(),
    );
  });

  it("names a binding an environment lost, and a secret written as a var", () => {
    const withoutQueue = toml.replace(
      /\[\[env\.sandbox\.queues\.producers\]\]\nbinding = "EVENTS_QUEUE"\n/,
      "[[env.sandbox.queues.producers]]\n",
    );
    expect(withoutQueue).not.toBe(toml);
    expect(configurationProblems("sandbox", { properties, tomlText: withoutQueue })).toEqual([
      "sandbox: the code reads env.EVENTS_QUEUE, which wrangler.toml does not bind and no secret provides",
    ]);
    const leaked = toml.replace('vars = { ENVIRONMENT = "sandbox",', 'vars = { ENVIRONMENT = "sandbox", SECRETS_ENCRYPTION_KEY = "x",');
    expect(configurationProblems("sandbox", { properties, tomlText: leaked })).toEqual([
      "sandbox: SECRETS_ENCRYPTION_KEY is a secret but wrangler.toml sets it as a var (use wrangler secret put)",
    ]);
    expect(configurationProblems("production", { properties, tomlText: toml, secrets: [] })).toEqual([
      "production: the code reads env.SECRETS_ENCRYPTION_KEY, which wrangler.toml does not bind and no secret provides",
    ]);
  });
});
