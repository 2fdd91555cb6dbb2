// The part of jq the docs may use: `jq [-r] <path>`, a path of names and indexes (`.data.id`, `.data[0].id`,
// `.data.status`), evaluated here; anything else is refused so a doc cannot use what the check cannot run.

export interface JqFilter {
  raw: boolean;
  path: (string | number)[];
  source: string;
}

/** `jq`'s words after the pipe, e.g. ["jq", "-r", ".data.id"]. */
export function parseJq(words: string[]): JqFilter {
  const [name, ...rest] = words;
  if (name !== "jq") throw new Error(`only "| jq" may follow curl, not "| ${words.join(" ")}"`);
  let raw = false;
  const filters: string[] = [];
  for (const word of rest) {
    if (word === "-r" || word === "--raw-output") raw = true;
    else if (word.startsWith("-")) throw new Error(`jq option ${word} is not supported by the doc-example runner (only -r)`);
    else filters.push(word);
  }
  if (filters.length !== 1) throw new Error(`jq takes one filter here, got ${filters.length}`);
  const source = filters[0] ?? "";
  return { raw, path: parsePath(source), source };
}

const STEP = /^(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\.\[(\d+)\]|\.\["([^"\\]*)"\])/;

function parsePath(source: string): (string | number)[] {
  if (source === ".") return [];
  const path: (string | number)[] = [];
  let rest = source;
  while (rest !== "") {
    const step = STEP.exec(rest);
    if (!step) {
      throw new Error(
        `jq filter ${JSON.stringify(source)} is not a simple path (.name, [index]); the doc-example runner supports only those`,
      );
    }
    if (step[1] !== undefined) path.push(step[1]);
    else if (step[4] !== undefined) path.push(step[4]);
    else path.push(Number(step[2] ?? step[3]));
    rest = rest.slice(step[0].length);
  }
  return path;
}

/** The filter's value for a JSON document (null where the path runs out, as jq answers), as jq prints it. */
export function runJq(filter: JqFilter, input: string): { value: unknown; output: string } {
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch {
    throw new Error(`jq ${filter.source}: the answer is not JSON: ${input.slice(0, 200)}`);
  }
  for (const step of filter.path) {
    if (value === null || value === undefined) {
      value = null;
      break;
    }
    if (typeof step === "number" ? !Array.isArray(value) : typeof value !== "object" || Array.isArray(value)) {
      throw new Error(`jq ${filter.source}: cannot index ${JSON.stringify(value).slice(0, 80)} with ${JSON.stringify(step)}`);
    }
    value = (value as Record<string | number, unknown>)[step] ?? null;
  }
  const output = filter.raw && typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return { value, output };
}
