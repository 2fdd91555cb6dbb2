// Boleto barcode (44 digits) and typeable line (47 digits) with real check digits. Pure.

/** Module-10 check digit of a typeable-line field. */
export function mod10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    let p = Number(digits[i]) * weight;
    if (p > 9) p = Math.floor(p / 10) + (p % 10);
    sum += p;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

/** Module-11 general check digit of the barcode (0, 10 and 11 become 1). */
export function mod11(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}

/** Due-date factor: days since 1997-10-07, restarting at 1000 on 2025-02-22. */
export function dueFactor(dueDate: string): string {
  const days = Math.round((Date.parse(`${dueDate}T00:00:00Z`) - Date.parse("1997-10-07T00:00:00Z")) / 86_400_000);
  const factor = days >= 10_000 ? ((days - 10_000) % 9_000) + 1_000 : Math.max(days, 0);
  return String(factor).padStart(4, "0");
}

export interface Boleto {
  barCode: string;
  identificationField: string;
}

/** Builds the barcode and typeable line for bank 461, a value, a due date and a 25-digit free field. */
export function buildBoleto(value: number, dueDate: string, freeField: string, bank = "461"): Boleto {
  const free = freeField.padStart(25, "0").slice(-25);
  const amount = String(Math.round(value * 100))
    .padStart(10, "0")
    .slice(-10);
  const tail = dueFactor(dueDate) + amount;
  const withoutDv = `${bank}9${tail}${free}`;
  const dv = mod11(withoutDv);
  const barCode = `${bank}9${dv}${tail}${free}`;
  const f1 = `${bank}9${free.slice(0, 5)}`;
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  const identificationField = `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${dv}${tail}`;
  return { barCode, identificationField };
}
