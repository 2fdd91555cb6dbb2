/**
 * Exchange rates (PLATFORM.md, expenses and aws-connections): BRL per unit of a foreign currency,
 * held as an exact scaled integer — micros, six decimals — and applied with BigInt, so converting
 * an amount never touches floating point. The one place the BRL value of a foreign amount is
 * computed, and bounded like every amount: the BRL value may not pass MAX_MONEY_CENTS (R$ 1 billion).
 */
import { MAX_MONEY_CENTS } from "./money";

/** Decimals an exchange rate may carry ("5.123456"). */
export const RATE_DECIMALS = 6;
const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS);
/** Largest accepted rate: 1,000,000.000000 BRL per unit. */
export const MAX_RATE_MICROS = 1_000_000 * 1_000_000;

const RATE_RE = /^(0|[1-9][0-9]{0,6})(?:\.([0-9]{1,6}))?$/;

export type ParseRateResult = { ok: true; micros: number } | { ok: false; reason: string };

/** "5.4321" → 5_432_100 micros. A decimal string (or a JSON number via its shortest string), > 0, ≤ 6 decimals. */
export function parseExchangeRate(input: unknown): ParseRateResult {
  const text = typeof input === "number" && Number.isFinite(input) ? String(input) : input;
  if (typeof text !== "string") return { ok: false, reason: "exchangeRate must be a decimal string" };
  const match = RATE_RE.exec(text);
  if (match === null) {
    if (/^[0-9]+\.[0-9]{7,}$/.test(text)) return { ok: false, reason: `exchangeRate must have at most ${RATE_DECIMALS} decimal places` };
    return { ok: false, reason: 'exchangeRate must be a decimal number like "5.4321"' };
  }
  const micros = Number(match[1]) * 1_000_000 + Number((match[2] ?? "").padEnd(RATE_DECIMALS, "0"));
  if (micros <= 0) return { ok: false, reason: "exchangeRate must be greater than zero" };
  if (micros > MAX_RATE_MICROS) return { ok: false, reason: "exchangeRate exceeds the maximum of 1000000" };
  return { ok: true, micros };
}

/** 5_432_100 → "5.432100". */
export function formatExchangeRate(micros: number): string {
  const whole = Math.trunc(micros / 1_000_000);
  const fraction = String(micros % 1_000_000).padStart(RATE_DECIMALS, "0");
  return `${whole}.${fraction}`;
}

/**
 * amount (cents of the foreign currency) × rate → BRL cents, rounded half-even (banker's rounding,
 * so a long series of conversions does not drift upwards). Exact for any safe-integer inputs; null when
 * the result's magnitude passes MAX_MONEY_CENTS (the caller names the field in its 400).
 */
export function toBrlCents(amountCents: number, rateMicros: number): number | null {
  const product = BigInt(amountCents) * BigInt(rateMicros);
  const negative = product < 0n;
  const abs = negative ? -product : product;
  let quotient = abs / RATE_SCALE;
  const remainder = abs % RATE_SCALE;
  const twice = remainder * 2n;
  if (twice > RATE_SCALE || (twice === RATE_SCALE && quotient % 2n === 1n)) quotient += 1n;
  if (quotient > BigInt(MAX_MONEY_CENTS)) return null;
  return Number(negative ? -quotient : quotient);
}
