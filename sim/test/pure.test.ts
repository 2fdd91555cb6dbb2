// Pure modules: BR Code, PNG, boleto check digits, cards, webhook envelope, path matching.
import { encode } from "uqr";
import { describe, expect, it } from "vitest";
import { buildBoleto, mod10, mod11 } from "../src/boleto";
import { brCodeCrcValid, brCodeText, buildPixPayload, crc16, emvField, parseEmv } from "../src/brcode";
import { cardBrand, expiryValid, luhnValid } from "../src/cards";
import { crc32, encodeMatrixPng } from "../src/png";
import { matchPath, resolve } from "../src/routes";
import { buildWebhookEnvelope, webhookHeaders } from "../src/webhooks";

describe("BR Code", () => {
  it("computes CRC16-CCITT-FALSE", () => {
    expect(crc16("123456789")).toBe("29B1");
    // The central bank's static example payload.
    const example =
      "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304";
    expect(crc16(example)).toBe("1D3D");
  });

  it("builds a dynamic payload with every required field and a valid CRC", () => {
    const payload = buildPixPayload({
      location: "pix.example/qr/cobv/abc",
      amount: 10,
      merchantName: "Loja São João de Açúcar Ltda ME",
      merchantCity: "São José dos Campos",
      txid: "pay_abc123",
    });
    expect(brCodeCrcValid(payload)).toBe(true);
    const f = parseEmv(payload);
    expect([...f.keys()]).toEqual(["00", "01", "26", "52", "53", "54", "58", "59", "60", "62", "63"]);
    expect(parseEmv(f.get("26")!)).toEqual(
      new Map([
        ["00", "br.gov.bcb.pix"],
        ["25", "pix.example/qr/cobv/abc"],
      ]),
    );
    expect(f.get("54")).toBe("10.00");
    expect(f.get("59")).toBe("LOJA SAO JOAO DE ACUCAR L");
    expect(f.get("59")!.length).toBeLessThanOrEqual(25);
    expect(f.get("60")).toBe("SAO JOSE DOS CA");
    expect(parseEmv(f.get("62")!).get("05")).toBe("payabc123");
    expect(f.get("63")).toMatch(/^[0-9A-F]{4}$/);
    expect(brCodeCrcValid(payload.slice(0, -1) + (payload.endsWith("0") ? "1" : "0"))).toBe(false);
  });

  it("formats TLV fields", () => {
    expect(emvField("58", "BR")).toBe("5802BR");
    expect(brCodeText("", 10)).toBe("NA");
    expect(() => emvField("25", "x".repeat(100))).toThrow();
  });
});

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe("PNG", () => {
  it("has the signature, a 1-bit grayscale IHDR of the right size, valid CRCs and the QR pixels", async () => {
    const qr = encode("hello pix", { ecc: "M", border: 0 });
    const png = await encodeMatrixPng(qr.data, 2, 4);
    expect([...png.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const view = new DataView(png.buffer, png.byteOffset);
    const width = (qr.size + 8) * 2;
    const chunks: Array<{ type: string; data: Uint8Array }> = [];
    for (let off = 8; off < png.length; ) {
      const len = view.getUint32(off);
      const type = new TextDecoder().decode(png.slice(off + 4, off + 8));
      expect(view.getUint32(off + 8 + len)).toBe(crc32(png.slice(off + 4, off + 8 + len)));
      chunks.push({ type, data: png.slice(off + 8, off + 8 + len) });
      off += 12 + len;
    }
    expect(chunks.map((c) => c.type)).toEqual(["IHDR", "IDAT", "IEND"]);
    const ihdr = new DataView(chunks[0]!.data.buffer, chunks[0]!.data.byteOffset);
    expect([ihdr.getUint32(0), ihdr.getUint32(4), ihdr.getUint8(8), ihdr.getUint8(9)]).toEqual([width, width, 1, 0]);
    const raw = await inflate(chunks[1]!.data);
    const rowBytes = Math.ceil(width / 8);
    expect(raw.length).toBe((rowBytes + 1) * width);
    const pixelIsDark = (x: number, y: number) => ((raw[y * (rowBytes + 1) + 1 + (x >> 3)]! >> (7 - (x & 7))) & 1) === 0;
    expect(pixelIsDark(0, 0)).toBe(false); // quiet zone
    expect(pixelIsDark(8, 8)).toBe(true); // top-left finder pattern corner (module 0,0)
    expect(pixelIsDark(8 + 2 * 2, 8 + 2 * 2)).toBe(qr.data[2]![2]); // finder centre
  });

  it("computes CRC-32", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
  });
});

describe("boleto", () => {
  it("builds a 44-digit barcode and a 47-digit line with consistent check digits", () => {
    const { barCode, identificationField: line } = buildBoleto(250.5, "2027-01-15", "1234567890123456789012345");
    expect(barCode).toMatch(/^4619\d{40}$/);
    expect(line).toHaveLength(47);
    expect(Number(barCode[4])).toBe(mod11(barCode.slice(0, 4) + barCode.slice(5)));
    expect(Number(line[9])).toBe(mod10(line.slice(0, 9)));
    expect(Number(line[20])).toBe(mod10(line.slice(10, 20)));
    expect(Number(line[31])).toBe(mod10(line.slice(21, 31)));
    expect(line.slice(33)).toBe(barCode.slice(5, 19));
    expect(barCode.slice(9, 19)).toBe("0000025050");
  });
});

describe("cards", () => {
  it("validates Luhn, brand and expiry", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(luhnValid("5184019740373151")).toBe(true);
    expect(cardBrand("4916561358240741")).toBe("VISA");
    expect(cardBrand("5184019740373151")).toBe("MASTERCARD");
    expect(cardBrand("378282246310005")).toBe("AMEX");
    expect(cardBrand("6362970000457013")).toBe("ELO");
    const now = new Date(Date.UTC(2026, 10, 21));
    expect(expiryValid("11", "2026", now)).toBe(true);
    expect(expiryValid("10", "2026", now)).toBe(false);
    expect(expiryValid("13", "2030", now)).toBe(false);
    expect(expiryValid("01", "27", now)).toBe(true);
  });
});

describe("webhook envelope", () => {
  it("has an evt_ id, the event, a 'YYYY-MM-DD HH:mm:ss' date and the entity under its key", () => {
    const env = buildWebhookEnvelope(
      { event: "PAYMENT_RECEIVED", entityKey: "payment", entity: { id: "pay_1", status: "RECEIVED" } },
      new Date(Date.UTC(2026, 5, 12, 16, 45, 3)),
    );
    expect(env).toEqual({
      id: expect.stringMatching(/^evt_[a-z0-9]+$/),
      event: "PAYMENT_RECEIVED",
      dateCreated: "2026-06-12 13:45:03", // São Paulo wall time of 16:45:03 UTC
      payment: { id: "pay_1", status: "RECEIVED" },
    });
    expect(webhookHeaders({ authToken: "tok" })).toMatchObject({ "asaas-access-token": "tok", "content-type": "application/json" });
    expect(webhookHeaders({ authToken: null })).not.toHaveProperty("asaas-access-token");
  });
});

describe("routing", () => {
  it("matches {param} segments and ignores a trailing slash", () => {
    expect(matchPath("/v3/payments/{id}/refund", "/v3/payments/pay_1/refund/")).toEqual({ id: "pay_1" });
    expect(matchPath("/v3/payments/{id}", "/v3/payments/pay_1/refund")).toBeNull();
  });

  it("resolves a request to the most specific catalogue operation", () => {
    expect(resolve("GET", "/v3/payments/pay_1")).toMatchObject({
      kind: "catalogue",
      operation: { operationId: "recuperar-uma-unica-cobranca" },
      params: { id: "pay_1" },
    });
    expect(resolve("GET", "/v3/payments/limits")).toMatchObject({
      kind: "catalogue",
      operation: { operationId: "recuperando-limites-de-cobrancas-1" },
    });
    expect(resolve("POST", "/v3/installments/")).toMatchObject({ kind: "catalogue" });
    expect(resolve("GET", "/v3/unknown")).toEqual({ kind: "none" });
  });
});
