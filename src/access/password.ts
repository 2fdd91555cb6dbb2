// Console passwords: PBKDF2-SHA256 (WebCrypto) with a per-user 16-byte salt. workerd refuses more than
// 100 000 iterations (cloudflare/workerd#1346), so that is the count; it is stored with each hash so a
// later, higher count applies to new hashes while old ones still verify.
import { base64ToBytes, bytesToBase64 } from "../lib/base64";
import { timingSafeEqual } from "../lib/secret-box";

export const PASSWORD_ITERATIONS = 100_000;
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;
const SALT_BYTES = 16;
const HASH_BITS = 256;
const SCHEME = "pbkdf2_sha256";

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, material, HASH_BITS);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, iterations = PASSWORD_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return `${SCHEME}$${iterations}$${bytesToBase64(salt)}$${bytesToBase64(await derive(password, salt, iterations))}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, count, salt, hash] = stored.split("$");
  const iterations = Number(count);
  // A malformed or out-of-range record never verifies (and never asks the runtime for unbounded work).
  if (scheme !== SCHEME || !salt || !hash || !Number.isInteger(iterations) || iterations < 1 || iterations > PASSWORD_ITERATIONS)
    return false;
  const derived = await derive(password, base64ToBytes(salt), iterations);
  return timingSafeEqual(bytesToBase64(derived), hash);
}

/** Verified against when the email is unknown, so both failures take the same time. */
export const DUMMY_PASSWORD_HASH = `${SCHEME}$${PASSWORD_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;
