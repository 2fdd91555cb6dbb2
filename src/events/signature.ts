/**
 * Webhook signatures: signing for outbound deliveries, and the verifier merchants run.
 *
 *   X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256("<t>.<raw body>")>[,v1=<…>]
 *
 * The HMAC key is the UTF-8 bytes of the whole secret string (including the `whsec_`
 * prefix). During secret rotation the header carries one v1 per active secret; a receiver
 * accepts the delivery if any v1 matches any of its secrets. Unknown schemes (v0=, …) are
 * ignored so new schemes can be added without breaking old receivers.
 */
import { bytesToHex } from "../lib/hex";
import { randomToken } from "../lib/secret-box";

export const SIGNATURE_HEADER = "X-Service-Signature";
export const DEFAULT_TOLERANCE_SECONDS = 300;
export const SIGNING_SECRET_PREFIX = "whsec_";

export type SignatureFailureReason =
  | "missing_header"
  | "invalid_timestamp"
  | "missing_signature"
  | "timestamp_out_of_tolerance"
  | "signature_mismatch";

export type VerifySignatureResult = { ok: true; timestamp: number } | { ok: false; reason: SignatureFailureReason };

export interface VerifySignatureOptions {
  /** Maximum |now − t| in seconds, inclusive. Default 300. */
  toleranceSeconds?: number;
  /** Current unix time in seconds (for tests). Default: the system clock. */
  now?: number;
}

const encoder = new TextEncoder();
const HMAC_SHA256_BYTES = 32;

function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? encoder.encode(data) : data;
}

/** Bytes of "<t>.<body>": a string encoded once; a Uint8Array body concatenated as bytes, so it is signed verbatim. */
function signedPayload(timestamp: number, rawBody: string | Uint8Array): Uint8Array<ArrayBuffer> {
  if (typeof rawBody === "string") return encoder.encode(`${timestamp}.${rawBody}`) as Uint8Array<ArrayBuffer>;
  const prefix = encoder.encode(`${timestamp}.`);
  const body = toBytes(rawBody);
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix, 0);
  out.set(body, prefix.length);
  return out;
}

function assertTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`signature timestamp must be a non-negative integer of unix seconds, got ${String(timestamp)}`);
  }
}

function assertSecret(secret: string): void {
  // WebCrypto rejects empty HMAC keys; fail with a clearer message first.
  if (typeof secret !== "string" || secret.length === 0) throw new TypeError("webhook signing secret must be a non-empty string");
}

/** A secret imported once for signing many payloads (a delivery run signs each endpoint's with one). */
export async function importSigningKey(secret: string): Promise<CryptoKey> {
  assertSecret(secret);
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function hmacSha256(secret: string | CryptoKey, payload: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const key = typeof secret === "string" ? await importSigningKey(secret) : secret;
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, payload));
}

/** Decodes a 64-char hex digest; null for anything else (which then simply never matches). */
function digestFromHex(hex: string): Uint8Array | null {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  const out = new Uint8Array(HMAC_SHA256_BYTES);
  for (let i = 0; i < HMAC_SHA256_BYTES; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Constant-time byte comparison: always walks the longer length, no early exit. */
function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** Lower-case hex HMAC-SHA256 of "<timestamp>.<rawBody>" keyed by the secret's UTF-8 bytes. */
export async function computeSignature(secret: string, timestamp: number, rawBody: string | Uint8Array): Promise<string> {
  assertTimestamp(timestamp);
  return bytesToHex(await hmacSha256(secret, signedPayload(timestamp, rawBody)));
}

/**
 * `t=<timestamp>,v1=<sig for secrets[0]>,v1=<sig for secrets[1]>…`, in the given order. A secret may be
 * passed already imported (importSigningKey), which spares the import when one secret signs many deliveries.
 */
export async function buildSignatureHeader(
  secrets: readonly (string | CryptoKey)[],
  timestamp: number,
  rawBody: string | Uint8Array,
): Promise<string> {
  if (secrets.length === 0) throw new TypeError("buildSignatureHeader needs at least one secret");
  assertTimestamp(timestamp);
  const payload = signedPayload(timestamp, rawBody);
  // One secret (no rotation under way, the usual case): one signature, no Promise.all.
  if (secrets.length === 1) return `t=${timestamp},v1=${bytesToHex(await hmacSha256(secrets[0] as string | CryptoKey, payload))}`;
  const signatures = await Promise.all(secrets.map(async (secret) => bytesToHex(await hmacSha256(secret, payload))));
  return [`t=${timestamp}`, ...signatures.map((sig) => `v1=${sig}`)].join(",");
}

interface ParsedHeader {
  timestamps: string[];
  v1: string[];
}

function parseHeader(header: string): ParsedHeader {
  const parsed: ParsedHeader = { timestamps: [], v1: [] };
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") parsed.timestamps.push(value);
    else if (key === "v1") parsed.v1.push(value);
    // Other schemes (v0=, …) are deliberately ignored.
  }
  return parsed;
}

/**
 * Verifies a delivery: header present, a single all-digit `t`, at least one `v1`,
 * |now − t| ≤ tolerance (past or future), and some v1 equal (constant-time) to the HMAC
 * under some given secret. Pass every currently valid secret during rotation.
 */
export async function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string | readonly string[],
  options: VerifySignatureOptions = {},
): Promise<VerifySignatureResult> {
  const secrets: readonly string[] = typeof secret === "string" ? [secret] : secret;
  if (secrets.length === 0) throw new TypeError("verifyWebhookSignature needs at least one secret");
  secrets.forEach(assertSecret);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new RangeError("toleranceSeconds must be a non-negative number");
  const now = options.now ?? Math.floor(Date.now() / 1000);

  if (header === null || header === undefined || header.trim() === "") return { ok: false, reason: "missing_header" };

  const parsed = parseHeader(header);
  const rawTimestamp = parsed.timestamps.length === 1 ? parsed.timestamps[0] : undefined;
  // Digits only (no sign, exponent or fraction) and short enough to stay a safe integer.
  if (rawTimestamp === undefined || !/^[0-9]{1,15}$/.test(rawTimestamp)) return { ok: false, reason: "invalid_timestamp" };
  const timestamp = Number(rawTimestamp);

  if (parsed.v1.length === 0) return { ok: false, reason: "missing_signature" };
  if (Math.abs(now - timestamp) > tolerance) return { ok: false, reason: "timestamp_out_of_tolerance" };

  const payload = signedPayload(timestamp, rawBody);
  const expected = await Promise.all(secrets.map((s) => hmacSha256(s, payload)));
  const candidates = parsed.v1.map(digestFromHex).filter((d): d is Uint8Array => d !== null);

  // Check every pair without short-circuiting so timing does not reveal which one matched.
  let matched = false;
  for (const want of expected) {
    for (const got of candidates) matched = timingSafeEqual(want, got) || matched;
  }
  return matched ? { ok: true, timestamp } : { ok: false, reason: "signature_mismatch" };
}

/** A new endpoint secret: `whsec_` + base64url (no padding) of 32 random bytes (43 chars). */
export function generateSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomToken(32)}`;
}
