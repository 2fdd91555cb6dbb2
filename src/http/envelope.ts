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

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Bad request: malformed JSON, a non-object body, or fields that fail validation (named in error.details).",
  401: "Missing, unknown or revoked credential, or a key from the other environment (ENVIRONMENT_MISMATCH).",
  403: "The credential lacks the permission named in the error, or names a tenant it does not belong to.",
  404: "No such record in this tenant, or no such route.",
  409: "Conflict: an idempotent request still in flight, or a state change the record's status does not allow.",
  413: "Request body too large.",
  415: "Unsupported Content-Type.",
  422: "Idempotency-Key reused with a different request.",
  429: "Rate limited; retry after the number of seconds in Retry-After.",
  500: "Unexpected error; nothing internal is exposed.",
  502: "The upstream provider failed or rejected Ponte's credential.",
  503: "Not ready.",
  504: "The upstream provider did not answer in time.",
};

const errorResponse = (status: number) => ({
  description: ERROR_DESCRIPTIONS[status] ?? "Error",
  content: { "application/json": { schema: ErrorEnvelope } },
});

/** The error responses a route documents, spread into `createRoute({ responses })`. */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, ReturnType<typeof errorResponse>> {
  const out = {} as Record<S, ReturnType<typeof errorResponse>>;
  for (const s of statuses) out[s] = errorResponse(s);
  return out;
}

/** Errors any authenticated route can answer. */
export const AUTHENTICATED_ERRORS = [400, 401, 403, 404, 413, 415, 429, 500] as const;
export const WRITE_ERRORS = [...AUTHENTICATED_ERRORS, 409, 422] as const;

/** The OpenAPI fields every route of a group shares: its tag and whether it is a compatibility (public) or control-plane (internal) operation. */
export const routeGroup = (tag: string, surface: "public" | "internal") => ({ tags: [tag], "x-surface": surface });
