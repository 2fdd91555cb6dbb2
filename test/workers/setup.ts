import { applyD1Migrations, env } from "cloudflare:test";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// The worker projects run with `isolate: false` (vitest.config.ts): one runtime and one module graph
// serve many files in turn, so the database outlives a file. Each file starts from the migrated, empty
// schema, as it did when every file had a runtime of its own; sweeps that walk every account (adoption,
// deliveries, recurring expenses) then see only the file's own tenants.
const tables = await env.DB.prepare(
  "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
).all<{ name: string }>();
await env.DB.batch([
  env.DB.prepare("PRAGMA defer_foreign_keys = on"),
  ...tables.results.map(({ name }) => env.DB.prepare(`DELETE FROM "${name}"`)),
]);

// Every module the worker imports lazily, loaded once here, outside any request. In this test runtime a
// dynamic import is I/O (a fetch to vitest's module service) bound to the request that started it, so
// with one runtime serving many files a request could await a load that an earlier, finished request
// started, and workerd cancels it as hung. Deployed, the bundle's lazy imports are no I/O at all.
const { ROUTE_GROUPS } = await import("../../src/route-groups");
await Promise.all([
  ...ROUTE_GROUPS.map((group) => group.load()),
  import("../../src/app"),
  import("../../src/compat/passthrough-answers"),
  import("../../src/compat/passthrough-query"),
  import("../../src/compat/bearer-vocabulary"),
  import("../../src/events/consumer"),
  import("../../src/events/endpoint-runner"),
  import("../../src/scheduled"),
]);
