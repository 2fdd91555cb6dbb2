// Types for render.mjs (kept beside it so TypeScript callers such as the unit test type-check).
import type { CatalogueAlias, CatalogueOperation } from "../../src/compat/catalogue";

export declare const HEADER: readonly string[];
export declare function parseCatalogue(tsvText: string): CatalogueOperation[];
export declare function renderCatalogue(tsvText: string): string;
export declare function aliasesOf(rows: readonly CatalogueOperation[]): CatalogueAlias[];
