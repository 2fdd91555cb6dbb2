// One table maps every error code to its HTTP status; everything else reads it.

export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  MALFORMED_JSON: 400,
  INVALID_BODY: 400,
  VALIDATION_FAILED: 400,
  IDEMPOTENCY_KEY_INVALID: 400,
  UNAUTHORIZED: 401,
  ENVIRONMENT_MISMATCH: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  INVALID_STATE: 409,
  GATEWAY_ACCOUNT_MISSING: 409,
  /** The record is referenced (e.g. a cost category with expenses); archive it instead. */
  IN_USE: 409,
  /** The change would leave the organization without an owner. */
  LAST_OWNER: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  /** Stored data or a stored definition takes a value past a documented bound (docs/security.md "Limits"). */
  LIMIT_EXCEEDED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UPSTREAM_ERROR: 502,
  UPSTREAM_AUTH_FAILED: 502,
  NOT_READY: 503,
  UPSTREAM_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** What a 500 tells the client: nothing of the fault, only that the request id identifies it. */
export const INTERNAL_ERROR_MESSAGE = "An unexpected error occurred. Quote the request id if you contact support.";
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export type ErrorDetails = Record<string, unknown>;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: (typeof ERROR_STATUS)[ErrorCode];
  readonly details: ErrorDetails;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, headers: Record<string, string> = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = details;
    this.headers = headers;
  }
}

export const notFound = (resource: string, id?: string) =>
  new ApiError("NOT_FOUND", id ? `No ${resource} with id '${id}'.` : `${resource} not found.`, id ? { id } : {});
