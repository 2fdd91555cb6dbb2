// `npm run graph`: the import graph of src/ — file-level circles, folder-level circles and edges that
// point up the layer order (see docs/architecture.md, Layers and scripts/lib/import-graph.mjs).
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { LAYERS, circles, folderGraph, importGraph, upwardEdges } from "./lib/import-graph.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const edges = importGraph(root);
const fileCircles = circles(edges);
const folderCircles = circles(folderGraph(edges));
const upward = upwardEdges(edges);

console.log(`layers (low → high): ${LAYERS.map((l) => l.join("/")).join(" ← ")}`);
console.log(`${edges.size} files, ${[...edges.values()].reduce((n, t) => n + t.length, 0)} imports`);
console.log(`\nfile circles: ${fileCircles.length}`);
for (const c of fileCircles) console.log(`  (${c.length} files) ${c.join(", ")}`);
console.log(`\nfolder circles: ${folderCircles.length}`);
for (const c of folderCircles) console.log(`  ${c.join(" ↔ ")}`);
console.log(`\nupward edges: ${upward.length}`);
for (const [from, to] of upward) console.log(`  ${from} → ${to}`);

// The upstream simulator (sim/src) has no layers, but no circles either.
const simCircles = circles(importGraph(root, "sim/src"));
console.log(`\nsim/ file circles: ${simCircles.length}`);
for (const c of simCircles) console.log(`  (${c.length} files) ${c.join(", ")}`);
