// The upstream's URL layouts, which the Asaas dialect serves as /api/v1: `/v3/…` (Asaas's base URL
// `https://api.asaas.com/v3`, sandbox `https://api-sandbox.asaas.com/v3`) and the legacy `/api/v3/…`
// (`https://www.asaas.com/api/v3`, still used by clients such as the npm `asaas-sdk`). The dialect's entry
// (src/compat/asaas-dialect/request.ts) moves such a request under /api/v1 and says in a header where it
// came from, so an answer that names the route (404, 405) names the path the caller sent.
export const UPSTREAM_LAYOUTS = ["/v3", "/api/v3"] as const;
export type UpstreamLayout = (typeof UPSTREAM_LAYOUTS)[number];

/** Set by the dialect's entry on the rewritten request (a value sent by a client is overwritten there). */
export const UPSTREAM_LAYOUT_HEADER = "x-ponte-upstream-layout";

const API = "/api/v1";

/** `path` (routed under /api/v1) as the caller sent it: `/api/v1/x` asked at `/v3/x` is `/v3/x`. */
export function pathAsSent(headers: Headers, path: string): string {
  const layout = headers.get(UPSTREAM_LAYOUT_HEADER);
  if (!UPSTREAM_LAYOUTS.includes(layout as UpstreamLayout) || !(path === API || path.startsWith(`${API}/`))) return path;
  return `${layout}${path.slice(API.length)}`;
}
