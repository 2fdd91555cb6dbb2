export const LAYERS: string[][];
export function folderOf(file: string): string;
export function layerOf(file: string): number;
export function importGraph(root: string): Map<string, string[]>;
export function circles(edges: Map<string, string[]>): string[][];
export function folderGraph(edges: Map<string, string[]>): Map<string, string[]>;
export function upwardEdges(edges: Map<string, string[]>): [string, string][];
