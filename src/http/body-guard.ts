// Request bodies: size limit (413), content type (415), well-formed JSON object no deeper than
// LIMITS.maxJsonDepth (400), checked before any route runs so every route gets the same answers.
// An empty body is no body: its Content-Type is dropped, so an operation whose body is optional
// reads it as `{}` and one whose body is required answers 400 VALIDATION_FAILED (see
// `validationHook`), whatever type an older client declared for nothing.
import type { Context, MiddlewareHandler } from "hono";
import { LIMITS } from "../config";
import type { AppEnv } from "./app-env";
import { ApiError } from "./errors";

/** The methods whose requests may carry a body: the app registers the guard for these only. */
export const BODY_METHODS = ["POST", "PUT", "PATCH", "DELETE"];
const METHODS_WITH_BODY = new Set(BODY_METHODS);

function mediaType(header: string | undefined): string {
  return ((header ?? "").split(";", 1)[0] ?? "").trim().toLowerCase();
}

function tooLarge(limit: number): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", `Request body exceeds the limit of ${limit} bytes.`, { limitBytes: limit });
}

/** Reads at most `limit` bytes of the body; throws 413 as soon as the stream passes the limit. */
async function readBounded(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** The deepest nesting of arrays and objects in JSON text, without parsing it (so without recursion). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) max = Math.max(max, ++depth);
    else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return max;
}

/** Checks a JSON body: well-formed, an object, not nested past the limit. */
export function checkJsonBody(text: string): void {
  const depth = jsonDepth(text);
  if (depth > LIMITS.maxJsonDepth) {
    throw new ApiError("INVALID_BODY", `Request body nests arrays and objects ${depth} deep; the limit is ${LIMITS.maxJsonDepth}.`, {
      maxDepth: LIMITS.maxJsonDepth,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("MALFORMED_JSON", "Request body is not valid JSON.");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ApiError("INVALID_BODY", "Request body must be a JSON object.", {
      received: parsed === null ? "null" : Array.isArray(parsed) ? "array" : typeof parsed,
    });
  }
}

/** The body bytes each request the guard passed on carries (by its Request: a Request replaced later has none). */
const bodies = new WeakMap<Request, Uint8Array>();
const NO_BYTES = new Uint8Array(0);

/**
 * The body of `request` as the guard read it (empty for no body), when `request` is the one the guard passed on;
 * undefined otherwise. Lets a reader of the whole body (the Idempotency-Key's fingerprint) skip a copy of it.
 */
export const guardedBodyOf = (request: Request): Uint8Array | undefined => bodies.get(request);

/** Replaces the request with one whose body is `bytes`, or no body and no Content-Type when empty. */
function withBody(c: Context<AppEnv>, bytes: Uint8Array | null) {
  const empty = bytes === null || bytes.byteLength === 0;
  const headers = new Headers(c.req.raw.headers);
  if (empty) {
    headers.delete("content-type");
    headers.delete("content-length");
  }
  const request = new Request(c.req.raw, { headers, body: empty ? null : bytes });
  bodies.set(request, empty ? NO_BYTES : bytes);
  c.req.raw = request;
}

export const bodyGuard = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (!METHODS_WITH_BODY.has(c.req.method)) return next();
  const declaredLength = c.req.header("content-length");
  const stream = c.req.raw.body;
  if (stream === null || declaredLength === "0") {
    withBody(c, null);
    return next();
  }

  const type = mediaType(c.req.header("content-type"));
  const isJson = type === "application/json" || type.endsWith("+json");
  const isMultipart = type === "multipart/form-data";
  const unsupported = () =>
    new ApiError("UNSUPPORTED_MEDIA_TYPE", "Request bodies must be application/json (multipart/form-data for document uploads).", {
      contentType: type || null,
    });
  // A declared length says there is something to refuse without reading it.
  if (!isJson && !isMultipart && declaredLength !== undefined && Number(declaredLength) > 0) throw unsupported();
  const limit = isMultipart ? LIMITS.maxMultipartBodyBytes : LIMITS.maxJsonBodyBytes;
  if (declaredLength !== undefined && Number(declaredLength) > limit) throw tooLarge(limit);
  const bytes = await readBounded(stream, limit);
  if (bytes.byteLength === 0) {
    // Nothing was sent, whatever the Content-Type said.
    withBody(c, null);
    return next();
  }
  if (!isJson && !isMultipart) throw unsupported();
  if (isJson) checkJsonBody(new TextDecoder().decode(bytes));
  // Later readers (validators, the gateway) get the bytes already read.
  withBody(c, bytes);
  await next();
};
