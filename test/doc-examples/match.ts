// The answer a doc shows, as a pattern: JSON in which `…` stands for "any more members/elements" (or, as a
// value, any value), a `<placeholder>` (bare, or as the whole of a string) or a string that is only `…`
// stands for any value, and a string with
// `…` or `<placeholder>` inside it stands for a string with anything in those places ("cus_…").

export type Pattern =
  | { kind: "any" }
  | { kind: "literal"; value: string | number | boolean | null }
  | { kind: "text"; regex: RegExp; source: string }
  | { kind: "object"; members: [string, Pattern][]; open: boolean }
  | { kind: "array"; items: (Pattern | "…")[] };

const ELLIPSIS = "…";
const PLACEHOLDER = /<[^<>]+>/;

/** Parses a pattern; throws with the offset on anything that is not one. */
export function parsePattern(source: string): Pattern {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`answer pattern, at ${at}: ${what} in ${source}`);
  };
  const space = () => {
    while (at < source.length && /\s/.test(source[at] ?? "")) at++;
  };
  const ellipsisHere = () => source.startsWith(ELLIPSIS, at);
  const string = (): string => {
    const start = at;
    at++;
    while (at < source.length && source[at] !== '"') at += source[at] === "\\" ? 2 : 1;
    if (at >= source.length) fail("an unterminated string");
    at++;
    return JSON.parse(source.slice(start, at)) as string;
  };
  const value = (): Pattern => {
    space();
    const c = source[at];
    if (ellipsisHere()) {
      at += ELLIPSIS.length;
      return { kind: "any" };
    }
    const placeholder = /^<[^<>"]+>/.exec(source.slice(at));
    if (placeholder) {
      at += placeholder[0].length;
      return { kind: "any" };
    }
    if (c === "{") return object();
    if (c === "[") return array();
    if (c === '"') return textPattern(string());
    const literal = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(source.slice(at));
    if (!literal) return fail("a value expected");
    at += literal[0].length;
    return { kind: "literal", value: JSON.parse(literal[0]) as number | boolean | null };
  };
  const object = (): Pattern => {
    at++;
    const members: [string, Pattern][] = [];
    let open = false;
    space();
    if (source[at] === "}") {
      at++;
      return { kind: "object", members, open };
    }
    for (;;) {
      space();
      if (ellipsisHere()) {
        at += ELLIPSIS.length;
        open = true;
      } else {
        if (source[at] !== '"') fail('a member name or "…" expected');
        const name = string();
        space();
        if (source[at] !== ":") fail(`":" expected after "${name}"`);
        at++;
        members.push([name, value()]);
      }
      space();
      if (source[at] === ",") {
        at++;
        continue;
      }
      if (source[at] === "}") {
        at++;
        return { kind: "object", members, open };
      }
      fail('"," or "}" expected');
    }
  };
  const array = (): Pattern => {
    at++;
    const items: (Pattern | "…")[] = [];
    space();
    if (source[at] === "]") {
      at++;
      return { kind: "array", items };
    }
    for (;;) {
      space();
      if (ellipsisHere()) {
        at += ELLIPSIS.length;
        items.push("…");
      } else {
        items.push(value());
      }
      space();
      if (source[at] === ",") {
        at++;
        continue;
      }
      if (source[at] === "]") {
        at++;
        return { kind: "array", items };
      }
      fail('"," or "]" expected');
    }
  };
  const pattern = value();
  space();
  if (at < source.length) fail("text after the pattern");
  return pattern;
}

function textPattern(text: string): Pattern {
  if (text === ELLIPSIS || /^<[^<>]+>$/.test(text)) return { kind: "any" };
  if (!text.includes(ELLIPSIS) && !PLACEHOLDER.test(text)) return { kind: "literal", value: text };
  const parts = text.split(/…|<[^<>]+>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return { kind: "text", regex: new RegExp(`^${parts.join("[\\s\\S]*")}$`), source: text };
}

const show = (value: unknown) => (value === undefined ? "nothing" : JSON.stringify(value)?.slice(0, 200));

/** Every place where `actual` differs from the pattern, as "path: expected …, got …"; empty when it matches. */
export function mismatches(pattern: Pattern, actual: unknown, path = "$"): string[] {
  switch (pattern.kind) {
    case "any":
      return actual === undefined ? [`${path}: expected a value, got nothing`] : [];
    case "literal":
      return actual === pattern.value ? [] : [`${path}: expected ${show(pattern.value)}, got ${show(actual)}`];
    case "text":
      return typeof actual === "string" && pattern.regex.test(actual)
        ? []
        : [`${path}: expected a string like ${show(pattern.source)}, got ${show(actual)}`];
    case "object": {
      if (typeof actual !== "object" || actual === null || Array.isArray(actual)) {
        return [`${path}: expected an object, got ${show(actual)}`];
      }
      const record = actual as Record<string, unknown>;
      const problems = pattern.members.flatMap(([name, member]) =>
        name in record ? mismatches(member, record[name], `${path}.${name}`) : [`${path}.${name}: missing`],
      );
      if (!pattern.open) {
        const named = new Set(pattern.members.map(([name]) => name));
        for (const name of Object.keys(record)) if (!named.has(name)) problems.push(`${path}.${name}: not in the text (add "…")`);
      }
      return problems;
    }
    case "array": {
      if (!Array.isArray(actual)) return [`${path}: expected an array, got ${show(actual)}`];
      return arrayMatches(pattern.items, actual, 0, 0)
        ? []
        : [`${path}: expected elements ${describeItems(pattern.items)}, got ${show(actual)}`];
    }
  }
}

/** Whether items[i…] matches actual[j…], a `…` taking any number of elements (backtracking; lists in docs are short). */
function arrayMatches(items: (Pattern | "…")[], actual: unknown[], i: number, j: number): boolean {
  if (i === items.length) return j === actual.length;
  const item = items[i];
  if (item === "…") {
    for (let k = j; k <= actual.length; k++) if (arrayMatches(items, actual, i + 1, k)) return true;
    return false;
  }
  return j < actual.length && item !== undefined && mismatches(item, actual[j]).length === 0 && arrayMatches(items, actual, i + 1, j + 1);
}

const describeItems = (items: (Pattern | "…")[]) => `[${items.map((item) => (item === "…" ? "…" : item.kind)).join(", ")}]`;

/** The `→` text split into its status (`201`) and its body pattern, either of which may be absent. */
export function parseExpectation(text: string): { status?: number; body?: Pattern } {
  const match = /^(\d{3})(?:\s+|$)/.exec(text);
  const rest = match ? text.slice(match[0].length).trim() : text.trim();
  return {
    ...(match ? { status: Number(match[1]) } : {}),
    ...(rest === "" ? {} : { body: parsePattern(rest) }),
  };
}
