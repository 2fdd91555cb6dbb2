// The query parameters a passthrough operation takes, from the generated upstream shapes: a list's
// `offset` and `limit` plus its documented filters, or the documented filters of another operation
// (the payment statistics). Those operations answer 400 naming any other parameter, as every native
// route does (src/http/query-rule.ts). The shapes document no query for the upstream's other
// operations, yet some take one (the Pix key look-up's `key` and `type`, a sub-account's
// `removeReason`…): their query string is forwarded as sent, unchecked (docs/concepts.md "One rule for query strings").
import { upstreamShape } from "./upstream-shapes";

/** The names `operationId` accepts, or null when its query is forwarded unchecked. */
export function passthroughQueryNames(operationId: string): ReadonlySet<string> | null {
  const shape = upstreamShape(operationId);
  if (!shape) return null;
  if (shape.response === "list") return new Set(["offset", "limit", ...shape.filters]);
  return shape.filters.length > 0 ? new Set(shape.filters) : null;
}
