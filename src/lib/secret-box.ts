// Secrets at rest (upstream API keys, webhook signing secrets): AES-256-GCM under the Worker secret
// SECRETS_ENCRYPTION_KEY, a fresh 96-bit IV per value. Stored as `v1.<base64url iv>.<base64url ciphertext>`.

const keyCache = new Map<string, Promise<CryptoKey>>();

function importKey(base64Key: string): Promise<CryptoKey> {
  let key = keyCache.get(base64Key);
  if (!key) {
    const raw = Uint8Array.from(atob(base64Key), (ch) => ch.charCodeAt(0));
    if (raw.byteLength !== 32) throw new Error("SECRETS_ENCRYPTION_KEY must be 32 bytes, base64-encoded");
    key = crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    keyCache.set(base64Key, key);
  }
  return key;
}

export const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** A bearer token: `bytes` random bytes, base64url without padding (session tokens, inbound webhook tokens). */
export const randomToken = (bytes = 32) => toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
const fromB64url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (ch) => ch.charCodeAt(0));

/** `context` is bound as additional authenticated data, so a ciphertext cannot be moved to another record. */
export async function sealSecret(base64Key: string, plaintext: string, context: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
    await importKey(base64Key),
    new TextEncoder().encode(plaintext),
  );
  return `v1.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

export async function openSecret(base64Key: string, sealed: string, context: string): Promise<string> {
  const [version, iv, body] = sealed.split(".");
  if (version !== "v1" || !iv || !body) throw new Error("unrecognised sealed secret format");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromB64url(iv), additionalData: new TextEncoder().encode(context) },
    await importKey(base64Key),
    fromB64url(body),
  );
  return new TextDecoder().decode(plain);
}

/** SHA-256 hex, for tokens that are verified but never read back (API keys, inbound webhook tokens) and request fingerprints. */
export async function sha256Hex(value: string | Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", typeof value === "string" ? new TextEncoder().encode(value) : value);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Constant-time comparison of two strings of hex or other ASCII (length leaks, content does not). */
export function timingSafeEqual(a: string, b: string): boolean {
  const len = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < len; i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}
