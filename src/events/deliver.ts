// One HTTP attempt at a delivery: POST, 10 s timeout over the whole exchange, redirects not followed.
// The URL policy is checked again first (a URL stored before a rule existed is never fetched).
// Pure apart from the injected fetch and clock, so timeouts and failures are tested directly.
import { LIMITS } from "../config";
import type { AttemptErrorKind } from "../db/schema";
import { checkWebhookUrl, type WebhookUrlResult } from "../lib/url-policy";

export type Fetcher = (input: string, init: RequestInit) => Promise<Response>;

/** Late-bound so the runtime's fetch (or a test's spy on it) is the one used. */
export const globalFetcher: Fetcher = (input, init) => fetch(input, init);

export interface AttemptOutcome {
  succeeded: boolean;
  statusCode: number | null;
  durationMs: number;
  errorKind: AttemptErrorKind | null;
  errorMessage: string | null;
  responseExcerpt: string | null;
}

export interface AttemptOptions {
  fetcher?: Fetcher;
  timeoutMs?: number;
  now?: () => number;
  /** Local development only: deliveries to http://localhost and 127.0.0.1 (the URL policy's dev allowance). */
  allowLocalhostHttp?: boolean;
  /** The attempt's timer (unset: one of its own); a run of attempts passes `sharedDeadlines()`. */
  deadline?: (timeoutMs: number) => Deadline;
}

/** An attempt's time limit: the signal its fetch gets, and a promise that rejects when it fires. */
export interface Deadline {
  signal: AbortSignal;
  aborted: Promise<never>;
}

/** A runtime timer (`AbortSignal.timeout`: no setTimeout/clearTimeout pair through the Node timers layer). */
function deadline(timeoutMs: number): Deadline {
  const signal = AbortSignal.timeout(timeoutMs);
  // One promise that rejects on the timeout, raced with the fetch and the body read (one listener per timer).
  const aborted = new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
  aborted.catch(() => undefined);
  return { signal, aborted };
}

/**
 * Timers for one run of attempts (one Durable Object's I/O context; never shared across requests): the
 * attempts that start within 1 % of the limit of each other (100 ms of 10 s) share one timer armed for the
 * limit plus that 1 %, so each attempt still gets at least its full limit and at most 1 % more. One timer
 * per 100 ms of sending instead of one per attempt (the timer was ~4 % of the isolate's time in the burst).
 */
export function sharedDeadlines(clock: () => number = () => Date.now()): (timeoutMs: number) => Deadline {
  let current: Deadline | undefined;
  let currentMs = 0;
  let sharedUntil = 0;
  return (timeoutMs) => {
    const now = clock();
    if (current === undefined || timeoutMs !== currentMs || now >= sharedUntil) {
      const share = Math.floor(timeoutMs / 100);
      current = deadline(timeoutMs + share);
      currentMs = timeoutMs;
      sharedUntil = now + share;
    }
    return current;
  };
}

export async function attemptHttpDelivery(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: AttemptOptions = {},
): Promise<AttemptOutcome> {
  const policy = urlPolicy(url, options.allowLocalhostHttp ?? false);
  if (!policy.ok) {
    return {
      succeeded: false,
      statusCode: null,
      durationMs: 0,
      errorKind: "url_policy",
      errorMessage: `Not delivered: ${policy.reason}`,
      responseExcerpt: null,
    };
  }
  const fetcher = options.fetcher ?? globalFetcher;
  const timeoutMs = options.timeoutMs ?? LIMITS.webhookDeliveryTimeoutMs;
  const now = options.now ?? performanceNow;
  const { signal, aborted } = (options.deadline ?? deadline)(timeoutMs);
  const started = now();
  try {
    // The abort also races the fetch itself, so a fetcher that ignores the signal still times out.
    const response = await Promise.race([fetcher(url, { method: "POST", headers, body, redirect: "manual", signal }), aborted]);
    const excerpt = await readExcerpt(response, aborted);
    const status = response.status;
    if (status >= 200 && status < 300)
      return {
        succeeded: true,
        statusCode: status,
        durationMs: elapsedSince(now, started),
        errorKind: null,
        errorMessage: null,
        responseExcerpt: excerpt,
      };
    const redirect = status >= 300 && status < 400;
    return {
      succeeded: false,
      statusCode: status,
      durationMs: elapsedSince(now, started),
      errorKind: redirect ? "redirect" : "http_status",
      errorMessage: redirect
        ? `Redirect to ${response.headers.get("Location") ?? "(no Location)"} not followed`
        : `Receiver answered ${status}`,
      responseExcerpt: excerpt,
    };
  } catch (err) {
    const timedOut = signal.aborted;
    return {
      succeeded: false,
      statusCode: null,
      durationMs: elapsedSince(now, started),
      errorKind: timedOut ? "timeout" : "network",
      errorMessage: timedOut ? `No response within ${timeoutMs} ms` : String(err instanceof Error ? err.message : err).slice(0, 200),
      responseExcerpt: null,
    };
  }
}

// Module-level, not closures made per attempt (the bundle names each closure it makes, a property write per call).
const performanceNow = () => performance.now();
const elapsedSince = (now: () => number, started: number) => Math.max(0, Math.round(now() - started));

/** Most URLs an isolate remembers the policy verdict of; past it the memo starts over. */
const REMEMBERED_URLS = 1_000;
const verdicts = [new Map<string, WebhookUrlResult>(), new Map<string, WebhookUrlResult>()] as const;

/** The URL policy's verdict, parsed once per URL per isolate (it depends only on the URL and the dev allowance). */
function urlPolicy(url: string, allowLocalhostHttp: boolean): WebhookUrlResult {
  const memo = verdicts[allowLocalhostHttp ? 1 : 0];
  let verdict = memo.get(url);
  if (!verdict) {
    if (memo.size >= REMEMBERED_URLS) memo.clear();
    verdict = checkWebhookUrl(url, { allowLocalhostHttp });
    memo.set(url, verdict);
  }
  return verdict;
}

const decoder = new TextDecoder();

/**
 * The first 1 KiB of the body, read under the same timeout; the rest is cancelled. A body declared no longer
 * than that (Content-Length) is read whole in one call; any other in one `readAtLeast` into a 1 KiB buffer,
 * which answers once the buffer is full or the body has ended (a chunked "ok" in one call, not a read per chunk
 * and one more for the end), so nothing past the excerpt is read or decoded.
 */
async function readExcerpt(response: Response, aborted: Promise<never>): Promise<string | null> {
  const body = response.body;
  if (!body) return null;
  const limit = LIMITS.webhookResponseExcerptBytes;
  const declared = Number(response.headers.get("Content-Length") ?? Number.NaN);
  if (Number.isInteger(declared) && declared <= limit) return decoder.decode(await Promise.race([response.arrayBuffer(), aborted]));
  let reader: ReadableStreamBYOBReader;
  try {
    reader = body.getReader({ mode: "byob" });
  } catch {
    return readChunks(body, aborted, limit); // a stream that is not a byte stream (a test's, a JS-made body)
  }
  let ended = false;
  try {
    const read = await Promise.race([reader.readAtLeast(limit, new Uint8Array(limit)), aborted]);
    const bytes = read.value ?? new Uint8Array(0);
    // Fewer bytes than asked for: the body ended (only a body not read to its end is cancelled).
    ended = read.done || bytes.byteLength < limit;
    return decoder.decode(bytes);
  } finally {
    if (!ended) void reader.cancel().catch(() => undefined);
  }
}

/** The excerpt of a body that is not a byte stream: chunk by chunk up to the limit. */
async function readChunks(body: ReadableStream<Uint8Array>, aborted: Promise<never>, limit: number): Promise<string> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let done = false;
  try {
    while (size < limit) {
      const read = await Promise.race([reader.read(), aborted]);
      if (read.done) {
        done = true;
        break;
      }
      chunks.push(read.value);
      size += read.value.byteLength;
    }
  } finally {
    // Only a body not read to its end is cancelled.
    if (!done) void reader.cancel().catch(() => undefined);
  }
  // One chunk (the usual short answer) is decoded as it is; several are joined up to the limit.
  if (chunks.length === 1 && size <= limit) return decoder.decode(chunks[0]);
  const bytes = new Uint8Array(Math.min(size, limit));
  let offset = 0;
  for (const chunk of chunks) {
    const take = Math.min(chunk.byteLength, bytes.length - offset);
    bytes.set(chunk.subarray(0, take), offset);
    offset += take;
    if (offset >= bytes.length) break;
  }
  return decoder.decode(bytes);
}
