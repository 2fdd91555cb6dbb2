import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { largestRemainder } from "../../src/modules/analytics/allocation";

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("largestRemainder", () => {
  it("splits 100.00 over three equal weights as 33.34 + 33.33 + 33.33 (the left-over cent to the first)", () => {
    expect(largestRemainder(10000, [1, 1, 1])).toEqual([3334, 3333, 3333]);
  });

  it("gives the left-over cents to the largest remainders", () => {
    // 1000 × (1, 2, 3) / 6 = 166.67, 333.33, 500 → floors 166, 333, 500; one cent left, to the 0.67 remainder.
    expect(largestRemainder(1000, [1, 2, 3])).toEqual([167, 333, 500]);
    // 10 over 7 : 3 → 7 and 3 exactly.
    expect(largestRemainder(10, [7000, 3000])).toEqual([7, 3]);
  });

  it("gives nothing to zero or negative weights; null when nothing is positive", () => {
    expect(largestRemainder(101, [0, 5, -3, 5])).toEqual([0, 51, 0, 50]);
    expect(largestRemainder(500, [0, -1])).toBeNull();
    expect(largestRemainder(500, [])).toBeNull();
  });

  it("spreads a negative amount as its absolute value, negated", () => {
    expect(largestRemainder(-10000, [1, 1, 1])).toEqual([-3334, -3333, -3333]);
  });

  it("always adds up to the amount exactly, each share within one cent of its exact quota", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.array(fc.integer({ min: 0, max: 1e12 }), { minLength: 1, maxLength: 40 }),
        (amount, weights) => {
          const shares = largestRemainder(amount, weights);
          const total = sum(weights);
          if (total === 0) {
            // Not `return expect(…)`: fast-check fails a property that returns anything but true or undefined.
            expect(shares).toBeNull();
            return;
          }
          expect(shares).not.toBeNull();
          expect(sum(shares ?? [])).toBe(amount);
          shares?.forEach((s, i) => {
            const quota = (amount * (weights[i] ?? 0)) / total;
            expect(Math.abs(s - quota)).toBeLessThan(1.000001);
          });
        },
      ),
    );
  });
});
