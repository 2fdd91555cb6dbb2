// D1 binds at most 100 parameters per statement, so an IN list over a set that comes from a caller or
// from data must go through src/db/in-list.ts, which splits it. This walks src/ (as layering.test.ts
// does) and parses every file: each `inArray(…)`/`notInArray(…)` must either name a constant set (an
// array of literals, an UPPER_CASE constant, or a spread/lookup of one) or be the IN list of a `build`
// callback handed to inListStatements/selectInList, over that callback's own part.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const HELPER = "src/db/in-list.ts";
const SPLITTERS = new Set(["inListStatements", "selectInList"]);
const IN_LISTS = new Set(["inArray", "notInArray"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

const isConstantName = (name: string) => /^[A-Z][A-Z0-9_]*$/.test(name);

/** A set fixed in the source: literals, UPPER_CASE constants, and arrays/spreads/lookups of those. */
function isConstantSet(node: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node))
    return isConstantSet(node.expression);
  if (ts.isStringLiteral(node) || ts.isNumericLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  if (ts.isIdentifier(node)) return isConstantName(node.text);
  if (ts.isElementAccessExpression(node) || ts.isPropertyAccessExpression(node)) return isConstantSet(node.expression);
  if (ts.isArrayLiteralExpression(node))
    return node.elements.every((e) => (ts.isSpreadElement(e) ? isConstantSet(e.expression) : isConstantSet(e)));
  return false;
}

/**
 * The array is the part parameter of an enclosing arrow/function (the nearest one declaring that name),
 * and that function is an argument of a splitter.
 */
function isSplitPart(call: ts.CallExpression, array: ts.Expression): boolean {
  if (!ts.isIdentifier(array)) return false;
  for (let node: ts.Node | undefined = call.parent; node; node = node.parent) {
    if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) continue;
    const names = node.parameters.map((p) => (ts.isIdentifier(p.name) ? p.name.text : ""));
    if (!names.includes(array.text)) continue;
    const outer = node.parent;
    return (
      names[0] === array.text && ts.isCallExpression(outer) && ts.isIdentifier(outer.expression) && SPLITTERS.has(outer.expression.text)
    );
  }
  return false;
}

/** Every IN list of `source` that neither names a constant set nor is a splitter's part, as `file:line`. */
function unsplitInLists(file: string, source: string): string[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && IN_LISTS.has(node.expression.text)) {
      const array = node.arguments[1];
      if (!array || !(isConstantSet(array) || isSplitPart(node, array)))
        found.push(`${file}:${tree.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

describe("IN lists under D1's 100 bound parameters", () => {
  it("every inArray/notInArray in src/ names a constant set or is split by src/db/in-list.ts", () => {
    const files = sourceFiles(join(root, "src")).map((path) => relative(root, path));
    expect(files.length).toBeGreaterThan(100);
    const offending = files
      .filter((file) => file !== HELPER)
      .map((file) => [file, readFileSync(join(root, file), "utf8")] as const)
      // Parsing is the slow part: only files that spell an IN list at all are parsed.
      .filter(([, source]) => /\b(?:notI|i)nArray\s*\(/.test(source))
      .flatMap(([file, source]) => unsplitInLists(file, source));
    expect(offending).toEqual([]);
  }, 30_000);

  it("detects what it forbids and lets through what it allows", () => {
    const bad = [
      "inArray(t.id, ids)",
      "inArray(t.id, ids.slice(0, 90))",
      "notInArray(t.id, [...seen])",
      "inArray(t.status, full ? STATUSES : [row.status])",
      "inArray(t.status, statusesOf(to))",
      "inArray(t.id, [a, b])",
      // a part, but not handed to the splitter
      "rows.map((part) => db.select().from(t).where(inArray(t.id, part)))",
      // handed to the splitter, but not over its part
      "selectInList(db, ids, (part) => db.select().from(t).where(inArray(t.id, ids)))",
      // an inner function's own `part` shadows the splitter's
      "selectInList(db, ids, (part) => other.map((part) => inArray(t.id, part)))",
    ];
    for (const code of bad) expect(unsplitInLists("x.ts", code), code).toEqual(["x.ts:1"]);
    const good = [
      'inArray(t.status, ["pending", "retrying"])',
      "inArray(t.status, ACTIVE)",
      "inArray(t.status, [...CANCELABLE])",
      "inArray(t.status, [...PAYMENT_PREDECESSORS[to]])",
      "selectInList(db, ids, (part) => db.select().from(t).where(inArray(t.id, part)))",
      "inListStatements(ids, (part) => db.select().from(t).where(and(eq(t.a, 1), notInArray(t.id, part))))",
      "selectInList(db, ids, (part) => { const one = (x) => db.select().from(x).where(inArray(x.id, part)); return one(a).unionAll(one(b)); })",
    ];
    for (const code of good) expect(unsplitInLists("x.ts", code), code).toEqual([]);
  });
});
