// The success and error envelopes every response uses, and their OpenAPI schemas.
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ERROR_CODES, type ErrorCode, type ErrorDetails } from "./errors";
import type { Pagination } from "./pagination";

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details: ErrorDetails; requestId: string };
}

export function errorBody(code: ErrorCode, message: string, details: ErrorDetails, requestId: string): ErrorBody {
  return { error: { code, message, details, requestId } };
}

/** `{ data, meta: { requestId } }` with the given success status. */
export function ok<T, S extends ContentfulStatusCode>(c: Context, data: T, status: S) {
  return c.json({ data, meta: { requestId: c.get("requestId") as string } }, status);
}

/** A page of a list: `meta.pagination` holds `{ limit, offset, totalCount, hasMore }`. */
export function okList<T>(c: Context, data: T[], pagination: Pagination) {
  return c.json({ data, meta: { requestId: c.get("requestId") as string, pagination } }, 200);
}

const Meta = z.object({ requestId: z.string() });
const PaginationMeta = z.object({
  limit: z.number().int(),
  offset: z.number().int(),
  totalCount: z.number().int(),
  hasMore: z.boolean(),
});

export const envelopeOf = <T extends z.ZodType>(data: T) => z.object({ data, meta: Meta });
export const listEnvelopeOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: Meta.extend({ pagination: PaginationMeta }) });

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).openapi({ example: "VALIDATION_FAILED" }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
      requestId: z.string(),
    }),
  })
  .openapi("Error");
