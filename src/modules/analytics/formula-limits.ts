// The bounds of the formula language (docs/security.md "Limits"): what a finance formula can need, so that no
// expression or stored data can make one request compute for seconds or answer megabytes.
// - numbers: a literal and every value computed from it (each intermediate, each result, each metric read) lies
//   within ±1e15; a literal has at most 20 significant digits and 20 decimals; every product and quotient is
//   rounded (half-even) to 20 decimals, so a value never holds more than 35 digits;
// - work: at most 100 terms (numbers, variables, operators, calls) per expression; at most 400 in a formula and
//   every formula it uses; a series evaluates at most 100,000 terms (terms × (points + total)).
// Literals and structure are refused when saved or validated (400); a value past the bound, or a series past the
// work bound, is refused when evaluated (422 LIMIT_EXCEEDED), never a 500 or a huge answer.
import Big from "big.js";

export const FORMULA_LIMITS = {
  maxMagnitude: "1e15",
  maxSignificantDigits: 20,
  maxDecimals: 20,
  maxTermsPerExpression: 100,
  maxTermsWithDependencies: 400,
  maxTermsPerSeries: 100_000,
} as const;

const MAX_MAGNITUDE = new Big(FORMULA_LIMITS.maxMagnitude);
/** big.js's half-even rounding mode (Big.roundHalfEven). */
const HALF_EVEN = 2;

/** Why a literal is out of bounds (a phrase for the 400), or null. */
export function literalProblem(value: Big): string | null {
  if (value.abs().gt(MAX_MAGNITUDE)) return `numbers must lie within ±${FORMULA_LIMITS.maxMagnitude}`;
  // big.js: c holds the significant digits, e the exponent of the first one.
  const digits = value.c.length;
  if (digits > FORMULA_LIMITS.maxSignificantDigits)
    return `numbers may have at most ${FORMULA_LIMITS.maxSignificantDigits} significant digits`;
  if (digits - 1 - value.e > FORMULA_LIMITS.maxDecimals) return `numbers may have at most ${FORMULA_LIMITS.maxDecimals} decimals`;
  return null;
}

/** A computed value past the magnitude bound; the service answers 422 LIMIT_EXCEEDED with this message. */
export class FormulaLimitError extends Error {}

/** A computed value within bounds: rounded to maxDecimals, refused past ±maxMagnitude. */
export function bounded<T extends Big>(value: T): T {
  if (value.abs().gt(MAX_MAGNITUDE))
    throw new FormulaLimitError(`a value reached ${value.toExponential(3)}, past the bound of ±${FORMULA_LIMITS.maxMagnitude}`);
  return value.round(FORMULA_LIMITS.maxDecimals, HALF_EVEN) as T;
}
