// PIX BR Code (EMV QR Code Merchant-Presented Mode) payloads. Pure: no I/O.

/** One EMV TLV field: 2-digit id, 2-digit length, value. */
export function emvField(id: string, value: string): string {
  if (value.length > 99) throw new Error(`EMV field ${id} too long (${value.length})`);
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
}

/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xor-out) as 4 uppercase hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/** Upper-case ASCII without accents, as BR Code readers expect in names and cities. */
export function brCodeText(value: string, maxLength: number): string {
  const ascii = value
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9 .-]/g, "")
    .trim()
    .toUpperCase();
  return (ascii || "NA").slice(0, maxLength);
}

export interface PixPayloadInput {
  /** Location URL of the dynamic charge, without scheme (field 26-25). */
  location: string;
  amount: number;
  merchantName: string;
  merchantCity: string;
  /** Up to 25 alphanumerics (field 62-05). */
  txid: string;
}

/** A dynamic (point of initiation "12") PIX BR Code, CRC included. */
export function buildPixPayload(input: PixPayloadInput): string {
  const txid = input.txid.replace(/[^A-Za-z0-9]/g, "").slice(0, 25) || "***";
  const body =
    emvField("00", "01") +
    emvField("01", "12") +
    emvField("26", emvField("00", "br.gov.bcb.pix") + emvField("25", input.location)) +
    emvField("52", "0000") +
    emvField("53", "986") +
    emvField("54", input.amount.toFixed(2)) +
    emvField("58", "BR") +
    emvField("59", brCodeText(input.merchantName, 25)) +
    emvField("60", brCodeText(input.merchantCity, 15)) +
    emvField("62", emvField("05", txid)) +
    "6304";
  return body + crc16(body);
}

/** Splits an EMV TLV string into fields (top level only). Throws on malformed input. */
export function parseEmv(payload: string): Map<string, string> {
  const fields = new Map<string, string>();
  let i = 0;
  while (i < payload.length) {
    const id = payload.slice(i, i + 2);
    const len = Number(payload.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(len) || i + 4 + len > payload.length) {
      throw new Error(`malformed EMV field at ${i}`);
    }
    fields.set(id, payload.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return fields;
}

/** True when the payload ends in a field 63 whose CRC matches everything before it. */
export function brCodeCrcValid(payload: string): boolean {
  if (payload.length < 8 || payload.slice(-8, -4) !== "6304") return false;
  return crc16(payload.slice(0, -4)) === payload.slice(-4);
}
