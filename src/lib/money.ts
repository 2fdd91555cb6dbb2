/**
 * Money amounts. Everything internal is an integer number of cents (BRL centavos) held in
 * a JS safe integer; floating point never touches a value. Parsing reads the digits of a
 * decimal string, and numbers from clients/upstream go through their shortest decimal
 * string (`String(n)`), so 129.9 is read as the text "129.9" — never multiplied by 100.
 */

/** Largest accepted amount: 100_000_000_000 cents = R$ 1.000.000.000,00 (one billion reais), inclusive. */
export const MAX_MONEY_CENTS = 100_000_000_000;

export type ParseMoneyResult = { ok: true; cents: number } | { ok: false; reason: string };

// Integer part without leading zeros ("0" itself is fine), then optionally 1–2 decimals.
const DECIMAL_RE = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,2}))?$/;
// More integer digits than this can only be above MAX_MONEY_CENTS (R$ 1000000000 has 10).
const MAX_INTEGER_DIGITS = String(MAX_MONEY_CENTS / 100).length;

function fail(reason: string): ParseMoneyResult {
  return { ok: false, reason };
}

function parseDecimalString(text: string): ParseMoneyResult {
  if (text.length === 0) return fail("amount must not be empty");
  if (/\s/.test(text)) return fail("amount must not contain whitespace");
  if (text.startsWith("-")) return fail("amount must not be negative");
  if (text.startsWith("+")) return fail("amount must not have a sign");
  if (/[eE]/.test(text)) return fail("amount must not use exponent notation");
  if (text.includes(",")) return fail("amount must use '.' as the decimal separator and no thousands separators");

  const match = DECIMAL_RE.exec(text);
  if (match === null) {
    if (/^[0-9]+\.[0-9]{3,}$/.test(text)) return fail("amount must have at most 2 decimal places");
    if (/^0[0-9]/.test(text)) return fail("amount must not have leading zeros");
    return fail('amount must be a decimal number like "129.90"');
  }

  const integerPart = match[1] ?? "0";
  const fraction = (match[2] ?? "").padEnd(2, "0");
  if (integerPart.length > MAX_INTEGER_DIGITS) return fail("amount exceeds the maximum of 1000000000.00");

  // ≤ 12 digits, so Number() of this digit string is exact.
  const cents = Number(integerPart + fraction);
  if (!Number.isSafeInteger(cents) || cents > MAX_MONEY_CENTS) {
    return fail("amount exceeds the maximum of 1000000000.00");
  }
  return { ok: true, cents };
}

/**
 * Parses a client-supplied amount: a decimal string ("129.90", "129.9", "129", "0.01") or a
 * JSON number (converted via `String(n)`; exponent forms, NaN and Infinity are rejected).
 * Zero is accepted here; callers that need a positive amount check `cents > 0`.
 */
export function parseMoney(input: unknown): ParseMoneyResult {
  if (typeof input === "number") {
    if (!Number.isFinite(input)) return fail("amount must be a finite number");
    if (input < 0) return fail("amount must not be negative");
    return parseDecimalString(String(input));
  }
  if (typeof input === "string") return parseDecimalString(input);
  return fail("amount must be a decimal string or a number");
}

function assertCents(cents: number, what: string): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`${what}: cents must be a safe integer, got ${String(cents)}`);
}

/** 12990 → "129.90", 5 → "0.05", -150 → "-1.50". Throws RangeError for non-integer cents. */
export function formatMoney(cents: number): string {
  assertCents(cents, "formatMoney");
  const sign = cents < 0 ? "-" : "";
  const digits = String(Math.abs(cents)).padStart(3, "0");
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * The JSON number the upstream expects: 12990 → 129.9. Built as a decimal string and
 * converted with Number(), which yields the double nearest to the exact decimal, so
 * `String(result)` reads back as the same 2-decimal text. Throws for negative or above-max.
 */
export function toUpstreamAmount(cents: number): number {
  assertCents(cents, "toUpstreamAmount");
  if (cents < 0 || cents > MAX_MONEY_CENTS) {
    throw new RangeError(`toUpstreamAmount: cents out of range 0..${MAX_MONEY_CENTS}, got ${cents}`);
  }
  return Number(formatMoney(cents));
}

/**
 * Cents from an upstream JSON number, via `String(n)` and the same digit parser.
 * No rounding is ever done: the upstream sends at most 2 decimals, so anything with more
 * (e.g. 10.005 or a float artefact like 0.30000000000000004), negatives, non-finite values
 * and amounts above MAX_MONEY_CENTS throw a RangeError rather than being silently rounded.
 */
export function fromUpstreamAmount(n: number): number {
  if (typeof n !== "number") throw new RangeError("fromUpstreamAmount: expected a number");
  const parsed = parseMoney(n);
  if (!parsed.ok) throw new RangeError(`fromUpstreamAmount: ${parsed.reason} (got ${String(n)})`);
  return parsed.cents;
}

/** A finite number's shortest decimal text without exponent: 1e-7 → "0.0000001", 1.5e21 → "1500000000000000000000". */
function plainDecimalText(n: number): string {
  const text = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign = "", int = "", frac = "", exp = "0"] = m;
  const digits = int + frac;
  const point = int.length + Number(exp);
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * An upstream money number (reais) in Ponte's wire format: 50 → "50.00", 49.01 → "49.01", -1.5 → "-1.50"
 * (balances and statement entries may be negative). Read from the number's shortest decimal text, never
 * multiplied: in range with at most 2 decimals it goes through integer cents (fromUpstreamAmount,
 * formatMoney). A value Ponte cannot write as whole centavos (1e-7, 10.005) or above MAX_MONEY_CENTS is
 * never rounded: its exact decimal text with at least 2 decimals ("0.0000001", "10.005"). Throws a
 * RangeError for NaN/Infinity (JSON cannot carry them).
 */
export function upstreamMoneyToDecimal(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`upstreamMoneyToDecimal: expected a finite number, got ${String(n)}`);
  const parsed = parseMoney(Math.abs(n));
  if (parsed.ok) return formatMoney(n < 0 ? -parsed.cents : parsed.cents);
  const text = plainDecimalText(n);
  const [int, frac = ""] = text.split(".");
  return `${int}.${frac.padEnd(2, "0")}`;
}
