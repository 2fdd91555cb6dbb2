export const LAYERS: string[][];
/** Every folder that holds code: src, sim, scripts, test, bench, clients, public. */
export const CODE_ROOTS: string[];
export function folderOf(file: string): string;
export function layerOf(file: string): number;
/** `dirs` defaults to "src"; "sim/src" gives the upstream simulator's graph, CODE_ROOTS all the code's. */
export function importGraph(root: string, dirs?: string | readonly string[]): Map<string, string[]>;
export function circles(edges: Map<string, string[]>): string[][];
export function folderGraph(edges: Map<string, string[]>): Map<string, string[]>;
/** The code roots ("src", "sim/src", "sim", "scripts", …) and the ones each imports. */
export function rootGraph(edges: Map<string, string[]>): Map<string, string[]>;
export function upwardEdges(edges: Map<string, string[]>): [string, string][];
