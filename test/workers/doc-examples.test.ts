// Docs that cannot rot: every fenced shell block with `curl` in README.md and docs/**/*.md (not
// docs/_incoming/) runs here, file by file in order, against the worker as `npm start` serves it (a fresh
// workspace with the simulator as its upstream, as the text's `$KEY` is). Each answer must have the status
// and the fields the text shows (`# → 201 {…}`; success when it shows none). A block marked
// `<!-- example: not-run (reason) -->` is skipped and listed. The reading and matching live in
// test/doc-examples/ (unit-tested in test/unit/doc-examples-*.test.ts). docs/testing.md has the conventions.
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { type DocBlock, extractBlocks } from "../doc-examples/extract";
import { newShell, runCommand, type Shell } from "../doc-examples/run";
import { eq } from "drizzle-orm";
import { createDb } from "../../src/db/client";
import { costCategories, organizations } from "../../src/db/schema";
import { defaultCostCategoryRows } from "../../src/modules/cost-categories/service";
import { seedBillingTenant } from "./billing-support";

const sources = import.meta.glob<string>(["../../README.md", "../../docs/**/*.md", "!../../docs/_incoming/**"], {
  query: "?raw",
  import: "default",
  eager: true,
});
const files = Object.entries(sources)
  .map(([path, text]) => ({ file: path.replace(/^(\.\.\/)+/, ""), blocks: extractBlocks(path.replace(/^(\.\.\/)+/, ""), text) }))
  .sort((a, b) => a.file.localeCompare(b.file));
const skipped = files.flatMap(({ blocks }) => blocks.filter((block) => block.notRun !== undefined));

/** The base URL the docs write ($BASE); the worker answers on any host, so the text's own host is kept. */
const BASE = "http://localhost:8787";

it("finds the README's examples, and lists the blocks marked not-run with their reasons", () => {
  const readme = files.find(({ file }) => file === "README.md");
  expect(readme?.blocks.length ?? 0).toBeGreaterThan(0);
  const list = skipped.map((block: DocBlock) => `  ${block.file}:${block.line}: ${block.notRun}`);
  console.info(
    `doc examples: ${files.reduce((n, f) => n + f.blocks.flatMap((b) => b.commands).length, 0)} commands in ${files.length} files; ${skipped.length} blocks not run${list.length ? `:\n${list.join("\n")}` : ""}`,
  );
});

for (const { file, blocks } of files) {
  if (blocks.length === 0) continue;
  describe(file, () => {
    let shell: Shell;
    beforeAll(async () => {
      // As `npm start`'s workspace: "Ponte Demo", a gateway account on the simulator (its webhooks pointed back
      // here), the default cost categories.
      const tenant = await seedBillingTenant();
      const db = createDb(env.DB);
      await db.insert(costCategories).values(defaultCostCategoryRows(tenant, new Date().toISOString()));
      await db.update(organizations).set({ name: "Ponte Demo" }).where(eq(organizations.id, tenant.organizationId));
      shell = newShell({ KEY: tenant.key, PONTE_KEY: tenant.key, BASE }, (request) => SELF.fetch(request));
    });
    for (const block of blocks) {
      for (const command of block.commands) {
        const name = `${command.file}:${command.line} ${command.text.replace(/\s+/g, " ").slice(0, 90)}`;
        if (block.notRun !== undefined) it.skip(`${name} (not run: ${block.notRun})`, () => {});
        else it(name, () => runCommand(shell, command));
      }
    }
  });
}
