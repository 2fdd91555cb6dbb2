// One rule for query strings (docs/concepts.md "One rule for query strings"): a query parameter the operation does not declare
// is a 400 VALIDATION_FAILED naming it (`query.<name>`, code `unrecognized_keys`), never silently
// ignored — a misspelt filter or option (`?groupby=plan`) would otherwise answer something else.
// One place: every route registered through the app's `openapi()` checks the names its declared zod
// query schema lists (none when it declares no query; src/http/route-chain.ts puts the check); the
// passthrough routes, which forward the query as sent, apply the same check with the names their
// upstream shapes document (src/compat/passthrough-query.ts). The check runs after the route's own
// middleware (authentication and permission answer first) and before its validators.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import { ApiError } from "./errors";

/** The parameter names a zod object schema declares (through a pipe or a refinement); none for no schema. */
export function declaredQueryNames(schema: unknown): ReadonlySet<string> {
  let s = schema as { shape?: Record<string, unknown>; _zod?: { def?: { in?: unknown; innerType?: unknown } } } | undefined;
  for (let depth = 0; s && depth < 8; depth++) {
    if (s.shape && typeof s.shape === "object") return new Set(Object.keys(s.shape));
    const def = s._zod?.def;
    s = (def?.in ?? def?.innerType) as typeof s;
  }
  return new Set();
}

const NONE: readonly string[] = Object.freeze([]);

/** The names in the request's query string that are not in `declared`, each once, in the order sent. */
export function unknownQueryNames(url: string, declared: ReadonlySet<string>): readonly string[] {
  const q = url.indexOf("?");
  if (q < 0) return NONE; // most requests: no query string, nothing allocated
  const unknown = new Set<string>();
  for (const name of new URLSearchParams(url.slice(q + 1).split("#", 1)[0]).keys()) if (!declared.has(name)) unknown.add(name);
  return [...unknown];
}

/** The 400 naming each unknown parameter, in the shape zod's own unknown-key failures take. */
export function unknownQueryError(names: readonly string[]): ApiError {
  const fields = names.map((name) => ({ path: `query.${name}`, message: "unknown parameter", code: "unrecognized_keys" }));
  return new ApiError("VALIDATION_FAILED", `Invalid query: ${fields.map((f) => f.path).join(", ")}.`, { fields });
}

/** Middleware refusing any query parameter outside `declared`. */
export function queryRule(declared: ReadonlySet<string>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const unknown = unknownQueryNames(c.req.url, declared);
    if (unknown.length > 0) throw unknownQueryError(unknown);
    await next();
  };
}
