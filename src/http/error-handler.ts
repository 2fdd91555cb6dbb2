// Turns every failure into the error envelope: thrown ApiErrors, validation failures, unknown
// paths (404), known paths with the wrong method (405) and anything unexpected (500, no internals).
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";
import type { AppEnv } from "./app-env";
import { errorBody } from "./envelope";
import { ApiError, ERROR_STATUS, type ErrorCode, type ErrorDetails } from "./errors";

export function errorResponse(c: Context, code: ErrorCode, message: string, details: ErrorDetails = {}, headers: Record<string, string> = {}) {
  const requestId = (c.get("requestId") as string | undefined) ?? "unknown";
  return c.json(errorBody(code, message, details, requestId), ERROR_STATUS[code], headers);
}

export const handleError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof ApiError) return errorResponse(c, err.code, err.message, err.details, err.headers);
  if (err instanceof HTTPException) {
    // Hono's own validators throw these, e.g. for a body that is not JSON.
    if (err.status === 400) return errorResponse(c, "MALFORMED_JSON", "Request body is not valid JSON.");
    if (err.status === 413) return errorResponse(c, "PAYLOAD_TOO_LARGE", "Request body too large.");
    if (err.status === 401) return errorResponse(c, "UNAUTHORIZED", "Authentication required.");
  }
  // Log the failure for operators; the client learns only the request id.
  console.error(JSON.stringify({ level: "error", requestId: c.get("requestId"), error: err instanceof Error ? err.stack ?? err.message : String(err) }));
  return errorResponse(c, "INTERNAL_ERROR", "An unexpected error occurred. Quote the request id if you contact support.");
};

/** Validation failures name each failing field: `details.fields[] = { path, message, code }`. */
export function validationFailed(error: ZodError, target: string): ApiError {
  const fields = error.issues.map((issue) => ({
    path: [target === "json" ? "body" : target, ...issue.path.map(String)].join("."),
    message: issue.message,
    code: issue.code,
  }));
  return new ApiError("VALIDATION_FAILED", `Invalid ${target === "json" ? "request body" : target}: ${fields.map((f) => f.path).join(", ")}.`, { fields });
}

export const validationHook = (result: { success: boolean; error?: unknown; target: string }) => {
  if (!result.success) throw validationFailed(result.error as ZodError, result.target);
};

type RouteTable = { method: string; path: string }[];

/** 404 for unknown paths, 405 (with Allow) for a known path asked with another method. */
export function notFoundHandler(routes: () => RouteTable): NotFoundHandler<AppEnv> {
  let matchers: { pattern: RegExp; methods: Set<string> }[] | undefined;
  return (c) => {
    matchers ??= buildMatchers(routes());
    const path = c.req.path.length > 1 ? c.req.path.replace(/\/+$/, "") : c.req.path;
    const allowed = new Set<string>();
    for (const m of matchers) if (m.pattern.test(path)) for (const method of m.methods) allowed.add(method);
    if (allowed.size > 0 && !allowed.has(c.req.method)) {
      const allow = [...allowed].sort().join(", ");
      return errorResponse(c, "METHOD_NOT_ALLOWED", `${c.req.method} is not allowed on ${c.req.path}. Allowed: ${allow}.`, { allowed: [...allowed].sort() }, { Allow: allow });
    }
    return errorResponse(c, "NOT_FOUND", `No route for ${c.req.method} ${c.req.path}.`);
  };
}

function buildMatchers(routes: RouteTable) {
  const byPath = new Map<string, Set<string>>();
  for (const r of routes) {
    if (r.method === "ALL" || r.path.endsWith("*")) continue;
    const set = byPath.get(r.path) ?? new Set<string>();
    set.add(r.method);
    if (r.method === "GET") set.add("HEAD");
    byPath.set(r.path, set);
  }
  return [...byPath].map(([path, methods]) => ({
    pattern: new RegExp(`^${path.replace(/\/+$/, "").split("/").map((seg) => (seg.startsWith(":") ? "[^/]+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/")}$`),
    methods,
  }));
}
