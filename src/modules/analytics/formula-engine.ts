// The formula language (PLATFORM.md "formulas"), pure: parse with jsep, check against the grammar, and
// evaluate with exact decimals (big.js). Nothing here compiles to JS (Workers forbid eval).
//
// Grammar: numbers; variables (a metric key, `expenses.<categoryKey>`, another formula's key);
// + - * / ; unary minus; parentheses; min(a, b, …), max(a, b, …), abs(x), round(x, digits),
// if(cond, a, b) where cond is one comparison (< <= > >= == !=) of two values. Anything else is refused
// with the 0-based position and the reason. Division by zero (and anything computed from it) is null.
// Bounds on literals, values and terms: ./formula-limits.ts.
import Big from "big.js";
import jsep from "jsep";
import { bounded, FORMULA_LIMITS, literalProblem } from "./formula-limits";

/** big.js with our settings, so the global constructor stays untouched. */
export const Dec = Big();
Dec.DP = 20;
Dec.RM = Dec.roundHalfEven;
Dec.NE = -30;
Dec.PE = 40;
export type Decimal = Big;

export interface FormulaError {
  position: number;
  message: string;
}

type CompareOp = "<" | "<=" | ">" | ">=" | "==" | "!=";
type ArithOp = "+" | "-" | "*" | "/";
export type FormulaNode =
  | { kind: "number"; value: Decimal }
  | { kind: "variable"; name: string; position: number }
  | { kind: "negate"; argument: FormulaNode }
  | { kind: "binary"; op: ArithOp; left: FormulaNode; right: FormulaNode }
  | { kind: "minmax"; fn: "min" | "max"; args: FormulaNode[] }
  | { kind: "abs"; argument: FormulaNode }
  | { kind: "round"; argument: FormulaNode; digits: number }
  | { kind: "if"; op: CompareOp; left: FormulaNode; right: FormulaNode; whenTrue: FormulaNode; whenFalse: FormulaNode };

export interface ParsedFormula {
  ast: FormulaNode;
  /** Every variable name, once, in order of first use, with that first position. */
  variables: { name: string; position: number }[];
  /** How many terms (numbers, variables, operators, calls) the expression has: its evaluation work. */
  terms: number;
}

export const FUNCTIONS = ["min", "max", "abs", "round", "if"] as const;
const COMPARE_OPS: readonly string[] = ["<", "<=", ">", ">=", "==", "!="];
const ARITH_OPS: readonly string[] = ["+", "-", "*", "/"];
export const MAX_EXPRESSION_LENGTH = 2000;
const MAX_DEPTH = 64;
const MAX_ROUND_DIGITS = 10;

// Positions: jsep's nodes carry none, so two hooks note where each token starts and ends (a stack,
// since tokens nest: a group holds tokens).
type Positioned = jsep.Expression & { start?: number; end?: number };
let starts: number[] = [];
/** Terms converted so far in the expression being parsed (reset by parseFormula). */
let terms = 0;
jsep.hooks.add("gobble-token", function (this: jsep.HookScope, env: { node?: jsep.Expression }) {
  const code = this.code;
  starts.push(this.index);
  // jsep returns numbers without its after-token hook; parse them here so they get positions too.
  if ((code >= 48 && code <= 57) || code === 46) {
    const node = this.gobbleNumericLiteral();
    if (node) env.node = node;
  }
});
jsep.hooks.add("after-token", function (this: jsep.HookScope, env: { node?: jsep.Expression }) {
  const start = starts.pop();
  const node = env.node as Positioned | undefined;
  if (node && start !== undefined && node.start === undefined) {
    node.start = start;
    node.end = this.index;
  }
});

class Refusal extends Error {
  constructor(
    readonly position: number,
    message: string,
  ) {
    super(message);
  }
}

function startOf(node: jsep.Expression, fallback: number): number {
  const start = (node as Positioned).start;
  if (typeof start === "number") return start;
  if (node.type === "BinaryExpression") return startOf((node as jsep.BinaryExpression).left, fallback);
  return fallback;
}
function endOf(node: jsep.Expression, fallback: number): number {
  const end = (node as Positioned).end;
  if (typeof end === "number") return end;
  if (node.type === "BinaryExpression") return endOf((node as jsep.BinaryExpression).right, fallback);
  return fallback;
}

/** Where `text` first appears at or after `from` (the operator between two operands). */
function find(source: string, text: string, from: number): number {
  const at = source.indexOf(text, from);
  return at < 0 ? from : at;
}

function describe(node: jsep.Expression): string {
  switch (node.type) {
    case "Literal":
      return typeof (node as jsep.Literal).value === "string" ? "a string" : `the literal ${(node as jsep.Literal).raw}`;
    case "ArrayExpression":
      return "an array";
    case "ThisExpression":
      return "`this`";
    case "ConditionalExpression":
      return "the `? :` operator (use if(cond, a, b))";
    case "Compound":
    case "SequenceExpression":
      return "more than one expression";
    default:
      return node.type;
  }
}

function convert(source: string, node: jsep.Expression, depth: number, from: number): FormulaNode {
  if (depth > MAX_DEPTH) throw new Refusal(startOf(node, from), `expression nested more than ${MAX_DEPTH} deep`);
  const at = startOf(node, from);
  if (++terms > FORMULA_LIMITS.maxTermsPerExpression)
    throw new Refusal(
      at,
      `an expression may have at most ${FORMULA_LIMITS.maxTermsPerExpression} terms (numbers, variables, operators, calls)`,
    );
  switch (node.type) {
    case "Literal": {
      const lit = node as jsep.Literal;
      if (typeof lit.value !== "number") throw new Refusal(at, `${describe(node)} is not allowed; only numbers`);
      let value: Decimal;
      try {
        value = new Dec(lit.raw);
      } catch {
        throw new Refusal(at, `'${lit.raw}' is not a number`);
      }
      const problem = literalProblem(value);
      if (problem) throw new Refusal(at, `'${lit.raw.length > 40 ? `${lit.raw.slice(0, 40)}…` : lit.raw}' is out of bounds: ${problem}`);
      return { kind: "number", value };
    }
    case "Identifier":
      return { kind: "variable", name: (node as jsep.Identifier).name, position: at };
    case "MemberExpression": {
      const m = node as jsep.MemberExpression;
      if (
        !m.computed &&
        m.object.type === "Identifier" &&
        (m.object as jsep.Identifier).name === "expenses" &&
        m.property.type === "Identifier"
      ) {
        return { kind: "variable", name: `expenses.${(m.property as jsep.Identifier).name}`, position: at };
      }
      const end = (m as Positioned).end;
      const dot =
        !m.computed && m.property.type === "Identifier" && typeof end === "number"
          ? end - (m.property as jsep.Identifier).name.length - 1
          : find(source, m.computed ? "[" : ".", endOf(m.object, at));
      throw new Refusal(dot, "member access is not allowed (only expenses.<categoryKey>)");
    }
    case "UnaryExpression": {
      const u = node as jsep.UnaryExpression;
      if (u.operator === "-") return { kind: "negate", argument: convert(source, u.argument, depth + 1, at) };
      if (u.operator === "+") return convert(source, u.argument, depth + 1, at);
      throw new Refusal(at, `operator '${u.operator}' is not allowed`);
    }
    case "BinaryExpression": {
      const b = node as jsep.BinaryExpression;
      const opAt = find(source, b.operator, endOf(b.left, at));
      if (COMPARE_OPS.includes(b.operator)) {
        throw new Refusal(opAt, `comparison '${b.operator}' is only allowed as the condition of if(cond, a, b)`);
      }
      if (!ARITH_OPS.includes(b.operator)) throw new Refusal(opAt, `operator '${b.operator}' is not allowed (use + - * /)`);
      return {
        kind: "binary",
        op: b.operator as ArithOp,
        left: convert(source, b.left, depth + 1, at),
        right: convert(source, b.right, depth + 1, opAt + b.operator.length),
      };
    }
    case "CallExpression":
      return convertCall(source, node as jsep.CallExpression, depth, at);
    case "ConditionalExpression": {
      const q = find(source, "?", endOf((node as jsep.ConditionalExpression).test, at));
      throw new Refusal(q, `${describe(node)} is not allowed`);
    }
    case "Compound": {
      const second = (node as jsep.Compound).body[1];
      throw new Refusal(second ? startOf(second, at) : at, "one expression expected; found more than one");
    }
    default:
      throw new Refusal(at, `${describe(node)} is not allowed`);
  }
}

function convertCall(source: string, call: jsep.CallExpression, depth: number, at: number): FormulaNode {
  if (call.callee.type !== "Identifier") throw new Refusal(at, "only min, max, abs, round and if may be called");
  const fn = (call.callee as jsep.Identifier).name;
  const args = call.arguments;
  const arity = (n: number) => {
    if (args.length !== n) throw new Refusal(at, `${fn}() takes ${n} argument${n === 1 ? "" : "s"}, got ${args.length}`);
  };
  const value = (i: number) => convert(source, args[i] as jsep.Expression, depth + 1, at);
  switch (fn) {
    case "min":
    case "max":
      if (args.length < 1) throw new Refusal(at, `${fn}() takes at least 1 argument`);
      return { kind: "minmax", fn, args: args.map((_, i) => value(i)) };
    case "abs":
      arity(1);
      return { kind: "abs", argument: value(0) };
    case "round": {
      arity(2);
      const d = args[1] as jsep.Literal;
      const digits = d.type === "Literal" && typeof d.value === "number" ? d.value : Number.NaN;
      if (!Number.isInteger(digits) || digits < 0 || digits > MAX_ROUND_DIGITS) {
        throw new Refusal(startOf(d, at), `round()'s digits must be a whole number from 0 to ${MAX_ROUND_DIGITS}`);
      }
      return { kind: "round", argument: value(0), digits };
    }
    case "if": {
      arity(3);
      const cond = args[0] as jsep.BinaryExpression;
      if (cond.type !== "BinaryExpression" || !COMPARE_OPS.includes(cond.operator)) {
        throw new Refusal(startOf(cond, at), "if()'s first argument must be a comparison (< <= > >= == !=)");
      }
      const opAt = find(source, cond.operator, endOf(cond.left, at));
      return {
        kind: "if",
        op: cond.operator as CompareOp,
        left: convert(source, cond.left, depth + 1, at),
        right: convert(source, cond.right, depth + 1, opAt + cond.operator.length),
        whenTrue: value(1),
        whenFalse: value(2),
      };
    }
    default:
      throw new Refusal(at, `unknown function '${fn}' (allowed: ${FUNCTIONS.join(", ")})`);
  }
}

function collect(node: FormulaNode, out: Map<string, number>): void {
  switch (node.kind) {
    case "number":
      return;
    case "variable":
      if (!out.has(node.name)) out.set(node.name, node.position);
      return;
    case "negate":
    case "abs":
    case "round":
      collect(node.argument, out);
      return;
    case "binary":
      collect(node.left, out);
      collect(node.right, out);
      return;
    case "minmax":
      for (const a of node.args) collect(a, out);
      return;
    case "if":
      for (const n of [node.left, node.right, node.whenTrue, node.whenFalse]) collect(n, out);
      return;
  }
}

/** Parses and checks the grammar (not yet whether the variables exist: see `unknownVariables`). */
export function parseFormula(expression: string): { ok: true; formula: ParsedFormula } | { ok: false; error: FormulaError } {
  if (expression.trim() === "") return { ok: false, error: { position: 0, message: "the expression is empty" } };
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    return {
      ok: false,
      error: { position: MAX_EXPRESSION_LENGTH, message: `the expression is longer than ${MAX_EXPRESSION_LENGTH} characters` },
    };
  }
  let tree: jsep.Expression;
  starts = [];
  terms = 0;
  try {
    tree = jsep(expression);
  } catch (err) {
    const e = err as { index?: number; description?: string; message?: string };
    const position = typeof e.index === "number" ? Math.min(Math.max(e.index, 0), expression.length) : 0;
    return { ok: false, error: { position, message: `syntax error: ${e.description ?? e.message ?? "unexpected input"}` } };
  } finally {
    starts = [];
  }
  try {
    const ast = convert(expression, tree, 0, 0);
    const vars = new Map<string, number>();
    collect(ast, vars);
    const variables = [...vars].map(([name, position]) => ({ name, position }));
    return { ok: true, formula: { ast, variables, terms } };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, error: { position: err.position, message: err.message } };
    throw err;
  }
}

/** The first variable that `isKnown` refuses, as an error naming it and its position. */
export function unknownVariable(formula: ParsedFormula, isKnown: (name: string) => boolean): FormulaError | null {
  for (const v of formula.variables) {
    if (!isKnown(v.name)) {
      const what = v.name.startsWith("expenses.") ? "cost category key" : "variable (not a metric or formula key)";
      return { position: v.position, message: `unknown ${what} '${v.name}'` };
    }
  }
  return null;
}

export type Value = Decimal | null;

/**
 * Evaluates with decimals rounded to FORMULA_LIMITS.maxDecimals; null when a variable is null or a division by zero
 * happens. Throws FormulaLimitError when a value (a variable's too) passes ±FORMULA_LIMITS.maxMagnitude.
 */
export function evaluate(node: FormulaNode, resolve: (name: string) => Value): Value {
  const v = evaluateUnbounded(node, resolve);
  return v === null ? null : bounded(v);
}

function evaluateUnbounded(node: FormulaNode, resolve: (name: string) => Value): Value {
  switch (node.kind) {
    case "number":
      return node.value;
    case "variable":
      return resolve(node.name);
    case "negate": {
      const v = evaluate(node.argument, resolve);
      return v === null ? null : v.neg();
    }
    case "abs": {
      const v = evaluate(node.argument, resolve);
      return v === null ? null : v.abs();
    }
    case "round": {
      const v = evaluate(node.argument, resolve);
      return v === null ? null : v.round(node.digits, Dec.roundHalfUp);
    }
    case "binary": {
      const l = evaluate(node.left, resolve);
      const r = evaluate(node.right, resolve);
      if (l === null || r === null) return null;
      switch (node.op) {
        case "+":
          return l.plus(r);
        case "-":
          return l.minus(r);
        case "*":
          return l.times(r);
        case "/":
          return r.eq(0) ? null : l.div(r);
      }
      return null;
    }
    case "minmax": {
      let best: Decimal | null = null;
      for (const a of node.args) {
        const v = evaluate(a, resolve);
        if (v === null) return null;
        if (best === null || (node.fn === "min" ? v.lt(best) : v.gt(best))) best = v;
      }
      return best;
    }
    case "if": {
      const l = evaluate(node.left, resolve);
      const r = evaluate(node.right, resolve);
      if (l === null || r === null) return null;
      const c = l.cmp(r);
      const holds =
        node.op === "<"
          ? c < 0
          : node.op === "<="
            ? c <= 0
            : node.op === ">"
              ? c > 0
              : node.op === ">="
                ? c >= 0
                : node.op === "=="
                  ? c === 0
                  : c !== 0;
      return evaluate(holds ? node.whenTrue : node.whenFalse, resolve);
    }
  }
}

/** A result as a wire string: 2 decimals for BRL, otherwise up to 6 (half-even), no exponent. */
export function formatValue(value: Value, unit: "BRL" | "COUNT" | "PERCENT"): string | null {
  if (value === null) return null;
  if (value.eq(0)) value = new Dec(0); // never "-0"
  return unit === "BRL" ? value.toFixed(2, Dec.roundHalfEven) : value.round(6, Dec.roundHalfEven).toFixed();
}
