// Base64 of bytes, in one place: sealed secrets and idempotent answers (secret-box.ts), tokens, password hashes,
// the console's CSP nonce, webhook signing secrets.
//
// The runtime's own codec when it has one (`Uint8Array.prototype.toBase64` and `Uint8Array.fromBase64`, which
// workerd has), else a loop over the bytes (Node 22, where the unit tests and the Node benches run). The codec this
// replaces, `btoa(String.fromCharCode(...bytes))`, passed every byte as a function argument: sealing a PIX create's
// 1.8 KB answer spent ~120 µs of workerd CPU in that one line, against ~1 µs for the native codec (docs/benchmarks.md).

interface NativeEncoder {
  toBase64(options?: { alphabet?: "base64" | "base64url"; omitPadding?: boolean }): string;
}
interface NativeDecoder {
  fromBase64(text: string, options?: { alphabet?: "base64" | "base64url" }): Uint8Array;
}

/** True where the runtime encodes and decodes base64 itself (workerd); the loops below run elsewhere. */
export const NATIVE_BASE64 =
  typeof (Uint8Array.prototype as Partial<NativeEncoder>).toBase64 === "function" &&
  typeof (Uint8Array as unknown as Partial<NativeDecoder>).fromBase64 === "function";

function binaryOf(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i] as number);
  return binary;
}

/** Standard base64, padded (RFC 4648 §4). */
export function bytesToBase64(bytes: Uint8Array): string {
  return NATIVE_BASE64 ? (bytes as Uint8Array & NativeEncoder).toBase64() : btoa(binaryOf(bytes));
}

/** base64url without padding (RFC 4648 §5): tokens, sealed values, signing secrets. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  if (NATIVE_BASE64) return (bytes as Uint8Array & NativeEncoder).toBase64({ alphabet: "base64url", omitPadding: true });
  return btoa(binaryOf(bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The bytes of base64 in either alphabet (`+/` or `-_`), padded or not, as the values stored over the years hold
 * both. Throws on anything that is not base64.
 */
export function base64ToBytes(text: string): Uint8Array {
  const standard = text.includes("-") || text.includes("_") ? text.replace(/-/g, "+").replace(/_/g, "/") : text;
  if (NATIVE_BASE64) return (Uint8Array as unknown as NativeDecoder).fromBase64(standard);
  const binary = atob(standard);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
