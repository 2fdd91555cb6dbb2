// Request bodies: size limit (413), content type (415), well-formed JSON object (400), checked
// before any route runs so every route gets the same answers.
import type { MiddlewareHandler } from "hono";
import { LIMITS } from "../config";
import type { AppEnv } from "./app-env";
import { ApiError } from "./errors";

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
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

export const bodyGuard = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (!METHODS_WITH_BODY.has(c.req.method)) return next();
  const declaredLength = c.req.header("content-length");
  const hasBody = c.req.raw.body !== null && declaredLength !== "0";
  if (!hasBody) return next();

  const type = mediaType(c.req.header("content-type"));
  const isJson = type === "application/json" || type.endsWith("+json");
  const isMultipart = type === "multipart/form-data";
  if (!isJson && !isMultipart) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Request bodies must be application/json (multipart/form-data for document uploads).", {
      contentType: type || null,
    });
  }
  const limit = isJson ? LIMITS.maxJsonBodyBytes : LIMITS.maxMultipartBodyBytes;
  if (declaredLength !== undefined && Number(declaredLength) > limit) throw tooLarge(limit);

  const bytes = await readBounded(c.req.raw.body!, limit);
  if (isJson && bytes.byteLength > 0) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new ApiError("MALFORMED_JSON", "Request body is not valid JSON.");
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new ApiError("INVALID_BODY", "Request body must be a JSON object.", {
        received: parsed === null ? "null" : Array.isArray(parsed) ? "array" : typeof parsed,
      });
    }
  }
  // Later readers (validators, the gateway) get the bytes already read.
  c.req.raw = new Request(c.req.raw, { body: bytes.byteLength > 0 ? bytes : null });
  await next();
};
