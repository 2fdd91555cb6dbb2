import { describe, expect, it } from "vitest";
import { isUuid, newId, newIdDigits } from "../../src/lib/ids";

const CANONICAL_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function hexBytes(id: string): number[] {
  const hex = id.replace(/-/g, "");
  return Array.from({ length: 16 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

describe("newId", () => {
  it("is a lower-case canonical UUIDv7 with the RFC variant", () => {
    for (let i = 0; i < 200; i++) {
      const id = newId();
      expect(id).toMatch(CANONICAL_V7);
      const bytes = hexBytes(id);
      expect((bytes[6] ?? 0) >> 4).toBe(7);
      expect((bytes[8] ?? 0) >> 6).toBe(0b10);
      expect(isUuid(id)).toBe(true);
    }
  });

  it("embeds the current unix milliseconds in the first 48 bits", () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    const ms = parseInt(id.replace(/-/g, "").slice(0, 12), 16);
    // The counter may borrow a few ms ahead after bursts, never more than a little.
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after + 5);
  });

  it("sorts strictly in creation order over 1000 ids made in a tight loop", () => {
    const ids = Array.from({ length: 1000 }, () => newId());
    for (let i = 1; i < ids.length; i++) {
      expect(ids[i]! > ids[i - 1]!).toBe(true);
    }
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort()).toEqual(ids);
  });

  it("stays ordered across 10000 ids (counter rollover borrows the next millisecond)", () => {
    let prev = newId();
    for (let i = 0; i < 10000; i++) {
      const next = newId();
      if (!(next > prev)) throw new Error(`out of order: ${prev} then ${next}`);
      prev = next;
    }
  });

  it("has random tails that differ between ids", () => {
    const tails = new Set(Array.from({ length: 100 }, () => newId().slice(19)));
    expect(tails.size).toBe(100);
  });
});

describe("newIdDigits", () => {
  it("is a UUIDv7's 32 hex digits, ordered with newId() on one clock", () => {
    const ids = [newId(), newIdDigits(), newId(), newIdDigits()];
    for (const digits of [ids[1], ids[3]]) {
      expect(digits).toMatch(/^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
      expect(
        isUuid(`${digits!.slice(0, 8)}-${digits!.slice(8, 12)}-${digits!.slice(12, 16)}-${digits!.slice(16, 20)}-${digits!.slice(20)}`),
      ).toBe(true);
    }
    const plain = ids.map((id) => id.replaceAll("-", ""));
    expect([...plain].sort()).toEqual(plain);
    expect(new Set(plain).size).toBe(4);
  });
});

describe("isUuid", () => {
  it.each([
    "01890a5d-ac96-774b-bcce-b302099a8057", // v7
    "550e8400-e29b-41d4-a716-446655440000", // v4
    "6ba7b810-9dad-11d1-80b4-00c04fd430c8", // v1
    "6BA7B810-9DAD-11D1-80B4-00C04FD430C8", // upper case input
    "00000000-0000-0000-0000-000000000000", // nil
    "ffffffff-ffff-ffff-ffff-ffffffffffff", // max
    "a3bb189e-8bf9-3888-9912-ace4e6543002", // v3
    "1ec9414c-232a-6b00-b3c8-9e6bdeced846", // v6
    "320c3d4d-cc00-875b-8ec9-32d5f69181c0", // v8
  ])("accepts %s", (value) => {
    expect(isUuid(value)).toBe(true);
  });

  it.each([
    "",
    "not-a-uuid",
    "550e8400e29b41d4a716446655440000", // no hyphens
    "{550e8400-e29b-41d4-a716-446655440000}", // braces
    "urn:uuid:550e8400-e29b-41d4-a716-446655440000",
    "550e8400-e29b-41d4-a716-44665544000", // short
    "550e8400-e29b-41d4-a716-4466554400000", // long
    "550e8400-e29b-01d4-a716-446655440000", // version 0
    "550e8400-e29b-91d4-a716-446655440000", // version 9
    "550e8400-e29b-41d4-c716-446655440000", // Microsoft variant
    "550e8400-e29b-41d4-0716-446655440000", // NCS variant
    "550e8400-e29b-41d4-a716-44665544000g", // non-hex
    " 550e8400-e29b-41d4-a716-446655440000",
    "550e8400-e29b-41d4-a716-446655440000\n",
  ])("rejects %j", (value) => {
    expect(isUuid(value)).toBe(false);
  });
});
