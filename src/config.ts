// Bindings, the deployment environment, and the spec's limits: the one place each is defined.

export type Environment = "production" | "sandbox" | "local";

/** Which API keys a host accepts: production takes live keys, sandbox and local take test keys. */
export type KeyEnvironment = "live" | "test";

export interface Env {
  ENVIRONMENT: Environment;
  /** Ponte's version as reported in User-Agent headers and the OpenAPI document. */
  PONTE_VERSION?: string;
  DB: D1Database;
  /** Workers rate-limiting binding, keyed per API key. */
  API_RATE_LIMITER: RateLimit;
  /** Local only: the upstream simulator worker, reached through a service binding. */
  UPSTREAM?: Fetcher;
  /** AES-GCM key (base64, 32 bytes) that encrypts secrets at rest: upstream keys, webhook secrets. */
  SECRETS_ENCRYPTION_KEY: string;
  /** Public origin of this deployment, used to build inbound webhook URLs. */
  PUBLIC_BASE_URL?: string;
  /** "1" (local benchmarks only): count D1 round trips per request into the X-D1-Queries header. */
  D1_QUERY_COUNTING?: string;
  /** The outbox queue: `{ eventId }` messages, consumed by the webhook fan-out. */
  EVENTS_QUEUE: Queue<unknown>;
  /** One EndpointDO per webhook endpoint id: retry alarms and the consecutive-failure streak. */
  ENDPOINT_DO: DurableObjectNamespace<import("./events/endpoint-do").EndpointDO>;
  /** Milliseconds before an upstream call gives up (504); defaults to LIMITS.upstreamTimeoutMs. For tests and local benches. */
  UPSTREAM_TIMEOUT_MS?: string;
}

export const API_PREFIX = "/api/v1";
export const API_VERSION = "1.0.0";
export const PONTE_VERSION = "1.0.0";

export const LIMITS = {
  /** Largest JSON request body accepted (413 beyond). */
  maxJsonBodyBytes: 1024 * 1024,
  /** Largest multipart body (document uploads forwarded to the upstream). */
  maxMultipartBodyBytes: 10 * 1024 * 1024,
  pageSizeDefault: 10,
  pageSizeMax: 100,
  idempotencyKeyMaxLength: 255,
  idempotencyTtlSeconds: 24 * 60 * 60,
  /** An in-flight idempotency record older than this is treated as abandoned (the worker died). */
  idempotencyInFlightStaleSeconds: 60,
  /** A cached API-key lookup is re-read in the background once older than this… */
  apiKeyCacheFreshMs: 1_000,
  /** …and never served once older than this (see src/auth/key-cache.ts). */
  apiKeyCacheMaxAgeMs: 10_000,
  apiKeyCacheEntries: 10_000,
  /** Skip rewriting api_keys.last_used_at more often than this, so reads stay at one query. */
  apiKeyLastUsedResolutionSeconds: 60,
  apiKeySecretLength: 40,
  webhookTimestampToleranceSeconds: 300,
  webhookDeliveryTimeoutMs: 10_000,
  webhookAttempts: 6,
  webhookFirstBackoffSeconds: 10,
  webhookDisableAfterConsecutiveFailures: 15,
  /** After a rotation the old secret keeps signing (a second v1) for this long. */
  webhookSecretOverlapSeconds: 24 * 60 * 60,
  /** Bytes of a receiver's response body kept in the webhook log. */
  webhookResponseExcerptBytes: 1024,
  webhookEndpointsPerWorkspace: 16,
  /** A fanned-out delivery's first attempt belongs to the queue consumer for this long before the alarm may take it. */
  webhookHandOffLeaseSeconds: 30,
  /** Events not fanned out, or deliveries overdue, by this much are picked up by the cron sweeper. */
  webhookSweepGraceSeconds: 60,
  upstreamTimeoutMs: 30_000,
  /** Gateway-api-log rows are written in batches: at this many pending rows, or after this delay. */
  gatewayLogBatchRows: 50,
  gatewayLogBatchDelayMs: 50,
  /** A delayed flush this late (its request's context ended before the timer fired) is replaced by a new one. */
  gatewayLogStaleFlushMs: 5_000,
  /** How long an isolate reuses a workspace's decrypted gateway credential before reading it again. */
  gatewayCredentialCacheMs: 5_000,
  gatewayCredentialCacheEntries: 1_000,
  /** Console sessions last this long from sign-in (fixed, not sliding). */
  sessionTtlSeconds: 7 * 24 * 60 * 60,
  /** Failed logins count against the email and the client IP over this window. */
  loginFailureWindowSeconds: 15 * 60,
  /** The retention sweeper deletes at most this many expired rows per table per run (each minute). */
  retentionBatchRows: 1_000,
  loginFailuresPerEmail: 5,
  loginFailuresPerIp: 50,
  /** An invitation link works once, for this long after it was issued. */
  invitationTtlSeconds: 7 * 24 * 60 * 60,
} as const;

export function keyEnvironmentFor(environment: Environment): KeyEnvironment {
  return environment === "production" ? "live" : "test";
}
