// The base64 codec (src/lib/base64.ts) as Node runs it (no native codec in Node 22: the loops), checked against
// Node's Buffer; test/workers/secret-rotation.test.ts checks the runtime's own codec in workerd.
import { describe, expect, it } from "vitest";
import { base64ToBytes, bytesToBase64, bytesToBase64Url, NATIVE_BASE64 } from "../../src/lib/base64";

const RFC_4648 = [
  ["", ""],
  ["f", "Zg=="],
  ["fo", "Zm8="],
  ["foo", "Zm9v"],
  ["foob", "Zm9vYg=="],
  ["fooba", "Zm9vYmE="],
  ["foobar", "Zm9vYmFy"],
] as const;

/** Every length from 0 to 300, then a sealed answer's size: each byte value appears. */
const samples = [...Array.from({ length: 301 }, (_, n) => n), 1800].map((n) => crypto.getRandomValues(new Uint8Array(n)));

describe("base64 (src/lib/base64.ts)", () => {
  it("runs the loops here: Node 22 has no Uint8Array.prototype.toBase64", () => {
    expect(NATIVE_BASE64).toBe(typeof (Uint8Array.prototype as { toBase64?: unknown }).toBase64 === "function");
  });

  it("encodes the RFC 4648 test vectors", () => {
    for (const [text, encoded] of RFC_4648) {
      const bytes = new TextEncoder().encode(text);
      expect(bytesToBase64(bytes)).toBe(encoded);
      expect(bytesToBase64Url(bytes)).toBe(encoded.replace(/=+$/, ""));
      expect(new TextDecoder().decode(base64ToBytes(encoded))).toBe(text);
    }
  });

  it("agrees with Buffer both ways, in both alphabets, for every length and byte value", () => {
    for (const bytes of samples) {
      const buffer = Buffer.from(bytes);
      expect(bytesToBase64(bytes)).toBe(buffer.toString("base64"));
      expect(bytesToBase64Url(bytes)).toBe(buffer.toString("base64url"));
      expect(base64ToBytes(buffer.toString("base64"))).toEqual(bytes);
      expect(base64ToBytes(buffer.toString("base64url"))).toEqual(bytes);
    }
  });

  it("refuses what is not base64", () => {
    expect(() => base64ToBytes("not base64!")).toThrow();
    expect(() => base64ToBytes("Zm9v*")).toThrow();
  });
});
