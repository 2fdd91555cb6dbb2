// Verifies Ponte's signed webhook deliveries (the scheme of src/events/signature.ts), with WebCrypto
// only, so it runs in Node ≥ 18, Deno, Bun, browsers and Workers.
//
//   X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256("<t>.<raw body>")>[,v1=<…>]
//
// The HMAC key is the UTF-8 bytes of the whole secret (`whsec_…`). During a secret rotation the
// header carries one v1 per active secret; a delivery is genuine when any v1 matches any secret.

export const SIGNATURE_HEADER = "X-Service-Signature";
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The body Ponte posts: one event. */
export interface PonteEvent<T = Record<string, unknown>> {
  id: string;
  /** The event kind, e.g. `payment.received`. */
  type: string;
  createdAt: string;
  environment: string;
  apiVersion: string;
  data: T;
}

export type WebhookFailureReason =
  | "missing_header"
  | "invalid_timestamp"
  | "missing_signature"
  | "timestamp_out_of_tolerance"
  | "signature_mismatch"
  | "invalid_json";

export type VerifyWebhookResult = { ok: true; event: PonteEvent; timestamp: number } | { ok: false; reason: WebhookFailureReason };

export interface VerifyWebhookOptions {
  /** Maximum |now − t| in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The current unix time in seconds (tests). Default: the clock. */
  now?: number;
}

/** A Fetch `Headers`, or a plain object such as Node's `req.headers` (any key case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const encoder = new TextEncoder();

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value.join(",") : value;
  }
  return undefined;
}

async function hmac(secret: string, payload: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, payload));
}

function fromHex(hex: string): Uint8Array | null {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Constant time: walks the whole length, no early exit. */
function equal(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/**
 * Checks a delivery: `payload` is the raw request body exactly as received (string or bytes, before
 * any JSON parsing), `headers` the request's headers, `secret` the endpoint's signing secret (or
 * every valid one during a rotation). On success, the parsed event.
 */
export async function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<VerifyWebhookResult> {
  const secrets = typeof secret === "string" ? [secret] : [...secret];
  if (secrets.length === 0 || secrets.some((s) => typeof s !== "string" || s.length === 0)) {
    throw new TypeError("verifyWebhook needs at least one non-empty signing secret");
  }
  const header = headerOf(headers, SIGNATURE_HEADER)?.trim();
  if (!header) return { ok: false, reason: "missing_header" };
  const timestamps: string[] = [];
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") timestamps.push(value);
    else if (key === "v1") signatures.push(value);
  }
  const raw = timestamps.length === 1 ? timestamps[0] : undefined;
  if (raw === undefined || !/^[0-9]{1,15}$/.test(raw)) return { ok: false, reason: "invalid_timestamp" };
  const timestamp = Number(raw);
  if (signatures.length === 0) return { ok: false, reason: "missing_signature" };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    return { ok: false, reason: "timestamp_out_of_tolerance" };
  }
  const body = typeof payload === "string" ? encoder.encode(payload) : payload;
  const prefix = encoder.encode(`${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix, 0);
  signed.set(body, prefix.length);
  const expected = await Promise.all(secrets.map((s) => hmac(s, signed)));
  const given = signatures.map(fromHex).filter((d): d is Uint8Array => d !== null);
  let matched = false;
  for (const want of expected) for (const got of given) matched = equal(want, got) || matched;
  if (!matched) return { ok: false, reason: "signature_mismatch" };
  try {
    return { ok: true, event: JSON.parse(new TextDecoder().decode(body)) as PonteEvent, timestamp };
  } catch {
    return { ok: false, reason: "invalid_json" };
  }
}
