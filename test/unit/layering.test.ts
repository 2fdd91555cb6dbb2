// The layer direction of src/ (docs/architecture.md): lib ← db ← http ← access ← gateway/events/compat/billing
// ← modules ← app/scheduled/console. A lower layer never imports a higher one, nothing imports in a
// circle, and a few rules that keep each layer honest. Then all the code (src, sim, scripts, test, bench,
// clients, public): no circle within or across folders. `npm run graph` prints the same graphs.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  CODE_ROOTS,
  LAYERS,
  circles,
  folderGraph,
  folderOf,
  importGraph,
  layerOf,
  rootGraph,
  upwardEdges,
} from "../../scripts/lib/import-graph.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const edges = importGraph(root);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}
const read = (file: string) => readFileSync(join(root, file), "utf8");

describe("layering of src/", () => {
  it("walks every source file and sees its imports", () => {
    expect(edges.size).toBe(sourceFiles(join(root, "src")).length);
    expect(edges.get("src/app.ts")).toContain("src/http/app-env.ts");
  });

  it("every top-level folder of src/ has a layer", () => {
    for (const file of edges.keys()) expect(() => layerOf(file), file).not.toThrow();
  });

  it("no import points up the layer order", () => {
    const upward = upwardEdges(edges).map(([from, to]) => `${from} → ${to}`);
    expect(upward).toEqual([]);
  });

  it("no file-level circle", () => {
    expect(circles(edges)).toEqual([]);
  });

  it("no folder-level circle", () => {
    expect(circles(folderGraph(edges))).toEqual([]);
  });

  it("src/lib imports nothing from src/ outside itself", () => {
    const out = [...edges].flatMap(([from, targets]) =>
      folderOf(from) === "lib" ? targets.filter((t) => folderOf(t) !== "lib").map((t) => `${from} → ${t}`) : [],
    );
    expect(out).toEqual([]);
  });

  it("the tenant type is declared once, in src/lib/tenant.ts", () => {
    const declarations = [...edges.keys()].filter((file) =>
      /\b(?:type|interface)\s+\w*Tenant\s*[=<{]|\binterface\s+\w*Tenant\s+extends/.test(read(file)),
    );
    expect(declarations).toEqual(["src/lib/tenant.ts"]);
  });

  it("routes files and the console reach the database only through services", () => {
    const direct = [...edges.keys()].filter(
      (file) =>
        (file.endsWith("/routes.ts") || file.endsWith("-route.ts") || folderOf(file) === "console") &&
        /from\s+["'](?:drizzle-orm[^"']*|[./]+db\/client)["']/.test(read(file)),
    );
    expect(direct).toEqual([]);
  });

  it("detects what it forbids (a circle, an upward edge)", () => {
    const fake = new Map([
      ["src/db/a.ts", ["src/http/b.ts"]],
      ["src/http/b.ts", ["src/db/a.ts"]],
    ]);
    expect(circles(fake)).toEqual([["src/db/a.ts", "src/http/b.ts"]]);
    expect(upwardEdges(fake)).toEqual([["src/db/a.ts", "src/http/b.ts"]]);
    expect(LAYERS[0]).toContain("lib");
  });
});

describe("all the code: src, sim, scripts, test, bench, clients, public", () => {
  const all = importGraph(root, CODE_ROOTS);

  it("walks the TypeScript and JavaScript of every folder and sees imports across them", () => {
    expect(all.get("sim/src/installments.ts")).toContain("sim/src/payment-records.ts");
    expect(all.get("scripts/lib/local.mjs")).toContain("src/lib/permissions.ts");
    expect(all.get("scripts/lib/listen.mjs")).toContain("src/events/kinds.ts");
    expect(all.get("test/browser/console.e2e.mjs")).toContain("test/browser/harness.mjs");
    expect([...all.keys()].some((file) => file.includes("node_modules") || file.startsWith("sim/dist/"))).toBe(false);
  });

  it("no file-level circle anywhere", () => {
    expect(circles(all)).toEqual([]);
  });

  it("no circle between folders, and src/ imports nothing outside itself", () => {
    const roots = rootGraph(all);
    expect(circles(roots)).toEqual([]);
    expect(roots.get("src")).toEqual([]);
  });

  it("finds a circle that crosses folders", () => {
    const fake = new Map([
      ["scripts/lib/a.mjs", ["src/lib/b.ts"]],
      ["src/lib/b.ts", ["scripts/lib/a.mjs"]],
    ]);
    expect(circles(fake)).toEqual([["scripts/lib/a.mjs", "src/lib/b.ts"]]);
    expect(circles(rootGraph(fake))).toEqual([["scripts", "src"]]);
  });
});
