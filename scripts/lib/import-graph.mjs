// The import graph: every relative import (value or `import type`, static or `import("…")`) of the
// TypeScript and JavaScript files under a set of folders, the layer of each file of src/, file-level
// circles, folder-level circles and upward edges. Shared by `npm run graph` (scripts/import-graph.mjs)
// and the layering test (test/unit/layering.test.ts).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The layers, lowest first. A file may import its own layer or a lower one, never a higher one.
 * `config.ts` sits with lib (constants and the generated Env type), `deps.ts` with db (it wires the
 * database and clock for services, and knows nothing of HTTP).
 */
export const LAYERS = [
  ["lib", "config"],
  ["db", "deps"],
  ["http"],
  ["access"],
  ["gateway", "events", "compat", "billing"],
  ["modules"],
  ["app", "route-groups", "lazy-app", "scheduled", "index", "console"],
];

/**
 * Every folder that holds code: the worker, the upstream simulator (with its build and tests), the scripts,
 * the tests, the benchmarks, the typed client and the console's browser scripts. No file in them may import
 * in a circle, within a folder or across folders (a script importing src/ is fine; src/ never imports back).
 */
export const CODE_ROOTS = ["src", "sim", "scripts", "test", "bench", "clients", "public"];

const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];
const SOURCE = /\.(?:tsx?|mts|mjs|js)$/;
const DECLARATIONS = /\.d\.m?ts$/;
/** Built output, dependencies and tool state: not source. */
const SKIPPED = new Set(["node_modules", "dist", "baselines"]);

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name.startsWith(".") || SKIPPED.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (SOURCE.test(name) && !DECLARATIONS.test(name)) out.push(path);
  }
  return out;
}

function resolveImport(from, spec) {
  const base = resolve(dirname(from), spec);
  if (existsSync(base) && statSync(base).isFile()) return base;
  for (const ext of EXTENSIONS) if (existsSync(base + ext)) return base + ext;
  return null;
}

const IMPORT_RE =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** `src/events/deliver.ts` → "events"; `src/app.ts` → "app"; `src/config.ts` → "config". */
export function folderOf(file) {
  const first = file.split("/")[1] ?? "";
  return first.replace(/\.tsx?$/, "");
}

export function layerOf(file) {
  const folder = folderOf(file);
  const index = LAYERS.findIndex((layer) => layer.includes(folder));
  if (index < 0) throw new Error(`${file}: folder "${folder}" has no layer in scripts/lib/import-graph.mjs`);
  return index;
}

/**
 * Files (relative to root, e.g. "src/lib/ids.ts") and their relative imports of files under the same
 * folders: `dirs` is one folder ("src", the default) or several (e.g. CODE_ROOTS).
 */
export function importGraph(root, dirs = "src") {
  const folders = (Array.isArray(dirs) ? dirs : [dirs]).map((dir) => join(root, dir));
  const inside = (path) => folders.some((folder) => path.startsWith(`${folder}/`));
  const files = folders.flatMap((folder) => walk(folder)).sort();
  const edges = new Map();
  for (const file of files) {
    const text = readFileSync(file, "utf8")
      // A block comment, not a "/*" inside a string or glob ("**/*", "/*").
      .replace(/(^|[^"'`*\w/])\/\*[\s\S]*?\*\//g, "$1")
      .replace(/^\s*\/\/.*$/gm, "");
    const targets = new Set();
    for (const match of text.matchAll(IMPORT_RE)) {
      const spec = match[1] ?? match[2];
      if (!spec?.startsWith(".")) continue;
      const target = resolveImport(file, spec);
      if (target && inside(target)) targets.add(relative(root, target));
    }
    edges.set(relative(root, file), [...targets].sort());
  }
  return edges;
}

/** Strongly connected components with more than one node (Tarjan). */
export function circles(edges) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const idx = new Map();
  const low = new Map();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return out;
}

export function folderGraph(edges) {
  const folders = new Map();
  for (const [file, targets] of edges) {
    const from = folderOf(file);
    if (!folders.has(from)) folders.set(from, new Set());
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== from) folders.get(from).add(to);
    }
  }
  return new Map([...folders].map(([k, v]) => [k, [...v].sort()]));
}

/**
 * The code roots and the ones each imports: `sim/src` and `sim` (its build and tests) apart, every other file
 * by its top folder. E.g. "scripts" → ["src"].
 */
export function rootGraph(edges) {
  const rootOf = (file) => (file.startsWith("sim/src/") ? "sim/src" : file.split("/")[0]);
  const roots = new Map();
  for (const [file, targets] of edges) {
    const from = rootOf(file);
    if (!roots.has(from)) roots.set(from, new Set());
    for (const target of targets) if (rootOf(target) !== from) roots.get(from).add(rootOf(target));
  }
  return new Map([...roots].sort().map(([k, v]) => [k, [...v].sort()]));
}

/** Edges from a file to a file in a higher layer. */
export function upwardEdges(edges) {
  const out = [];
  for (const [file, targets] of edges) {
    for (const target of targets) if (layerOf(target) > layerOf(file)) out.push([file, target]);
  }
  return out;
}
