import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildSignatureHeader, computeSignature, generateSigningSecret, verifyWebhookSignature } from "../../src/events/signature";

const SECRET = "whsec_2Jd3k9sPq0mZ7xY1cV4bN8aL5tR6uW0eQ3iO9pS2dF1";
const OLD_SECRET = "whsec_oldOldOldOldOldOldOldOldOldOldOldOldOld";
const T = 1_760_000_000;
const BODY = '{"id":"evt_1","type":"payment.received","data":{"amount":129.9}}';

/** Independent reference implementation (Node's OpenSSL HMAC). */
function nodeHmac(secret: string, t: number, body: string | Uint8Array): string {
  const h = createHmac("sha256", secret).update(`${t}.`);
  return h.update(body).digest("hex");
}

describe("computeSignature", () => {
  it("matches node:crypto HMAC-SHA256 of '<t>.<body>' keyed by the whole secret string", async () => {
    const sig = await computeSignature(SECRET, T, BODY);
    expect(sig).toBe(createHmac("sha256", SECRET).update(`${T}.${BODY}`).digest("hex"));
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
  });

  it("signs UTF-8 bytes of non-ASCII bodies", async () => {
    const body = '{"name":"João Conceição","memo":"pagamento ✓ 💸","city":"São Paulo"}';
    expect(await computeSignature(SECRET, T, body)).toBe(createHmac("sha256", SECRET).update(`${T}.${body}`, "utf8").digest("hex"));
  });

  it("signs Uint8Array bodies byte for byte (including bytes that are not valid UTF-8)", async () => {
    const bytes = new Uint8Array([0x7b, 0xff, 0x00, 0xc3, 0xa7, 0x7d]);
    expect(await computeSignature(SECRET, T, bytes)).toBe(nodeHmac(SECRET, T, bytes));
    const utf8 = new TextEncoder().encode(BODY);
    expect(await computeSignature(SECRET, T, utf8)).toBe(await computeSignature(SECRET, T, BODY));
  });

  it("signs the empty body", async () => {
    expect(await computeSignature(SECRET, T, "")).toBe(nodeHmac(SECRET, T, ""));
  });

  it("depends on secret, timestamp and body", async () => {
    const base = await computeSignature(SECRET, T, BODY);
    expect(await computeSignature(OLD_SECRET, T, BODY)).not.toBe(base);
    expect(await computeSignature(SECRET, T + 1, BODY)).not.toBe(base);
    expect(await computeSignature(SECRET, T, `${BODY} `)).not.toBe(base);
  });

  it("refuses bad timestamps and empty secrets", async () => {
    await expect(computeSignature(SECRET, 1.5, BODY)).rejects.toThrow(RangeError);
    await expect(computeSignature(SECRET, -1, BODY)).rejects.toThrow(RangeError);
    await expect(computeSignature("", T, BODY)).rejects.toThrow(TypeError);
  });
});

describe("buildSignatureHeader", () => {
  it("has t and one v1 per secret in the given order", async () => {
    const header = await buildSignatureHeader([SECRET, OLD_SECRET], T, BODY);
    expect(header).toBe(`t=${T},v1=${nodeHmac(SECRET, T, BODY)},v1=${nodeHmac(OLD_SECRET, T, BODY)}`);
  });

  it("with a single secret", async () => {
    expect(await buildSignatureHeader([SECRET], T, BODY)).toBe(`t=${T},v1=${nodeHmac(SECRET, T, BODY)}`);
  });

  it("needs at least one secret", async () => {
    await expect(buildSignatureHeader([], T, BODY)).rejects.toThrow(TypeError);
  });
});

describe("verifyWebhookSignature", () => {
  const header = `t=${T},v1=${nodeHmac(SECRET, T, BODY)}`;

  it("accepts a header signed by an independent implementation", async () => {
    expect(await verifyWebhookSignature(BODY, header, SECRET, { now: T })).toEqual({ ok: true, timestamp: T });
  });

  it("round-trips with buildSignatureHeader", async () => {
    const built = await buildSignatureHeader([SECRET], T, BODY);
    expect(await verifyWebhookSignature(BODY, built, SECRET, { now: T + 10 })).toEqual({ ok: true, timestamp: T });
  });

  it("uses the system clock by default", async () => {
    const now = Math.floor(Date.now() / 1000);
    const fresh = `t=${now},v1=${nodeHmac(SECRET, now, BODY)}`;
    expect(await verifyWebhookSignature(BODY, fresh, SECRET)).toEqual({ ok: true, timestamp: now });
    expect(await verifyWebhookSignature(BODY, header, SECRET)).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
  });

  it.each([null, undefined, "", "   "])("missing_header for %j", async (h) => {
    expect(await verifyWebhookSignature(BODY, h, SECRET, { now: T })).toEqual({ ok: false, reason: "missing_header" });
  });

  it.each([
    `v1=${"a".repeat(64)}`,
    `t=,v1=${"a".repeat(64)}`,
    `t=12a,v1=${"a".repeat(64)}`,
    `t=-5,v1=${"a".repeat(64)}`,
    `t=1e9,v1=${"a".repeat(64)}`,
    `t=+${T},v1=${"a".repeat(64)}`,
    `t=${T}.5,v1=${"a".repeat(64)}`,
    `t=0x10,v1=${"a".repeat(64)}`,
    `t=1234567890123456,v1=${"a".repeat(64)}`,
    `t=${T},t=${T},v1=${"a".repeat(64)}`, // ambiguous
    `t,v1=${"a".repeat(64)}`,
    "garbage",
  ])("invalid_timestamp for %s", async (h) => {
    expect(await verifyWebhookSignature(BODY, h, SECRET, { now: T })).toEqual({ ok: false, reason: "invalid_timestamp" });
  });

  it.each([`t=${T}`, `t=${T},v0=${nodeHmac(SECRET, T, BODY)}`, `t=${T},v2=abc`, `t=${T},`])("missing_signature for %s", async (h) => {
    expect(await verifyWebhookSignature(BODY, h, SECRET, { now: T })).toEqual({ ok: false, reason: "missing_signature" });
  });

  it("tolerance is inclusive at 300 s in the past and the future, 301 s is rejected", async () => {
    const verifyAt = (now: number) => verifyWebhookSignature(BODY, header, SECRET, { now });
    expect(await verifyAt(T + 300)).toEqual({ ok: true, timestamp: T });
    expect(await verifyAt(T - 300)).toEqual({ ok: true, timestamp: T });
    expect(await verifyAt(T + 301)).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
    expect(await verifyAt(T - 301)).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
  });

  it("honours a custom tolerance", async () => {
    const opts = (now: number) => ({ now, toleranceSeconds: 10 });
    expect((await verifyWebhookSignature(BODY, header, SECRET, opts(T + 10))).ok).toBe(true);
    expect(await verifyWebhookSignature(BODY, header, SECRET, opts(T + 11))).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
    expect((await verifyWebhookSignature(BODY, header, SECRET, { now: T, toleranceSeconds: 0 })).ok).toBe(true);
    await expect(verifyWebhookSignature(BODY, header, SECRET, { now: T, toleranceSeconds: -1 })).rejects.toThrow(RangeError);
  });

  it("signature_mismatch for a wrong secret, altered body, altered timestamp or garbled digest", async () => {
    const mismatch = { ok: false, reason: "signature_mismatch" };
    expect(await verifyWebhookSignature(BODY, header, OLD_SECRET, { now: T })).toEqual(mismatch);
    expect(await verifyWebhookSignature(BODY.replace("129.9", "1299"), header, SECRET, { now: T })).toEqual(mismatch);
    const shifted = header.replace(`t=${T}`, `t=${T + 1}`);
    expect(await verifyWebhookSignature(BODY, shifted, SECRET, { now: T })).toEqual(mismatch);
    const sig = nodeHmac(SECRET, T, BODY);
    const flipped = sig.slice(0, 63) + (sig[63] === "0" ? "1" : "0");
    expect(await verifyWebhookSignature(BODY, `t=${T},v1=${flipped}`, SECRET, { now: T })).toEqual(mismatch);
    expect(await verifyWebhookSignature(BODY, `t=${T},v1=${sig.slice(0, 62)}`, SECRET, { now: T })).toEqual(mismatch);
    expect(await verifyWebhookSignature(BODY, `t=${T},v1=${sig}00`, SECRET, { now: T })).toEqual(mismatch);
    expect(await verifyWebhookSignature(BODY, `t=${T},v1=`, SECRET, { now: T })).toEqual(mismatch);
    // The secret is the whole string: the part after whsec_ alone must not verify.
    expect(await verifyWebhookSignature(BODY, header, SECRET.slice("whsec_".length), { now: T })).toEqual(mismatch);
  });

  it("rotation: a header with both v1s verifies with either secret, or with both", async () => {
    const both = await buildSignatureHeader([SECRET, OLD_SECRET], T, BODY);
    expect(both.match(/v1=/g)).toHaveLength(2);
    expect(await verifyWebhookSignature(BODY, both, SECRET, { now: T })).toEqual({ ok: true, timestamp: T });
    expect(await verifyWebhookSignature(BODY, both, OLD_SECRET, { now: T })).toEqual({ ok: true, timestamp: T });
    expect(await verifyWebhookSignature(BODY, both, [OLD_SECRET, SECRET], { now: T })).toEqual({ ok: true, timestamp: T });
    expect(await verifyWebhookSignature(BODY, both, "whsec_other", { now: T })).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("rotation: a receiver holding both secrets accepts a header signed by only one of them", async () => {
    const oldOnly = `t=${T},v1=${nodeHmac(OLD_SECRET, T, BODY)}`;
    expect(await verifyWebhookSignature(BODY, oldOnly, [SECRET, OLD_SECRET], { now: T })).toEqual({ ok: true, timestamp: T });
  });

  it("ignores unknown schemes and tolerates spaces around commas and equals", async () => {
    const sig = nodeHmac(SECRET, T, BODY);
    const messy = ` t=${T} ,  v0=deadbeef , v1 = ${sig} ,v9=x `;
    expect(await verifyWebhookSignature(BODY, messy, SECRET, { now: T })).toEqual({ ok: true, timestamp: T });
    const wrongFirst = `t=${T}, v1=${"0".repeat(64)}, v1=${sig}`;
    expect(await verifyWebhookSignature(BODY, wrongFirst, SECRET, { now: T })).toEqual({ ok: true, timestamp: T });
  });

  it("verifies UTF-8 and Uint8Array bodies signed by node:crypto", async () => {
    const body = '{"cliente":"José Ñandú","descrição":"café ☕","emoji":"🇧🇷"}';
    const h = `t=${T},v1=${nodeHmac(SECRET, T, body)}`;
    expect((await verifyWebhookSignature(body, h, SECRET, { now: T })).ok).toBe(true);
    expect((await verifyWebhookSignature(new TextEncoder().encode(body), h, SECRET, { now: T })).ok).toBe(true);
    // Same text normalised differently (NFD) is different bytes and must not verify.
    expect(await verifyWebhookSignature(body.normalize("NFD"), h, SECRET, { now: T })).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("requires at least one non-empty secret", async () => {
    await expect(verifyWebhookSignature(BODY, header, [], { now: T })).rejects.toThrow(TypeError);
    await expect(verifyWebhookSignature(BODY, header, "", { now: T })).rejects.toThrow(TypeError);
  });
});

describe("generateSigningSecret", () => {
  it("is whsec_ + unpadded base64url of 32 random bytes", () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const encoded = secret.slice("whsec_".length);
    const decoded = atob(`${encoded.replace(/-/g, "+").replace(/_/g, "/")}=`);
    expect(decoded).toHaveLength(32);
    const reencoded = btoa(decoded).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect(reencoded).toBe(encoded);
  });

  it("is different every time", () => {
    const secrets = new Set(Array.from({ length: 200 }, () => generateSigningSecret()));
    expect(secrets.size).toBe(200);
  });

  it("works as a signing key end to end", async () => {
    const secret = generateSigningSecret();
    const h = await buildSignatureHeader([secret], T, BODY);
    expect(h).toBe(`t=${T},v1=${nodeHmac(secret, T, BODY)}`);
    expect((await verifyWebhookSignature(BODY, h, secret, { now: T })).ok).toBe(true);
  });
});
