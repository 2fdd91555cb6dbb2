// Lowercase hex of bytes: one table of the 256 byte values, shared by ids, digests and signatures.

/** Each byte value's two hex digits. */
export const BYTE_HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** The bytes as lowercase hex, two digits per byte. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += BYTE_HEX[b];
  return out;
}
