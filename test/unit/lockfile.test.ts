// CI installs with `npm ci`, which refuses a lockfile that is out of step with package.json: every
// optional dependency a locked package declares must have its own entry, even for other platforms.
// A package whose platform builds are missing from the registry (Biome 2.6.8's were) leaves holes
// that `npm install` does not notice; this catches them before CI does.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
type Locked = { version?: string; optionalDependencies?: Record<string, string> };
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, Locked> };
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;

describe("package-lock.json", () => {
  it("holds every optional dependency of every locked package (npm ci refuses the lockfile otherwise)", () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        const nested = `${path}/node_modules/${name}`;
        if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) missing.push(`${path || "(root)"} → ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("locks exactly the versions package.json names", () => {
    for (const field of ["dependencies", "devDependencies"]) {
      for (const [name, range] of Object.entries(pkg[field] ?? {})) {
        expect(lock.packages[""]?.[field as "optionalDependencies"]?.[name], `${field}.${name}`).toBe(range);
      }
    }
  });
});
