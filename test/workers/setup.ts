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
