// QR image for a PIX payload: uqr builds the module matrix, png.ts draws it.
import { encode } from "uqr";
import { encodeMatrixPng, toBase64 } from "./png";

/** Base64 PNG of a QR code (ECC M) encoding `text`. */
export async function qrPngBase64(text: string): Promise<string> {
  const qr = encode(text, { ecc: "M", border: 0 });
  return toBase64(await encodeMatrixPng(qr.data, 4, 4));
}
