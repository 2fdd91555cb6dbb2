export const LAYERS: string[][];
export function folderOf(file: string): string;
export function layerOf(file: string): number;
/** `dir` defaults to "src"; "sim/src" gives the upstream simulator's graph. */
export function importGraph(root: string, dir?: string): Map<string, string[]>;
export function circles(edges: Map<string, string[]>): string[][];
export function folderGraph(edges: Map<string, string[]>): Map<string, string[]>;
export function upwardEdges(edges: Map<string, string[]>): [string, string][];
