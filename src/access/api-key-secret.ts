// API key secrets: `ponte_<live|test>_<40 base62 chars>`, stored only as a SHA-256 hash.
import { LIMITS, type KeyEnvironment } from "../config";
import { sha256Hex } from "../lib/secret-box";
import { setBounded } from "../lib/bounded-map";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = /^ponte_(live|test)_([0-9A-Za-z]{32,128})$/;

export function generateApiKeySecret(environment: KeyEnvironment): string {
  const chars: string[] = [];
  // Rejection sampling keeps every base62 character equally likely.
  while (chars.length < LIMITS.apiKeySecretLength) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      if (byte < 248 && chars.length < LIMITS.apiKeySecretLength) chars.push(BASE62.charAt(byte % 62));
    }
  }
  return `ponte_${environment}_${chars.join("")}`;
}

/** The environment a key claims by its prefix, or null when it is not a Ponte key at all. */
export function keyEnvironmentOf(secret: string): KeyEnvironment | null {
  // test(), not exec(): no match array per request; the environment is the prefix the pattern checked.
  if (!KEY_PATTERN.test(secret)) return null;
  return secret.startsWith("ponte_live_") ? "live" : "test";
}

export const hashApiKey = sha256Hex;

// The hashes of keys presented recently in this isolate, so a repeat request skips a SHA-256 (a call
// into the runtime's WebCrypto). Bounded; the oldest entry goes first. Holds only what the isolate is
// already handling (the presented secret) and is never logged or exposed.
const presentedHashes = new Map<string, string>();

/** The hash of a key presented recently, without waiting (the hot path); undefined when it must be computed. */
export function knownPresentedHash(secret: string): string | undefined {
  return presentedHashes.get(secret);
}

/** `hashApiKey`, remembered for the last LIMITS.apiKeyCacheEntries keys presented. */
export async function hashPresentedApiKey(secret: string): Promise<string> {
  const known = presentedHashes.get(secret);
  if (known !== undefined) return known;
  const hash = await hashApiKey(secret);
  setBounded(presentedHashes, secret, hash, LIMITS.apiKeyCacheEntries);
  return hash;
}

export function displayParts(secret: string): { displayPrefix: string; last4: string } {
  const prefixLength = secret.indexOf("_", 6) + 1 + 4;
  return { displayPrefix: secret.slice(0, prefixLength), last4: secret.slice(-4) };
}
