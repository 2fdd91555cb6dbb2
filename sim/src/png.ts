// Minimal PNG encoder for QR matrices: 1-bit grayscale, zlib via CompressionStream. Pure apart from
// the platform's CompressionStream (available in workerd and Node >= 18).

const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  const typeAndData = out.subarray(4, 8 + data.length);
  typeAndData.set(new TextEncoder().encode(type), 0);
  typeAndData.set(data, 4);
  view.setUint32(8 + data.length, crc32(typeAndData));
  return out;
}

async function zlib(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Renders a module matrix (`true` = dark) as a PNG with `scale` pixels per module and a
 * quiet zone of `border` modules.
 */
export async function encodeMatrixPng(modules: readonly (readonly boolean[])[], scale = 4, border = 4): Promise<Uint8Array> {
  const size = modules.length;
  const width = (size + 2 * border) * scale;
  const rowBytes = Math.ceil(width / 8);
  const raw = new Uint8Array((rowBytes + 1) * width);
  for (let y = 0; y < width; y++) {
    const my = Math.floor(y / scale) - border;
    const rowStart = y * (rowBytes + 1); // filter byte 0 (None) then packed pixels
    for (let x = 0; x < width; x++) {
      const mx = Math.floor(x / scale) - border;
      const dark = my >= 0 && my < size && mx >= 0 && mx < size && modules[my]?.[mx] === true;
      // Grayscale bit 1 = white; dark modules stay 0.
      if (!dark) {
        const at = rowStart + 1 + (x >> 3);
        raw[at] = (raw[at] ?? 0) | (0x80 >> (x & 7));
      }
    }
  }
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, width);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // colour type: grayscale
  const parts = [SIGNATURE, chunk("IHDR", ihdr), chunk("IDAT", await zlib(raw)), chunk("IEND", new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
