// The worker's secret box (src/lib/secret-box.ts): AES-256-GCM with a fresh nonce per value, each value naming the
// key that sealed it, and key rotation (a new key seals, previous keys still open, v1 values from before key ids open).
import { webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import { currentKeyId, openSecret, outdatedSealPrefixes, rotationInProgress, sealSecret } from "../../src/lib/secret-box";

const KEY = "dGVzdC1vbmx5LWVuY3J5cHRpb24ta2V5LTMyLWJ5dGU=";
const NEW_KEY = Buffer.alloc(32, 7).toString("base64");
const OLD = { SECRETS_ENCRYPTION_KEY: KEY };
const ROTATING = { SECRETS_ENCRYPTION_KEY: NEW_KEY, SECRETS_ENCRYPTION_KEY_PREVIOUS: KEY };
const RETIRED = { SECRETS_ENCRYPTION_KEY: NEW_KEY };

/** `v2.<key id>.<iv>.<ciphertext>` split into its parts. */
function parts(sealed: string) {
  const [version, keyId, iv, body] = sealed.split(".");
  return { version, keyId, iv, body };
}

/** A value sealed the way the box did before key ids (`v1.<iv>.<ciphertext>`), as databases still hold. */
async function sealV1(base64Key: string, plaintext: string, context: string) {
  const key = await webcrypto.subtle.importKey("raw", Buffer.from(base64Key, "base64"), "AES-GCM", false, ["encrypt"]);
  const iv = webcrypto.getRandomValues(new Uint8Array(12));
  const body = await webcrypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
    key,
    new TextEncoder().encode(plaintext),
  );
  return `v1.${Buffer.from(iv).toString("base64url")}.${Buffer.from(body).toString("base64url")}`;
}

describe("src/lib/secret-box.ts", () => {
  it("sealing the same plaintext under the same context twice uses a different nonce and gives a different ciphertext", async () => {
    const sealed = await Promise.all(Array.from({ length: 8 }, () => sealSecret(OLD, "$aact_hmlg_same", "acct-1")));
    const nonces = new Set(sealed.map((value) => parts(value).iv));
    const bodies = new Set(sealed.map((value) => parts(value).body));
    expect(nonces.size).toBe(8);
    expect(bodies.size).toBe(8);
    // A 96-bit nonce of all zero bytes is what a constant `new Uint8Array(12)` gives.
    expect(nonces.has("AAAAAAAAAAAAAAAA")).toBe(false);
    for (const value of sealed) expect(await openSecret(OLD, value, "acct-1")).toBe("$aact_hmlg_same");
  });

  it("a value opens only under the context it was sealed with, and an unknown format is refused", async () => {
    const sealed = await sealSecret(OLD, "whsec_value", "endpoint-1");
    expect(await openSecret(OLD, sealed, "endpoint-1")).toBe("whsec_value");
    await expect(openSecret(OLD, sealed, "endpoint-2")).rejects.toThrow();
    const { keyId, iv, body } = parts(sealed);
    await expect(openSecret(OLD, `v3.${keyId}.${iv}.${body}`, "endpoint-1")).rejects.toThrow(/format/);
  });

  it("a value names the key that sealed it: the first 8 base64url characters of the key's SHA-256", async () => {
    const digest = webcrypto.subtle.digest("SHA-256", Buffer.from(KEY, "base64"));
    const expected = Buffer.from(await digest)
      .toString("base64url")
      .slice(0, 8);
    expect(await currentKeyId(OLD)).toBe(expected);
    expect(parts(await sealSecret(OLD, "x", "c"))).toMatchObject({ version: "v2", keyId: expected });
    expect(await currentKeyId(RETIRED)).not.toBe(expected);
  });

  it("rotation: the new key seals, the old one still opens its values, and once it is retired they no longer open", async () => {
    const before = await sealSecret(OLD, "$aact_prod_before", "acct-1");
    const legacy = await sealV1(KEY, "whsec_legacy", "endpoint-1");
    expect(rotationInProgress(OLD)).toBe(false);
    expect(rotationInProgress(ROTATING)).toBe(true);
    // A previous key equal to the current one is no rotation (an operator who set both the same).
    expect(rotationInProgress({ SECRETS_ENCRYPTION_KEY: KEY, SECRETS_ENCRYPTION_KEY_PREVIOUS: ` ${KEY} ` })).toBe(false);

    const after = await sealSecret(ROTATING, "$aact_prod_after", "acct-2");
    expect(parts(after).keyId).toBe(await currentKeyId(RETIRED));
    expect(await openSecret(ROTATING, before, "acct-1")).toBe("$aact_prod_before");
    expect(await openSecret(ROTATING, legacy, "endpoint-1")).toBe("whsec_legacy");
    expect(await openSecret(ROTATING, after, "acct-2")).toBe("$aact_prod_after");
    // The old key alone cannot open what the new one sealed.
    await expect(openSecret(OLD, after, "acct-2")).rejects.toThrow(/neither SECRETS_ENCRYPTION_KEY nor a previous key/);

    expect(await outdatedSealPrefixes(ROTATING)).toEqual(["v1.", `v2.${await currentKeyId(OLD)}.`]);
    expect(await openSecret(RETIRED, after, "acct-2")).toBe("$aact_prod_after");
    await expect(openSecret(RETIRED, before, "acct-1")).rejects.toThrow(/neither SECRETS_ENCRYPTION_KEY nor a previous key/);
    await expect(openSecret(RETIRED, legacy, "endpoint-1")).rejects.toThrow();
  });

  it("several previous keys, comma-separated, all open; a v1 value opens with whichever key sealed it", async () => {
    const third = Buffer.alloc(32, 9).toString("base64");
    const keys = { SECRETS_ENCRYPTION_KEY: third, SECRETS_ENCRYPTION_KEY_PREVIOUS: `${NEW_KEY}, ${KEY}` };
    expect(await openSecret(keys, await sealSecret(OLD, "a", "c"), "c")).toBe("a");
    expect(await openSecret(keys, await sealSecret(RETIRED, "b", "c"), "c")).toBe("b");
    expect(await openSecret(keys, await sealV1(NEW_KEY, "v1 under the middle key", "c"), "c")).toBe("v1 under the middle key");
    expect(await outdatedSealPrefixes(keys)).toHaveLength(3);
  });

  it("a key that is not 32 bytes is refused", async () => {
    await expect(sealSecret({ SECRETS_ENCRYPTION_KEY: Buffer.alloc(16).toString("base64") }, "x", "c")).rejects.toThrow(/32 bytes/);
  });
});
