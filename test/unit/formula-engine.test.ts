import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dec, evaluate, formatValue, parseFormula, unknownVariable, type Value } from "../../src/modules/analytics/formula-engine";
import { findCycle } from "../../src/modules/analytics/formula-graph";
import { FormulaLimitError } from "../../src/modules/analytics/formula-limits";

function parsed(expression: string) {
  const r = parseFormula(expression);
  if (!r.ok) throw new Error(`expected ${expression} to parse: ${r.error.message} at ${r.error.position}`);
  return r.formula;
}
function refused(expression: string) {
  const r = parseFormula(expression);
  if (r.ok) throw new Error(`expected ${expression} to be refused`);
  return r.error;
}
function run(expression: string, vars: Record<string, string | null> = {}): string | null {
  const f = parsed(expression);
  const v = evaluate(f.ast, (name) => {
    const x = vars[name];
    if (x === undefined) throw new Error(`no variable ${name}`);
    return x === null ? null : new Dec(x);
  });
  return v === null ? null : v.toFixed();
}

describe("formula grammar", () => {
  it("parses the PLATFORM.md example and lists its variables with their positions", () => {
    const f = parsed("(revenue - payment_fees - expenses) / revenue * 100");
    expect(f.variables).toEqual([
      { name: "revenue", position: 1 },
      { name: "payment_fees", position: 11 },
      { name: "expenses", position: 26 },
    ]);
  });

  it("reads expenses.<categoryKey> as one variable", () => {
    expect(parsed("revenue - expenses.infrastructure").variables).toEqual([
      { name: "revenue", position: 0 },
      { name: "expenses.infrastructure", position: 10 },
    ]);
  });

  it.each([
    ["revenue + ", 10, /syntax error/],
    ["(revenue", 8, /syntax error/],
    ["revenue.total", 7, /member access/],
    ["a[0]", 1, /member access/],
    ["expenses.cloud.aws", 14, /member access/],
    ["revenue % 2", 8, /operator '%' is not allowed/],
    ["revenue && 1", 8, /operator '&&' is not allowed/],
    ["revenue > 1", 8, /only allowed as the condition of if/],
    ["sqrt(revenue)", 0, /unknown function 'sqrt'/],
    ["Math.max(1, 2)", 0, /only min, max, abs, round and if/],
    ["'abc'", 0, /a string is not allowed/],
    ["true", 0, /not allowed/],
    ["revenue ? 1 : 2", 8, /\? :/],
    ["1, 2", 3, /one expression/],
    ["round(revenue)", 0, /takes 2 arguments/],
    ["round(revenue, 1.5)", 15, /digits must be a whole number/],
    ["round(revenue, 11)", 15, /digits must be a whole number/],
    ["if(revenue, 1, 2)", 3, /must be a comparison/],
    ["abs(1, 2)", 0, /takes 1 argument/],
    ["min()", 0, /at least 1/],
    ["!revenue", 0, /operator '!'/],
    ["", 0, /empty/],
    ["x = 1", 2, /./],
    ["1.2.3", 3, /./],
    ["revenue revenue", 8, /one expression/],
  ] as const)("refuses %j at position %d", (expression, position, message) => {
    const e = refused(expression);
    expect(e.position).toBe(position);
    expect(e.message).toMatch(message);
  });

  it("names an unknown variable and where it is", () => {
    const f = parsed("revenue - expenses.nope + mystery");
    const known = new Set(["revenue"]);
    expect(unknownVariable(f, (n) => known.has(n))).toEqual({ position: 10, message: "unknown cost category key 'expenses.nope'" });
    known.add("expenses.nope");
    expect(unknownVariable(f, (n) => known.has(n))).toEqual({
      position: 26,
      message: "unknown variable (not a metric or formula key) 'mystery'",
    });
    known.add("mystery");
    expect(unknownVariable(f, (n) => known.has(n))).toBeNull();
  });

  it("never throws on arbitrary input: parses or refuses with a position inside the text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        const r = parseFormula(s);
        if (!r.ok) {
          expect(r.error.position).toBeGreaterThanOrEqual(0);
          expect(r.error.position).toBeLessThanOrEqual(Math.max(s.length, 1));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("formula evaluation (exact decimals)", () => {
  it("is exact where floating point is not", () => {
    expect(run("0.1 + 0.2")).toBe("0.3");
    expect(run("1e3 + .5")).toBe("1000.5");
    expect(run("a - b", { a: "250.00", b: "249.99" })).toBe("0.01");
    expect(run("a * 3", { a: "0.1" })).toBe("0.3");
  });

  it("computes the margin example", () => {
    expect(run("(revenue - payment_fees - expenses) / revenue * 100", { revenue: "250.00", payment_fees: "2.49", expenses: "100" })).toBe(
      "59.004",
    );
  });

  it("division by zero is null, and null propagates (never Infinity or NaN)", () => {
    expect(run("a / b", { a: "1", b: "0" })).toBeNull();
    expect(run("a / (b - b) + 1", { a: "1", b: "5" })).toBeNull();
    expect(run("max(1, a / 0)", { a: "1" })).toBeNull();
    expect(run("if(a / 0 > 1, 1, 2)", { a: "1" })).toBeNull();
    expect(run("a + b", { a: "1", b: null })).toBeNull();
  });

  it("functions", () => {
    expect(run("min(3, -2, 5)")).toBe("-2");
    expect(run("max(3, -2, 5)")).toBe("5");
    expect(run("abs(-4.5)")).toBe("4.5");
    expect(run("round(2.345, 2)")).toBe("2.35");
    expect(run("round(-2.5, 0)")).toBe("-3");
    expect(run("if(a >= 10, a * 2, -a)", { a: "10" })).toBe("20");
    expect(run("if(a != 10, 1, 0)", { a: "10" })).toBe("0");
    expect(run("if(a < b, 1, 0) + if(a <= a, 1, 0) + if(a == a, 1, 0)", { a: "1", b: "2" })).toBe("3");
    expect(run("--a", { a: "2" })).toBe("2");
    expect(run("-(a - 5) * 2", { a: "2" })).toBe("6");
  });

  it("respects precedence: * and / before + and -", () => {
    expect(run("2 + 3 * 4 - 8 / 2")).toBe("10");
    expect(run("(2 + 3) * 4")).toBe("20");
  });

  it("sums of cents stay exact (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -10_000_000_00, max: 10_000_000_00 }), { minLength: 1, maxLength: 20 }), (cents) => {
        const vars: Record<string, string> = {};
        cents.forEach((c, i) => {
          vars[`v${i}`] = new Dec(c).div(100).toFixed(2);
        });
        const expression = cents.map((_, i) => `v${i}`).join(" + ");
        const expected = new Dec(cents.reduce((a, b) => a + b, 0)).div(100);
        expect(run(expression, vars)).toBe(expected.toFixed());
      }),
    );
  });

  it("formats BRL to the cent and other units to at most 6 decimals", () => {
    const v = (s: string): Value => new Dec(s);
    expect(formatValue(v("59.004"), "BRL")).toBe("59.00");
    expect(formatValue(v("2.005"), "BRL")).toBe("2.00");
    expect(formatValue(new Dec(1).div(3), "PERCENT")).toBe("0.333333");
    expect(formatValue(new Dec(0).neg(), "COUNT")).toBe("0");
    expect(formatValue(null, "BRL")).toBeNull();
  });
});

describe("cycles between formulas", () => {
  it("finds a cycle and its path", () => {
    const deps: Record<string, string[]> = { a: ["b"], b: ["c"], c: ["a"], d: ["a"] };
    expect(findCycle("a", (k) => deps[k] ?? [])).toEqual(["a", "b", "c", "a"]);
    expect(findCycle("d", (k) => deps[k] ?? [])).toEqual(["a", "b", "c", "a"]);
  });
  it("a self reference is a cycle; a diamond is not", () => {
    expect(findCycle("a", (k) => (k === "a" ? ["a"] : []))).toEqual(["a", "a"]);
    const diamond: Record<string, string[]> = { a: ["b", "c"], b: ["d"], c: ["d"], d: [] };
    expect(findCycle("a", (k) => diamond[k] ?? [])).toBeNull();
  });
});

describe("formula bounds (docs/security.md → Limits)", () => {
  it("refuses literals past ±1e15, 20 significant digits or 20 decimals, at the literal's position", () => {
    expect(refused("1 + 1e200000")).toEqual({ position: 4, message: "'1e200000' is out of bounds: numbers must lie within ±1e15" });
    expect(refused("1e999999999").message).toContain("±1e15");
    expect(refused("1000000000000000.1").message).toContain("±1e15");
    expect(refused("0.000000000000000000001").message).toContain("at most 20 decimals");
    expect(refused("1.23456789012345678901").message).toContain("at most 20 significant digits");
    expect(parsed("1e15 + 0.00000000000000000001 + 12345678901234.567890").variables).toEqual([]);
  });

  it("counts terms and refuses an expression of more than 100", () => {
    // +, min(), a, 1, *, unary minus, b, 2
    expect(parsed("min(a, 1) + -b * 2").terms).toBe(8);
    const ones = (n: number) => Array.from({ length: n }, () => "1").join("+");
    expect(parsed(ones(50)).terms).toBe(99);
    expect(refused(ones(51)).message).toBe("an expression may have at most 100 terms (numbers, variables, operators, calls)");
  });

  it("a value past ±1e15 while evaluating throws FormulaLimitError, quickly; products and quotients keep 20 decimals", () => {
    const started = Date.now();
    expect(() => evaluate(parsed("(1e15/7)*(1e15/7)").ast, () => null)).toThrow(FormulaLimitError);
    expect(() => evaluate(parsed("x * 1").ast, () => new Dec("1e16"))).toThrow("past the bound of ±1e15");
    expect(Date.now() - started).toBeLessThan(500);
    expect(evaluate(parsed("1 / 3 * 3").ast, () => null)?.toFixed()).toBe("0.99999999999999999999");
    expect(evaluate(parsed("0.0000000001 * 0.0000000001 * 0.1").ast, () => null)?.toFixed()).toBe("0");
  });
});
