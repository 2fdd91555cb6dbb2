/**
 * Brazilian tax ids: CPF (individuals, 11 digits) and CNPJ (companies, 14 characters).
 *
 * CNPJ includes the alphanumeric format from Receita Federal (issued from July 2026): the
 * first 12 characters may be 0–9 or A–Z, the last two are numeric check digits, and each
 * character counts as (char code − 48) in the mod-11 sums, so '0'..'9' → 0..9, 'A' → 17, 'Z' → 42.
 * Purely numeric CNPJs compute exactly as before.
 */

export type TaxIdKind = "CPF" | "CNPJ";
export type PersonType = "FISICA" | "JURIDICA";

export type CpfCnpjResult = { ok: true; value: string; kind: TaxIdKind; personType: PersonType } | { ok: false; reason: string };

const CPF_LENGTH = 11;
const CNPJ_LENGTH = 14;
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/** Strips '.', '-', '/' and whitespace, and upper-cases (alphanumeric CNPJ letters). */
export function normalizeCpfCnpj(input: string): string {
  return input.replace(/[.\-/\s]/g, "").toUpperCase();
}

function charValue(ch: string): number {
  return ch.charCodeAt(0) - 48;
}

/** Mod-11 check digit shared by CPF and CNPJ: remainder < 2 → 0, else 11 − remainder. */
function checkDigit(body: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += charValue(body[i] ?? "0") * (weights[i] ?? 0);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

function cpfWeights(length: number): number[] {
  // 9 digits → 10..2, 10 digits → 11..2.
  return Array.from({ length }, (_, i) => length + 1 - i);
}

function allSameChar(value: string): boolean {
  return /^(.)\1*$/.test(value);
}

function validateCpf(value: string): CpfCnpjResult {
  if (!/^[0-9]{11}$/.test(value)) return { ok: false, reason: "CPF must contain only digits" };
  if (allSameChar(value)) return { ok: false, reason: "CPF must not be a repeated-digit sequence" };
  const d1 = checkDigit(value.slice(0, 9), cpfWeights(9));
  const d2 = checkDigit(value.slice(0, 10), cpfWeights(10));
  if (value.slice(9) !== `${d1}${d2}`) return { ok: false, reason: "CPF check digits are invalid" };
  return { ok: true, value, kind: "CPF", personType: "FISICA" };
}

function validateCnpj(value: string): CpfCnpjResult {
  if (!/^[0-9A-Z]{12}$/.test(value.slice(0, 12))) {
    return { ok: false, reason: "CNPJ must contain only letters A-Z and digits" };
  }
  if (!/^[0-9]{2}$/.test(value.slice(12))) return { ok: false, reason: "CNPJ check digits must be numeric" };
  if (allSameChar(value)) return { ok: false, reason: "CNPJ must not be a repeated-digit sequence" };
  const d1 = checkDigit(value.slice(0, 12), CNPJ_WEIGHTS_1);
  const d2 = checkDigit(value.slice(0, 13), CNPJ_WEIGHTS_2);
  if (value.slice(12) !== `${d1}${d2}`) return { ok: false, reason: "CNPJ check digits are invalid" };
  return { ok: true, value, kind: "CNPJ", personType: "JURIDICA" };
}

/**
 * Validates a CPF or CNPJ, punctuated or not. On success `value` is the normalised form
 * (no punctuation, upper-case), which is what should be stored and sent upstream.
 */
export function validateCpfCnpj(input: string): CpfCnpjResult {
  if (typeof input !== "string") return { ok: false, reason: "CPF/CNPJ must be a string" };
  const value = normalizeCpfCnpj(input);
  if (value.length === 0) return { ok: false, reason: "CPF/CNPJ is required" };
  if (value.length === CPF_LENGTH) return validateCpf(value);
  if (value.length === CNPJ_LENGTH) return validateCnpj(value);
  return {
    ok: false,
    reason: `CPF/CNPJ must have 11 (CPF) or 14 (CNPJ) characters, got ${value.length}`,
  };
}

/** The normalized id of a value the request schema already accepted (`CpfCnpj` in schemas.ts, where the rule lives). */
export function validatedTaxId(input: string): Extract<CpfCnpjResult, { ok: true }> {
  const result = validateCpfCnpj(input);
  if (!result.ok) throw new Error(`validatedTaxId: ${result.reason}`);
  return result;
}
