// The one way Ponte talks to the upstream: base URL per environment, `access_token`, User-Agent,
// a timeout, and a gateway-api-log entry for every call (no bodies, keys or card data).
import { LIMITS, PONTE_VERSION, type Env } from "../config";
import type { Deps } from "../deps";
import { newId } from "../lib/ids";
import { ApiError } from "../http/errors";
import type { GatewayCredentials } from "./accounts";
import { recordGatewayCall } from "./call-log";
import { markStage } from "../http/server-timing";

export const UPSTREAM_BASE_URLS = {
  production: "https://api.asaas.com/v3",
  sandbox: "https://api-sandbox.asaas.com/v3",
  /** Local runs reach the simulator through the UPSTREAM service binding; the host is never dialled. */
  local: "https://upstream-sim.internal/v3",
} as const;

/**
 * What an upstream API key may look like: printable ASCII without whitespace, 8 to 512 characters. It travels in
 * an HTTP header, which cannot carry anything else (the runtime would warn, printing the value, on every call).
 */
export const UPSTREAM_KEY_PATTERN = /^[\x21-\x7e]{8,512}$/;
export const UPSTREAM_KEY_RULE = "must be 8 to 512 printable ASCII characters, without spaces";

export const USER_AGENT = `Ponte/${PONTE_VERSION} (+https://ponte.dev)`;

export interface UpstreamCall {
  /** Catalogue operationId, or `native:<flow>` for native flows; recorded in the call log. */
  operationId: string;
  method: string;
  /** Upstream path starting with `/v3/`, ids already translated. */
  path: string;
  /** Raw query string without `?`, forwarded as sent. */
  query?: string;
  body?: BodyInit | null;
  contentType?: string;
  /** The merchant-facing path, for the log. */
  surfacePath?: string;
  timeoutMs?: number;
}

export interface UpstreamResult {
  status: number;
  headers: Headers;
  /** Parsed JSON when the upstream answered JSON, else the text. */
  body: unknown;
  /** Set when the upstream answered a file (a PDF carnê, an image…), which JSON cannot carry: its body, streamed. */
  file?: UpstreamFile;
  durationMs: number;
}

export interface UpstreamFile {
  /** The upstream's body, unread: streamed to the merchant, never buffered or decoded. */
  body: ReadableStream<Uint8Array> | null;
  contentType: string;
  /** The upstream's Content-Disposition (file name), if it sent one. */
  disposition: string | null;
}

/** Media types the upstream answers as documents: forwarded as bytes, never decoded as text. */
const FILE_MEDIA_TYPE = /^(application\/(pdf|octet-stream|zip)|image\/[a-z0-9.+-]+|text\/csv)$/;

function isFileMediaType(contentType: string | null): boolean {
  return FILE_MEDIA_TYPE.test(((contentType ?? "").split(";", 1)[0] ?? "").trim().toLowerCase());
}

function upstreamFetcher(env: Env): (req: Request) => Promise<Response> {
  if (env.ENVIRONMENT === "local") {
    if (!env.UPSTREAM) throw new ApiError("UPSTREAM_ERROR", "The local upstream simulator is not bound (UPSTREAM).");
    const sim = env.UPSTREAM;
    return (req) => sim.fetch(req);
  }
  return (req) => fetch(req);
}

/** The configured upstream timeout: UPSTREAM_TIMEOUT_MS when set to a positive number, else the spec's 30 s. */
export function upstreamTimeoutMs(env: Env): number {
  const override = Number(env.UPSTREAM_TIMEOUT_MS);
  return Number.isFinite(override) && override > 0 ? override : LIMITS.upstreamTimeoutMs;
}

export function upstreamUrl(env: Env, path: string, query?: string): string {
  const base = UPSTREAM_BASE_URLS[env.ENVIRONMENT];
  const rest = path.replace(/^\/v3/, "");
  return `${base}${rest}${query ? `?${query}` : ""}`;
}

export async function callUpstream(deps: Deps, credentials: GatewayCredentials, call: UpstreamCall): Promise<UpstreamResult> {
  // A request under an Idempotency-Key claims it before the upstream can act on it (a no-op once claimed).
  if (call.method !== "GET") await deps.beforeSideEffect?.();
  // A key stored before the alphabet rule is refused here, before any Headers holds it (nothing to print).
  if (!UPSTREAM_KEY_PATTERN.test(credentials.upstreamKey)) {
    throw new ApiError("UPSTREAM_AUTH_FAILED", `The workspace's upstream API key ${UPSTREAM_KEY_RULE}; set it again.`, {});
  }
  // A plain record: the Request builds its one Headers from it (a Headers here would be copied into another).
  const headers: Record<string, string> = { access_token: credentials.upstreamKey, "User-Agent": USER_AGENT, Accept: "application/json" };
  if (call.contentType) headers["Content-Type"] = call.contentType;
  const request = new Request(upstreamUrl(deps.env, call.path, call.query), { method: call.method, headers, body: call.body ?? null });
  const timeoutMs = call.timeoutMs ?? upstreamTimeoutMs(deps.env);
  markStage(deps, "prepare");
  const started = Date.now();
  let answeredStatus: number | null = null;
  let errorCode: string | null = null;
  try {
    const response = await withTimeout(deps, upstreamFetcher(deps.env)(request), timeoutMs);
    markStage(deps, "upstream");
    const contentType = response.headers.get("content-type");
    if (contentType !== null && isFileMediaType(contentType) && response.ok) {
      answeredStatus = response.status;
      const file = { body: response.body, contentType, disposition: response.headers.get("content-disposition") };
      return { status: response.status, headers: response.headers, body: null, file, durationMs: Date.now() - started };
    }
    const text = await response.text();
    let body: unknown = text;
    if ((contentType ?? "").includes("json") && text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    answeredStatus = response.status;
    markStage(deps, "read");
    return { status: response.status, headers: response.headers, body, durationMs: Date.now() - started };
  } catch (err) {
    if (err instanceof UpstreamTimeout) {
      errorCode = "UPSTREAM_TIMEOUT";
      throw new ApiError("UPSTREAM_TIMEOUT", `The upstream provider did not answer within ${timeoutMs / 1000} s.`, { timeoutMs });
    }
    errorCode = "UPSTREAM_ERROR";
    throw new ApiError("UPSTREAM_ERROR", "Could not reach the upstream provider.", {});
  } finally {
    logCall(deps, credentials, call, answeredStatus, errorCode, Date.now() - started);
    markStage(deps, "log");
  }
}

class UpstreamTimeout extends Error {}

/**
 * The call's answer, or UpstreamTimeout after `ms`: the timeout stops the waiting, never the call. An aborted
 * subrequest may still have reached the upstream (a charge created, its answer lost), so a timed-out call is left
 * to finish in the background (`waitUntil`): the upstream completes what it started and the sync sweeper links it
 * (docs/compatibility.md). The timer is the runtime's own `scheduler.wait`, not the global setTimeout (Node's
 * polyfill under nodejs_compat: a Timeout object to make and clear on every call); it is never cleared, and a wait
 * still pending when the request's context ends is dropped with it.
 */
function withTimeout<T>(deps: Deps, call: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    call.then(
      (answer) => {
        settled = true;
        resolve(answer);
      },
      (err: unknown) => {
        settled = true;
        reject(err);
      },
    );
    void scheduler.wait(ms).then(() => {
      if (settled) return;
      settled = true;
      deps.waitUntil(settleLate(call));
      reject(new UpstreamTimeout());
    });
  });
}

/** A timed-out call, awaited to its end off the response path; a late body is read and dropped (nothing waits for it). */
async function settleLate(call: Promise<unknown>): Promise<void> {
  try {
    const answer = await call;
    if (answer instanceof Response) await answer.body?.cancel();
  } catch {
    // The call's own failure after its timeout: the caller was answered and the call logged at the timeout.
  }
}

// One log row per call, whatever the outcome; written in batches off the response path (call-log.ts).
function logCall(
  deps: Deps,
  credentials: GatewayCredentials,
  call: UpstreamCall,
  status: number | null,
  errorCode: string | null,
  latencyMs: number,
) {
  recordGatewayCall(deps, {
    id: newId(),
    organizationId: credentials.organizationId,
    workspaceId: credentials.workspaceId,
    gatewayAccountId: credentials.accountId,
    operationId: call.operationId,
    method: call.method,
    surfacePath: call.surfacePath ?? null,
    upstreamPath: call.path,
    upstreamStatus: status,
    latencyMs,
    errorCode,
    requestId: deps.requestId,
    createdAt: deps.now().toISOString(),
  });
}
