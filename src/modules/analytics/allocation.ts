// Spreading an amount of cents over weights by the largest-remainder method (Hamilton): each share is
// the floor of amount × weight ÷ Σweights, and the cents left over go one each to the largest
// remainders (ties to the earlier entry), so the shares add up to the amount exactly. Pure, integers only
// (BigInt for the products, so no amount or weight loses precision).

/**
 * Shares of `amountCents` in proportion to `weights` (entries ≤ 0 get nothing). Returns null when no
 * weight is positive (nothing to spread over). A negative amount is spread as its absolute value, negated.
 */
export function largestRemainder(amountCents: number, weights: readonly number[]): number[] | null {
  if (!Number.isSafeInteger(amountCents)) throw new RangeError("amountCents must be a safe integer");
  const w = weights.map((x) => (Number.isSafeInteger(x) && x > 0 ? BigInt(x) : 0n));
  const total = w.reduce((a, b) => a + b, 0n);
  if (total === 0n) return null;
  const sign = amountCents < 0 ? -1 : 1;
  const amount = BigInt(Math.abs(amountCents));
  const floors = w.map((x) => (amount * x) / total);
  const remainders = w.map((x, i) => ({ i, r: (amount * x) % total, positive: x > 0n }));
  let left = Number(amount - floors.reduce((a, b) => a + b, 0n));
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i, positive } of remainders) {
    if (left === 0) break;
    if (!positive) continue;
    floors[i] = (floors[i] ?? 0n) + 1n;
    left--;
  }
  return floors.map((x) => sign * Number(x));
}
