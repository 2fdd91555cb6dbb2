// CSRF defence for cookie-authenticated writes: the browser's Origin (or Sec-Fetch-Site) must say the
// request comes from this very origin. Bearer-key requests never reach these checks.
import type { Context } from "hono";
import { ApiError } from "../http/errors";

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const isWriteMethod = (method: string) => WRITE_METHODS.has(method.toUpperCase());

/** "same" when the browser vouches for it, "cross" when it says otherwise, "unknown" when it sent neither header. */
export function requestSite(c: Context): "same" | "cross" | "unknown" {
  const origin = c.req.header("origin");
  if (origin !== undefined) return origin === new URL(c.req.url).origin ? "same" : "cross";
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined) return site === "same-origin" ? "same" : "cross";
  return "unknown";
}

/** A cookie-authenticated write: the browser must positively vouch for the origin. */
export function requireSameOrigin(c: Context): void {
  if (requestSite(c) !== "same") {
    throw new ApiError(
      "FORBIDDEN",
      "Cookie-authenticated writes must come from this site's own pages (Origin or Sec-Fetch-Site must name this origin).",
      {
        origin: c.req.header("origin") ?? null,
      },
    );
  }
}

/** Sign-up and sign-in carry no cookie yet: refuse only what a browser says is cross-site (login CSRF). */
export function refuseCrossSite(c: Context): void {
  if (requestSite(c) === "cross") requireSameOrigin(c);
}
