// The worker's secret box (src/lib/secret-box.ts): AES-256-GCM with a fresh nonce per value.
import { describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "../../src/lib/secret-box";

const KEY = "dGVzdC1vbmx5LWVuY3J5cHRpb24ta2V5LTMyLWJ5dGU=";

/** `v1.<iv>.<ciphertext>` split into its parts. */
function parts(sealed: string) {
  const [version, iv, body] = sealed.split(".");
  return { version, iv, body };
}

describe("src/lib/secret-box.ts", () => {
  it("sealing the same plaintext under the same context twice uses a different nonce and gives a different ciphertext", async () => {
    const sealed = await Promise.all(Array.from({ length: 8 }, () => sealSecret(KEY, "$aact_hmlg_same", "acct-1")));
    const nonces = new Set(sealed.map((value) => parts(value).iv));
    const bodies = new Set(sealed.map((value) => parts(value).body));
    expect(nonces.size).toBe(8);
    expect(bodies.size).toBe(8);
    // A 96-bit nonce of all zero bytes is what a constant `new Uint8Array(12)` gives.
    expect(nonces.has("AAAAAAAAAAAAAAAA")).toBe(false);
    for (const value of sealed) expect(await openSecret(KEY, value, "acct-1")).toBe("$aact_hmlg_same");
  });

  it("a value opens only under the context it was sealed with", async () => {
    const sealed = await sealSecret(KEY, "whsec_value", "endpoint-1");
    expect(await openSecret(KEY, sealed, "endpoint-1")).toBe("whsec_value");
    await expect(openSecret(KEY, sealed, "endpoint-2")).rejects.toThrow();
    await expect(openSecret(KEY, `v2.${parts(sealed).iv}.${parts(sealed).body}`, "endpoint-1")).rejects.toThrow(/format/);
  });
});
