import { describe, expect, it } from "vitest";
import { formatMoney, fromUpstreamAmount, MAX_MONEY_CENTS, parseMoney, toUpstreamAmount } from "../../src/lib/money";

function cents(input: unknown): number {
  const r = parseMoney(input);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(input)} to parse, got: ${r.reason}`);
  return r.cents;
}

describe("parseMoney", () => {
  it.each([
    ["129.90", 12990],
    ["129.9", 12990],
    ["129", 12900],
    ["0.01", 1],
    ["0.1", 10],
    ["0", 0],
    ["0.00", 0],
    ["0.29", 29],
    ["1.15", 115],
    ["4.35", 435],
    ["0.07", 7],
    ["8.20", 820],
    ["1000000.00", 100000000],
    ["999999999.99", 99999999999],
  ] as const)("parses string %j as %d cents", (input, expected) => {
    expect(cents(input)).toBe(expected);
  });

  it.each([
    [129.9, 12990],
    [129.99, 12999],
    [129, 12900],
    [0.01, 1],
    [0.29, 29], // 0.29 * 100 === 28.999999999999996 in floating point
    [1.15, 115], // 1.15 * 100 === 114.99999999999999
    [4.35, 435], // 4.35 * 100 === 434.99999999999994
    [0.57, 57], // 0.57 * 100 === 56.99999999999999
    [1.1, 110],
    [0, 0],
    [999999999.99, 99999999999],
  ] as const)("parses number %d as %d cents through its decimal string", (input, expected) => {
    expect(cents(input)).toBe(expected);
  });

  it("shows the float traps are real (so the tests above are meaningful)", () => {
    expect(Math.floor(0.29 * 100)).toBe(28);
    expect(Math.floor(4.35 * 100)).toBe(434);
  });

  it("accepts exactly the maximum and rejects one cent more", () => {
    expect(MAX_MONEY_CENTS).toBe(100_000_000_000);
    expect(cents("1000000000.00")).toBe(MAX_MONEY_CENTS);
    expect(cents(1000000000)).toBe(MAX_MONEY_CENTS);
    expect(parseMoney("1000000000.01")).toEqual({ ok: false, reason: expect.stringMatching(/maximum/) });
    expect(parseMoney(1000000000.01).ok).toBe(false);
    expect(parseMoney("99999999999999999999").ok).toBe(false);
    expect(parseMoney(Number.MAX_SAFE_INTEGER).ok).toBe(false);
  });

  it.each([
    ["1.005", /2 decimal/],
    ["0.001", /2 decimal/],
    ["129.900", /2 decimal/],
    [1.005, /2 decimal/],
    [0.1 + 0.2, /2 decimal/], // 0.30000000000000004
    ["-1.00", /negative/],
    [-1, /negative/],
    [-0.01, /negative/],
    ["+1.00", /sign/],
    ["", /empty/],
    [" 1.00", /whitespace/],
    ["1.00 ", /whitespace/],
    ["1 000.00", /whitespace/],
    ["1,000.00", /separator/],
    ["129,90", /separator/],
    ["1e3", /exponent/],
    ["1E3", /exponent/],
    [1e21, /exponent/],
    [1e-7, /exponent/],
    [NaN, /finite/],
    [Infinity, /finite/],
    [-Infinity, /finite/],
    ["01.00", /leading zeros/],
    ["00", /leading zeros/],
    ["1.", /decimal number/],
    [".50", /decimal number/],
    ["1.2.3", /decimal number/],
    ["abc", /decimal number/],
    ["1_000", /decimal number/],
    ["0x10", /decimal number/],
    ["１２", /decimal number/], // full-width digits
    ["NaN", /decimal number/],
    ["Infinity", /decimal number/],
    [null, /string or a number/],
    [undefined, /string or a number/],
    [true, /string or a number/],
    [12n, /string or a number/],
    [{ amount: "1.00" }, /string or a number/],
  ] as const)("rejects %s", (input, reason) => {
    const r = parseMoney(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});

describe("formatMoney", () => {
  it.each([
    [12990, "129.90"],
    [5, "0.05"],
    [0, "0.00"],
    [1, "0.01"],
    [10, "0.10"],
    [100, "1.00"],
    [100000000, "1000000.00"],
    [MAX_MONEY_CENTS, "1000000000.00"],
    [-150, "-1.50"],
    [-5, "-0.05"],
  ] as const)("formats %d as %j", (input, expected) => {
    expect(formatMoney(input)).toBe(expected);
  });

  it.each([1.5, NaN, Infinity, 2 ** 53])("throws for %d", (input) => {
    expect(() => formatMoney(input)).toThrow(RangeError);
  });

  it("round-trips through parseMoney for many values", () => {
    const samples = [0, 1, 7, 10, 29, 99, 100, 115, 435, 1005, 12990, 33333, 99999, 123456789, MAX_MONEY_CENTS];
    for (let c = 0; c < 5000; c += 7) samples.push(c);
    for (const c of samples) expect(cents(formatMoney(c))).toBe(c);
  });
});

describe("toUpstreamAmount / fromUpstreamAmount", () => {
  it.each([
    [12990, 129.9],
    [12999, 129.99],
    [29, 0.29],
    [115, 1.15],
    [435, 4.35],
    [1, 0.01],
    [0, 0],
    [100, 1],
    [MAX_MONEY_CENTS, 1000000000],
  ] as const)("%d cents ↔ %d", (c, upstream) => {
    expect(toUpstreamAmount(c)).toBe(upstream);
    expect(JSON.stringify({ value: toUpstreamAmount(c) })).toBe(`{"value":${String(upstream)}}`);
    expect(fromUpstreamAmount(upstream)).toBe(c);
  });

  it("round-trips every cent value from 0 to 100000 and a spread of large ones", () => {
    for (let c = 0; c <= 100000; c++) {
      if (fromUpstreamAmount(toUpstreamAmount(c)) !== c) throw new Error(`round trip failed for ${c}`);
    }
    for (let c = 99_999_000_000; c <= MAX_MONEY_CENTS; c += 9_901) {
      if (fromUpstreamAmount(toUpstreamAmount(c)) !== c) throw new Error(`round trip failed for ${c}`);
    }
  });

  it("never rounds: more than 2 decimals, negatives and non-finite throw", () => {
    expect(() => fromUpstreamAmount(10.005)).toThrow(/2 decimal/);
    expect(() => fromUpstreamAmount(0.1 + 0.2)).toThrow(/2 decimal/);
    expect(() => fromUpstreamAmount(-1)).toThrow(/negative/);
    expect(() => fromUpstreamAmount(NaN)).toThrow(RangeError);
    expect(() => fromUpstreamAmount(1e21)).toThrow(RangeError);
    expect(() => fromUpstreamAmount(MAX_MONEY_CENTS)).toThrow(/maximum/);
  });

  it("refuses out-of-range or non-integer cents", () => {
    expect(() => toUpstreamAmount(-1)).toThrow(RangeError);
    expect(() => toUpstreamAmount(MAX_MONEY_CENTS + 1)).toThrow(RangeError);
    expect(() => toUpstreamAmount(12.5)).toThrow(RangeError);
  });
});
