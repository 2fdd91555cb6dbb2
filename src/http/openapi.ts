// The shared pieces every route's OpenAPI description is built from: request bodies, success and
// error responses, the group fields, and documented-only variants. One module, so a route file
// holds only its operations (each `createRoute` with its handler directly under it).
import type { OpenAPIHono, RouteConfig, z } from "@hono/zod-openapi";
import type { AppEnv } from "./app-env";
import { ErrorEnvelope, envelopeOf, listEnvelopeOf } from "./envelope";

/** `{ "application/json": { schema } }`: the content map of a body or a response. */
export const jsonContent = <T>(schema: T) => ({ "application/json": { schema } });

/** A JSON request body (required unless told otherwise). */
export const jsonBody = <T>(schema: T, required = true) => ({ required, content: jsonContent(schema) });

/** A success response whose body is `{ data: <schema>, meta }`. */
export const dataResponse = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: jsonContent(envelopeOf(schema)),
});

/** A success response whose body is a page: `{ data: <item>[], meta: { requestId, pagination } }`. */
export const listResponse = <T extends z.ZodType>(description: string, item: T) => ({
  description,
  content: jsonContent(listEnvelopeOf(item)),
});

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
  content: jsonContent(ErrorEnvelope),
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
/** What a route that calls the upstream provider adds: it failed (502) or did not answer in time (504). */
export const UPSTREAM_ERRORS = [502, 504] as const;

/** The OpenAPI fields every route of a group shares: its tag and whether it is a compatibility (public) or control-plane (internal) operation. */
export const routeGroup = (tag: string, surface: "public" | "internal") => ({ tags: [tag], "x-surface": surface });

/**
 * An operation variant documented at its own path (e.g. the card variant of POST /payments at
 * /payments/) but served by another route: registered in the document only.
 */
export function documentVariant(app: OpenAPIHono<AppEnv>, route: RouteConfig) {
  // Route middleware is runtime wiring, not part of the OpenAPI operation object.
  const { middleware: _middleware, ...operation } = route;
  app.openAPIRegistry.registerPath(operation);
}
