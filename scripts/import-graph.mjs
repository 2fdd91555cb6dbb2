// `npm run graph`: the import graph of src/ — file-level circles, folder-level circles and edges that
// point up the layer order (see docs/architecture.md and scripts/lib/import-graph.mjs) — and then of all
// the code (CODE_ROOTS: src, sim, scripts, test, bench, clients, public): circles within or across them.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CODE_ROOTS, LAYERS, circles, folderGraph, importGraph, rootGraph, upwardEdges } from "./lib/import-graph.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const importCount = (graph) => [...graph.values()].reduce((n, t) => n + t.length, 0);
const edges = importGraph(root);
const fileCircles = circles(edges);
const folderCircles = circles(folderGraph(edges));
const upward = upwardEdges(edges);

console.log(`src/ layers (low → high): ${LAYERS.map((l) => l.join("/")).join(" ← ")}`);
console.log(`${edges.size} files, ${importCount(edges)} imports`);
console.log(`\nfile circles: ${fileCircles.length}`);
for (const c of fileCircles) console.log(`  (${c.length} files) ${c.join(", ")}`);
console.log(`\nfolder circles: ${folderCircles.length}`);
for (const c of folderCircles) console.log(`  ${c.join(" ↔ ")}`);
console.log(`\nupward edges: ${upward.length}`);
for (const [from, to] of upward) console.log(`  ${from} → ${to}`);

// All the code: the simulator, the scripts, the tests and the benchmarks have no layers, but no circles either.
const all = importGraph(root, CODE_ROOTS);
const allCircles = circles(all);
const roots = rootGraph(all);
const rootCircles = circles(roots);
console.log(`\nall code (${CODE_ROOTS.join(", ")}): ${all.size} files, ${importCount(all)} imports`);
for (const [from, to] of roots) if (to.length > 0) console.log(`  ${from} → ${to.join(", ")}`);
console.log(`\nfile circles in all code: ${allCircles.length}`);
for (const c of allCircles) console.log(`  (${c.length} files) ${c.join(", ")}`);
console.log(`\ncircles between folders: ${rootCircles.length}`);
for (const c of rootCircles) console.log(`  ${c.join(" ↔ ")}`);
