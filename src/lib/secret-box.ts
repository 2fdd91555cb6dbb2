// Secrets at rest (upstream API keys, webhook signing secrets, AWS secret keys, idempotent answers): AES-256-GCM, a
// fresh 96-bit IV per value, the record's id as additional data. Stored as `v2.<key id>.<base64url iv>.<base64url
// ciphertext>`: the key id (the first 8 base64url characters of the key's SHA-256) names the key that sealed it.
//
// Keys rotate without downtime: SECRETS_ENCRYPTION_KEY seals (and opens); SECRETS_ENCRYPTION_KEY_PREVIOUS (one
// key, or several separated by commas) only opens, until the re-seal sweep (src/db/reseal.ts) has rewritten every
// value with the current key; then it is removed. Values sealed before key ids existed (`v1.<iv>.<ciphertext>`)
// still open: each configured key is tried (AES-GCM authenticates, so a wrong key fails, it never mis-decrypts).

import { base64ToBytes, bytesToBase64Url } from "./base64";
import { bytesToHex } from "./hex";

/** The keys the box reads from the environment: the Env satisfies it. */
export interface SecretKeys {
  /** The current key: base64 of 32 random bytes. */
  SECRETS_ENCRYPTION_KEY: string;
  /** Keys being retired, comma-separated: they open values, never seal. */
  SECRETS_ENCRYPTION_KEY_PREVIOUS?: string;
}

interface BoxKey {
  id: string;
  key: CryptoKey;
}

const keyCache = new Map<string, Promise<BoxKey>>();

function importKey(base64Key: string): Promise<BoxKey> {
  let key = keyCache.get(base64Key);
  if (!key) {
    key = (async () => {
      const raw = base64ToBytes(base64Key);
      if (raw.byteLength !== 32) throw new Error("SECRETS_ENCRYPTION_KEY must be 32 bytes, base64-encoded");
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", raw));
      const cryptoKey = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
      return { id: bytesToBase64Url(digest).slice(0, 8), key: cryptoKey };
    })();
    key.catch(() => keyCache.delete(base64Key));
    keyCache.set(base64Key, key);
  }
  return key;
}

const previousKeys = (keys: SecretKeys) =>
  (keys.SECRETS_ENCRYPTION_KEY_PREVIOUS ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k !== "" && k !== keys.SECRETS_ENCRYPTION_KEY.trim());

/** The id of the current key: a value sealed with it starts with `v2.<id>.` (what the re-seal sweep looks for). */
export async function currentKeyId(keys: SecretKeys): Promise<string> {
  return (await importKey(keys.SECRETS_ENCRYPTION_KEY.trim())).id;
}

/** The `v2.<key id>.` prefix of every value the current key seals. */
export const currentSealPrefix = async (keys: SecretKeys) => `v2.${await currentKeyId(keys)}.`;

/** The prefixes of values the re-seal sweep rewrites: `v1.` (no key id) and `v2.<id>.` of each previous key. */
export async function outdatedSealPrefixes(keys: SecretKeys): Promise<string[]> {
  const previous = await Promise.all(previousKeys(keys).map(importKey));
  return ["v1.", ...previous.map((k) => `v2.${k.id}.`)];
}

/** True while SECRETS_ENCRYPTION_KEY_PREVIOUS names a key other than the current one: a rotation is in progress. */
export const rotationInProgress = (keys: SecretKeys) => previousKeys(keys).length > 0;

/** A bearer token: `bytes` random bytes, base64url without padding (session tokens, inbound webhook tokens). */
export const randomToken = (bytes = 32) => bytesToBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));

/** Sealed with the current key. `context` is bound as additional authenticated data, so a ciphertext cannot be moved to another record. */
export async function sealSecret(keys: SecretKeys, plaintext: string, context: string): Promise<string> {
  const { id, key } = await importKey(keys.SECRETS_ENCRYPTION_KEY.trim());
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
    key,
    new TextEncoder().encode(plaintext),
  );
  return `v2.${id}.${bytesToBase64Url(iv)}.${bytesToBase64Url(new Uint8Array(sealed))}`;
}

const decrypt = async (key: CryptoKey, iv: string, body: string, context: string) =>
  new TextDecoder().decode(
    await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: base64ToBytes(iv), additionalData: new TextEncoder().encode(context) },
      key,
      base64ToBytes(body),
    ),
  );

/** Opens a value sealed with the current key or a previous one (`v2`), or before key ids existed (`v1`). */
export async function openSecret(keys: SecretKeys, sealed: string, context: string): Promise<string> {
  const candidates = await Promise.all([keys.SECRETS_ENCRYPTION_KEY.trim(), ...previousKeys(keys)].map(importKey));
  const parts = sealed.split(".");
  if (parts[0] === "v2" && parts.length === 4 && parts[1] && parts[2] && parts[3]) {
    const match = candidates.find((k) => k.id === parts[1]);
    if (!match) throw new Error(`sealed with key ${parts[1]}, which is neither SECRETS_ENCRYPTION_KEY nor a previous key`);
    return decrypt(match.key, parts[2], parts[3], context);
  }
  if (parts[0] === "v1" && parts.length === 3 && parts[1] && parts[2]) {
    let failure: unknown;
    for (const candidate of candidates) {
      try {
        return await decrypt(candidate.key, parts[1], parts[2], context);
      } catch (err) {
        failure = err;
      }
    }
    throw failure;
  }
  throw new Error("unrecognised sealed secret format");
}

/** SHA-256 hex, for tokens that are verified but never read back (API keys, inbound webhook tokens) and request fingerprints. */
export async function sha256Hex(value: string | Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", typeof value === "string" ? new TextEncoder().encode(value) : value);
  return bytesToHex(new Uint8Array(digest));
}

/** Constant-time comparison of two strings of hex or other ASCII (length leaks, content does not). */
export function timingSafeEqual(a: string, b: string): boolean {
  const len = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < len; i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}
