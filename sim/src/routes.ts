// Path matching against `{param}` patterns: a request resolves to the catalogue operation whose upstream
// method and path it matches (its handler: catalogue-table.ts).
import { CATALOGUE, type CatalogueOperation } from "../../src/compat/catalogue";

const segmentsOf = (path: string) => path.replace(/\/+$/, "").split("/").filter(Boolean);

/** Matches a concrete path against a `{param}` pattern (trailing slash ignored); returns params or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = segmentsOf(pattern);
  const got = segmentsOf(path);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? "";
    const g = got[i] ?? "";
    if (w.startsWith("{") && w.endsWith("}")) params[w.slice(1, -1)] = decodeURIComponent(g);
    else if (w !== g) return null;
  }
  return params;
}

/** Literal segments beat parameters, earliest position first (`/payments/limits` over `/payments/{id}`). */
function specificity(pattern: string): string {
  return segmentsOf(pattern)
    .map((s) => (s.startsWith("{") ? "0" : "1"))
    .join("");
}

export type Resolved = { kind: "catalogue"; operation: CatalogueOperation; params: Record<string, string> } | { kind: "none" };

/** Finds the most specific catalogue operation for a request (on a tie, the first in catalogue order). */
export function resolve(method: string, path: string): Resolved {
  let best: Resolved = { kind: "none" };
  let bestScore = "";
  const consider = (pattern: string, make: (params: Record<string, string>) => Resolved) => {
    const params = matchPath(pattern, path);
    if (!params) return;
    const score = specificity(pattern);
    if (best.kind === "none" || score > bestScore) {
      best = make(params);
      bestScore = score;
    }
  };
  for (const op of CATALOGUE) {
    if (op.upstreamMethod === method) consider(op.upstreamPath, (params) => ({ kind: "catalogue", operation: op, params }));
  }
  return best;
}
