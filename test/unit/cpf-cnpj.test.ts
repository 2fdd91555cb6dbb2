import { describe, expect, it } from "vitest";
import { normalizeCpfCnpj, validateCpfCnpj } from "../../src/modules/customers/cpf-cnpj";

function reasonOf(input: string): string {
  const r = validateCpfCnpj(input);
  if (r.ok) throw new Error(`expected ${input} to be rejected`);
  return r.reason;
}

describe("normalizeCpfCnpj", () => {
  it.each([
    ["529.982.247-25", "52998224725"],
    ["11.222.333/0001-81", "11222333000181"],
    [" 12.abc.345/01de-35 ", "12ABC34501DE35"],
    ["529 982 247 25", "52998224725"],
    ["529\t982.247-25\n", "52998224725"],
    ["", ""],
  ])("%j → %j", (input, expected) => {
    expect(normalizeCpfCnpj(input)).toBe(expected);
  });

  it("keeps characters it does not know about (so validation can reject them)", () => {
    expect(normalizeCpfCnpj("529_982_247_25")).toBe("529_982_247_25");
  });
});

describe("validateCpfCnpj — CPF", () => {
  it.each([
    ["529.982.247-25", "52998224725"],
    ["111.444.777-35", "11144477735"],
    ["52998224725", "52998224725"],
    // 1..9 weighted 10..2 = 210, 210 % 11 = 1 → first digit 0; second: 255 % 11 = 2 → 9.
    ["123.456.789-09", "12345678909"],
  ])("accepts %s", (input, value) => {
    expect(validateCpfCnpj(input)).toEqual({ ok: true, value, kind: "CPF", personType: "FISICA" });
  });

  it.each(["529.982.247-24", "529.982.247-15", "111.444.777-53", "123.456.789-00", "12345678990"])(
    "rejects wrong check digits %s",
    (input) => {
      expect(reasonOf(input)).toBe("CPF check digits are invalid");
    },
  );

  it("rejects every single-digit change of a valid CPF", () => {
    const valid = "52998224725";
    for (let i = 0; i < valid.length; i++) {
      for (let d = 0; d <= 9; d++) {
        const mutated = valid.slice(0, i) + String(d) + valid.slice(i + 1);
        if (mutated === valid) continue;
        expect(validateCpfCnpj(mutated).ok).toBe(false);
      }
    }
  });

  it.each(Array.from({ length: 10 }, (_, d) => String(d).repeat(11)))("rejects repeated digits %s", (input) => {
    // Several of these (e.g. 000.000.000-00) pass the mod-11 arithmetic, so the rule matters.
    expect(reasonOf(input)).toMatch(/repeated/);
  });

  it("rejects letters in a CPF", () => {
    expect(reasonOf("5299822472A")).toBe("CPF must contain only digits");
  });
});

describe("validateCpfCnpj — CNPJ", () => {
  it.each([
    ["11.222.333/0001-81", "11222333000181"],
    ["45.723.174/0001-10", "45723174000110"],
    ["11.444.777/0001-61", "11444777000161"],
    ["11222333000181", "11222333000181"],
  ])("accepts numeric %s", (input, value) => {
    expect(validateCpfCnpj(input)).toEqual({ ok: true, value, kind: "CNPJ", personType: "JURIDICA" });
  });

  it("accepts the Receita Federal alphanumeric example 12.ABC.345/01DE-35", () => {
    // Values = char code − 48: 1,2,A=17,B=18,C=19,3,4,5,0,1,D=20,E=21.
    // Weights 5,4,3,2,9,8,7,6,5,4,3,2 → sum 459, 459 % 11 = 8 → first digit 11 − 8 = 3.
    // Weights 6,5,4,3,2,9,8,7,6,5,4,3,2 over the 12 chars + 3 → sum 424, 424 % 11 = 6 → 5.
    expect(validateCpfCnpj("12.ABC.345/01DE-35")).toEqual({
      ok: true,
      value: "12ABC34501DE35",
      kind: "CNPJ",
      personType: "JURIDICA",
    });
  });

  it("accepts an all-letter alphanumeric CNPJ computed by hand, in lower case", () => {
    // A..L = 17..28. First sum 1290, 1290 % 11 = 3 → 8. Second sum 1408, 1408 % 11 = 0 → 0.
    expect(validateCpfCnpj("ab.cde.fgh/ijkl-80")).toEqual({
      ok: true,
      value: "ABCDEFGHIJKL80",
      kind: "CNPJ",
      personType: "JURIDICA",
    });
    expect(validateCpfCnpj("12.abc.345/01de-35").ok).toBe(true);
  });

  it.each(["11.222.333/0001-82", "11.222.333/0001-18", "45.723.174/0001-01", "12.ABC.345/01DE-53", "12.ABD.345/01DE-35"])(
    "rejects wrong check digits %s",
    (input) => {
      expect(reasonOf(input)).toBe("CNPJ check digits are invalid");
    },
  );

  it("rejects every single-character change whose value differs by a non-multiple of 11", () => {
    const valid = "12ABC34501DE35";
    const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let checked = 0;
    for (let i = 0; i < valid.length; i++) {
      for (const ch of i < 12 ? alphabet : "0123456789") {
        const mutated = valid.slice(0, i) + ch + valid.slice(i + 1);
        const delta = ch.charCodeAt(0) - valid.charCodeAt(i);
        if (delta === 0 || (i < 12 && delta % 11 === 0)) continue;
        expect(validateCpfCnpj(mutated).ok).toBe(false);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(350);
  });

  it("inherits the official algorithm's blind spot: substituting a char worth ±11 keeps the digits valid", () => {
    // 'A' (17) → '6' (6): the weighted sum changes by 11 × weight, invisible mod 11.
    expect(validateCpfCnpj("126BC34501DE35").ok).toBe(true);
  });

  it.each(Array.from({ length: 10 }, (_, d) => String(d).repeat(14)))("rejects repeated digits %s", (input) => {
    expect(reasonOf(input)).toMatch(/repeated/);
  });

  it("rejects letters in the check digit positions", () => {
    expect(reasonOf("12ABC34501DE3A")).toBe("CNPJ check digits must be numeric");
  });

  it("rejects characters outside A–Z / 0–9", () => {
    expect(reasonOf("12ÁBC34501DE35")).toMatch(/only letters A-Z and digits/);
    expect(reasonOf("12_BC34501DE35")).toMatch(/only letters A-Z and digits/);
  });
});

describe("validateCpfCnpj — length", () => {
  it.each(["", "   ", "...-/"])("rejects empty %j", (input) => {
    expect(reasonOf(input)).toBe("CPF/CNPJ is required");
  });

  it.each(["5299822472", "529982247250", "1122233300018", "112223330001810", "1"])("rejects length of %s", (input) => {
    expect(reasonOf(input)).toMatch(/11 \(CPF\) or 14 \(CNPJ\)/);
  });
});
