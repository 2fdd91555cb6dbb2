import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { formatExchangeRate, parseExchangeRate, toBrlCents } from "../../src/lib/exchange";

describe("exchange rates", () => {
  it("parses decimal strings exactly into micros", () => {
    expect(parseExchangeRate("5.4321")).toEqual({ ok: true, micros: 5_432_100 });
    expect(parseExchangeRate("1")).toEqual({ ok: true, micros: 1_000_000 });
    expect(parseExchangeRate(5.1)).toEqual({ ok: true, micros: 5_100_000 });
    expect(formatExchangeRate(5_432_100)).toBe("5.432100");
  });

  it("refuses zero, negatives, too many decimals and non-numbers with a reason", () => {
    for (const bad of ["0", "0.000000", "-1", "5.1234567", "abc", "", "1e3", null, {}]) {
      const result = parseExchangeRate(bad);
      expect(result.ok, String(bad)).toBe(false);
    }
    expect(parseExchangeRate("5.1234567")).toMatchObject({ reason: expect.stringContaining("6 decimal") });
  });

  it("converts with half-even rounding to the cent", () => {
    expect(toBrlCents(10_000, 5_432_100)).toBe(54_321); // 100.00 USD × 5.4321 = 543.21
    expect(toBrlCents(1, 500_000)).toBe(0); // 0.005 → 0.00 (half to even)
    expect(toBrlCents(3, 500_000)).toBe(2); // 0.015 → 0.02
    expect(toBrlCents(1, 1_500_000)).toBe(2); // 0.015 → 0.02
    expect(toBrlCents(1, 2_500_000)).toBe(2); // 0.025 → 0.02
    expect(toBrlCents(18_400_000_000, 5_432_101)).toBe(99_950_658_400); // 1e17 intermediate, exact
  });

  it("answers null past the bound on every amount (R$ 1 billion), never an unsafe integer", () => {
    expect(toBrlCents(20_000_000_000, 5_000_000)).toBe(100_000_000_000); // exactly R$ 1 billion
    expect(toBrlCents(20_000_000_001, 5_000_000)).toBeNull();
    expect(toBrlCents(100_000_000_000, 5_432_101)).toBeNull();
    expect(toBrlCents(100_000_000_000, 999_999_999_999)).toBeNull();
  });

  test.prop([fc.integer({ min: 0, max: 100_000_000_000 }), fc.integer({ min: 1, max: 50_000_000 })])(
    "never further than half a cent from the exact product",
    (amount, rate) => {
      const exactTimesScale = BigInt(amount) * BigInt(rate);
      const cents = toBrlCents(amount, rate);
      if (cents === null) expect(exactTimesScale > 100_000_000_000n * 1_000_000n).toBe(true);
      else {
        const diff = BigInt(cents) * 1_000_000n - exactTimesScale;
        expect(diff <= 500_000n && diff >= -500_000n).toBe(true);
      }
    },
  );
});
