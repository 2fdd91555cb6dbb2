// Types for shapes.mjs (kept beside it so TypeScript callers such as the unit test type-check).
interface CatalogueRow {
  operationId: string;
  upstreamMethod: string;
  upstreamPath: string;
}
export interface ParsedField {
  name: string;
  kind: string;
  of?: string;
  array: boolean;
  required: boolean;
}
export declare function parseField(token: string): ParsedField;
export declare function parseShapes(
  jsonText: string,
  catalogue: readonly CatalogueRow[],
): {
  enums: Record<string, string[]>;
  dtos: Record<string, { fields: ParsedField[]; kind?: string; object?: string; idPrefix?: string; source: string }>;
  operations: Record<string, { method: string; path: string; en?: string; response: string; dto?: string; filters: string[] }>;
};
export declare function renderShapes(jsonText: string, catalogue: readonly CatalogueRow[]): string;
