// Which part of the API a path belongs to: its first segment under /api/v1 (the unit the app is
// loaded and built in, src/lazy-app.ts), or the console.

/** The path of a request URL (`http://host/api/v1/x?y` → `/api/v1/x`), without parsing the whole URL. */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return url.slice(start, query < 0 ? undefined : query);
}

/** The console lives at /console, outside /api/v1; it is addressed as this segment. */
export const CONSOLE_SEGMENT = "console";

/** `/api/v1/customers/…` → `customers`; `/console/…` → `console`; anything else → undefined. */
export function segmentOf(path: string): string | undefined {
  if (path.startsWith("/api/v1/")) {
    const end = path.indexOf("/", 8);
    const segment = path.slice(8, end < 0 ? undefined : end);
    return segment.includes("%") ? decoded(segment) : segment;
  }
  if (path === "/console" || path.startsWith("/console/")) return CONSOLE_SEGMENT;
  return undefined;
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
