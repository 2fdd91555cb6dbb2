// Turns every failure into the error envelope: thrown ApiErrors, validation failures, unknown
// paths (404), known paths with the wrong method (405) and anything unexpected (500, no internals).
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";
import type { AppEnv } from "./app-env";
import { errorBody } from "./envelope";
import { ApiError, ERROR_STATUS, type ErrorCode, type ErrorDetails, INTERNAL_ERROR_MESSAGE } from "./errors";
import { logLine, summarizeError } from "../lib/log";
import { pathAsSent } from "./upstream-layout";

export function errorResponse(
  c: Context,
  code: ErrorCode,
  message: string,
  details: ErrorDetails = {},
  headers: Record<string, string> = {},
) {
  const requestId = (c.get("requestId") as string | undefined) ?? "unknown";
  return c.json(errorBody(code, message, details, requestId), ERROR_STATUS[code], headers);
}

/** What a framework-thrown HTTPException below 500 (a validator's 400, the media-type gate's 415…) means in the envelope. */
const HTTP_EXCEPTION_CODES: Partial<Record<number, ErrorCode>> = {
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

function httpExceptionResponse(c: Context, err: HTTPException) {
  if (err.status === 400) {
    // Hono's validators: a body that is not JSON, or form data that does not parse.
    return /json/i.test(err.message)
      ? errorResponse(c, "MALFORMED_JSON", "Request body is not valid JSON.")
      : errorResponse(c, "BAD_REQUEST", err.message || "Bad request.");
  }
  if (err.status === 415) {
    return errorResponse(c, "UNSUPPORTED_MEDIA_TYPE", "This operation does not accept the Content-Type sent; send application/json.", {
      contentType: c.req.header("content-type") ?? null,
    });
  }
  const code = HTTP_EXCEPTION_CODES[err.status] ?? "BAD_REQUEST";
  return errorResponse(c, code, err.message || code.toLowerCase().replaceAll("_", " "));
}

export const handleError: ErrorHandler<AppEnv> = (err, c) => {
  // An ApiError thrown inside a database call (the idempotency claim's gate) reaches here wrapped by drizzle.
  const apiError = err instanceof ApiError ? err : err instanceof Error && err.cause instanceof ApiError ? err.cause : null;
  if (apiError) return errorResponse(c, apiError.code, apiError.message, apiError.details, apiError.headers);
  // Anything the client's request caused is a 4xx in the envelope; only a server fault is a 500.
  if (err instanceof HTTPException && err.status < 500) return httpExceptionResponse(c, err);
  // Log the failure for operators; the client learns only the request id.
  logLine("error", "request failed", { requestId: c.get("requestId"), error: summarizeError(err) });
  return errorResponse(c, "INTERNAL_ERROR", INTERNAL_ERROR_MESSAGE);
};

/** Validation failures name each failing field: `details.fields[] = { path, message, code }`. */
export function validationFailed(error: ZodError, target: string): ApiError {
  const root = target === "json" ? "body" : target;
  // An unknown key is named by its own path (`query.dueDate[gt]`), one entry per key.
  const fields = error.issues.flatMap((issue): { path: string; message: string; code: string }[] =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({
          path: [root, ...issue.path.map(String), key].join("."),
          message: target === "query" ? "unknown parameter" : "unknown field",
          code: issue.code,
        }))
      : [{ path: [root, ...issue.path.map(String)].join("."), message: issue.message, code: issue.code }],
  );
  return new ApiError(
    "VALIDATION_FAILED",
    `Invalid ${target === "json" ? "request body" : target}: ${fields.map((f) => f.path).join(", ")}.`,
    { fields },
  );
}

/**
 * Every route's validator hook. The body guard turns an empty body into no body; an operation whose
 * body is optional then never reaches the JSON validator (it reads `{}`), so a JSON target with no
 * body here is an operation whose body is required: 400, even when every field is optional.
 */
export const validationHook = (result: { success: boolean; error?: unknown; target: string }, c: Context) => {
  if (result.target === "json" && c.req.raw.body === null) {
    throw new ApiError("VALIDATION_FAILED", "This operation requires a request body: a JSON object.", {
      fields: [{ path: "body", message: "required: a JSON object", code: "invalid_type" }],
    });
  }
  if (!result.success) throw validationFailed(result.error as ZodError, result.target);
};

type RouteTable = { method: string; path: string }[];

/** 404 for unknown paths, 405 (with Allow) for a known path asked with another method. */
export function notFoundHandler(routes: () => RouteTable): NotFoundHandler<AppEnv> {
  let matchers: PathMatcher[] | undefined;
  return (c) => {
    matchers ??= pathMatchers(routes());
    const path = c.req.path.length > 1 ? c.req.path.replace(/\/+$/, "") : c.req.path;
    const asked = pathAsSent(c.req.raw.headers, c.req.path); // the caller's, e.g. /v3/… in the Asaas dialect
    const allowed = allowedMethods(matchers, path);
    if (allowed.length > 0 && !allowed.includes(c.req.method)) {
      const allow = allowed.join(", ");
      return errorResponse(
        c,
        "METHOD_NOT_ALLOWED",
        `${c.req.method} is not allowed on ${asked}. Allowed: ${allow}.`,
        { allowed },
        { Allow: allow },
      );
    }
    return errorResponse(c, "NOT_FOUND", `No route for ${c.req.method} ${asked}.`);
  };
}

/** A route's path as its segments (`null` where a `:param` takes any non-empty segment), with its methods. */
interface PathMatcher {
  readonly segments: readonly (string | null)[];
  readonly methods: Set<string>;
}

/**
 * The app's routes by path, compared segment by segment: no RegExp per route (a session's first 404 used to compile one
 * per route of its app, ~5 ms). Catch-all routes (`ALL`, a trailing `*`) name no method of their own and are skipped.
 */
export function pathMatchers(routes: RouteTable): PathMatcher[] {
  const byPath = new Map<string, Set<string>>();
  for (const r of routes) {
    if (r.method === "ALL" || r.path.endsWith("*")) continue;
    const set = byPath.get(r.path) ?? new Set<string>();
    set.add(r.method);
    if (r.method === "GET") set.add("HEAD");
    byPath.set(r.path, set);
  }
  return [...byPath].map(([path, methods]) => ({
    segments: (path.length > 1 ? path.replace(/\/+$/, "") : path).split("/").map((seg) => (seg.startsWith(":") ? null : seg)),
    methods,
  }));
}

/** The methods the routes answer on `path` (no trailing slash), sorted; empty when no route has the path. */
export function allowedMethods(matchers: readonly PathMatcher[], path: string): string[] {
  const asked = path.split("/");
  const allowed = new Set<string>();
  for (const { segments, methods } of matchers) {
    if (segments.length !== asked.length) continue;
    if (segments.every((seg, i) => (seg === null ? asked[i] !== "" : seg === asked[i]))) for (const method of methods) allowed.add(method);
  }
  return [...allowed].sort();
}
