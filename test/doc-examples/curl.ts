// A doc's shell command as the request it sends: the words split by shell-quote (variables substituted the
// way a shell does: in double quotes and bare words, not in single quotes), then curl's options read into a
// method, URL, headers and body. An option this reader does not know fails, so a doc cannot quietly use one.
import { parse } from "shell-quote";
import { type JqFilter, parseJq } from "./jq";

export interface CurlRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body?: string;
}

/** What a command does: set a variable, or send a request (and maybe keep what jq prints as a variable). */
export type Plan =
  | { kind: "assign"; name: string; value: string }
  | { kind: "request"; request: CurlRequest; jq?: JqFilter; capture?: string };

const NAME = "[A-Za-z_][A-Za-z0-9_]*";
const CAPTURE = new RegExp(`^(?:export\\s+)?(${NAME})=\\$\\(([\\s\\S]*)\\)$`);
const ASSIGN = new RegExp(`^(?:export\\s+)?(${NAME})=(\\S*)$`);

/** Reads one command; `lookup` answers a variable (and throws for one that is not set). */
export function planCommand(text: string, lookup: (name: string) => string): Plan {
  const capture = CAPTURE.exec(text);
  if (capture) return { ...planPipeline(capture[2] ?? "", lookup), capture: capture[1] ?? "" };
  const assign = ASSIGN.exec(text);
  if (assign) return { kind: "assign", name: assign[1] ?? "", value: words(assign[2] ?? "", lookup).join(" ") };
  return planPipeline(text, lookup);
}

function words(text: string, lookup: (name: string) => string): string[] {
  return parse(text, (name: string) => lookup(name)).flatMap((token) => {
    if (typeof token === "string") return [token];
    if ("comment" in token) return [];
    if ("op" in token && token.op === "glob") return [token.pattern];
    if ("op" in token && token.op === "|") return ["\u0000|"];
    throw new Error(`shell operator ${JSON.stringify(token)} is not supported by the doc-example runner (only "| jq")`);
  });
}

function planPipeline(text: string, lookup: (name: string) => string): Extract<Plan, { kind: "request" }> {
  const all = words(text, lookup);
  const pipe = all.indexOf("\u0000|");
  const curl = pipe === -1 ? all : all.slice(0, pipe);
  const after = pipe === -1 ? undefined : all.slice(pipe + 1);
  if (after?.includes("\u0000|")) throw new Error("only one pipe (curl … | jq …) is supported by the doc-example runner");
  return { kind: "request", request: parseCurl(curl), ...(after ? { jq: parseJq(after) } : {}) };
}

const FLAGS = new Set(["s", "S", "g", "G"]);
const LONG_FLAGS: Record<string, string> = { "--silent": "s", "--show-error": "S", "--globoff": "g", "--get": "G" };
const LONG_VALUES: Record<string, string> = {
  "--request": "X",
  "--header": "H",
  "--data": "d",
  "--data-raw": "data-raw",
  "--data-binary": "d",
  "--data-urlencode": "data-urlencode",
  "--json": "json",
  "--user": "u",
  "--url": "url",
};
const SHORT_VALUES = new Set(["X", "H", "d", "u"]);

/** curl's words (starting with "curl") as the request it would send. */
export function parseCurl(args: string[]): CurlRequest {
  if (args[0] !== "curl") throw new Error(`not a curl command: ${args.slice(0, 3).join(" ")} (the doc-example runner runs only curl)`);
  const flags = new Set<string>();
  const headers: [string, string][] = [];
  const data: { kind: "d" | "data-raw" | "data-urlencode" | "json"; value: string }[] = [];
  let method: string | undefined;
  let url: string | undefined;
  let user: string | undefined;
  const option = (name: string, value: string | undefined) => {
    if (value === undefined) throw new Error(`curl option ${name} needs a value`);
    if (name === "X") method = value;
    else if (name === "H") {
      const colon = value.indexOf(":");
      if (colon <= 0) throw new Error(`curl header ${JSON.stringify(value)} has no "Name: value"`);
      headers.push([value.slice(0, colon).trim(), value.slice(colon + 1).trim()]);
    } else if (name === "u") user = value;
    else if (name === "url") setUrl(value);
    else if (name === "d" || name === "data-raw" || name === "data-urlencode" || name === "json") {
      if (name !== "data-raw" && value.startsWith("@"))
        throw new Error(`curl data from a file (${value}) is not supported by the doc-example runner`);
      data.push({ kind: name, value });
    }
  };
  const setUrl = (value: string) => {
    if (url !== undefined) throw new Error(`curl with two URLs (${url}, ${value}) is not supported by the doc-example runner`);
    url = value;
  };
  for (let i = 1; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg.startsWith("--")) {
      const flag = LONG_FLAGS[arg];
      const valued = LONG_VALUES[arg];
      if (flag) flags.add(flag);
      else if (valued) option(valued, args[++i]);
      else throw new Error(`curl option ${arg} is not supported by the doc-example runner`);
    } else if (arg.startsWith("-") && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j] ?? "";
        if (FLAGS.has(letter)) flags.add(letter);
        else if (SHORT_VALUES.has(letter)) {
          option(letter, j + 1 < arg.length ? arg.slice(j + 1) : args[++i]);
          break;
        } else throw new Error(`curl option -${letter} is not supported by the doc-example runner`);
      }
    } else setUrl(arg);
  }
  if (url === undefined) throw new Error("curl without a URL");
  const target = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`);
  const has = (name: string) => headers.some(([header]) => header.toLowerCase() === name.toLowerCase());
  if (user !== undefined) headers.push(["Authorization", `Basic ${btoa(user)}`]);
  const kinds = new Set(data.map((part) => part.kind === "json"));
  if (kinds.size > 1) throw new Error("curl --json mixed with -d is not supported by the doc-example runner");
  let body: string | undefined;
  if (data.length > 0) {
    const encoded = data.map((part) => (part.kind === "data-urlencode" ? urlencode(part.value) : part.value));
    const json = data[0]?.kind === "json";
    body = encoded.join(json ? "" : "&");
    if (json) {
      if (!has("Content-Type")) headers.push(["Content-Type", "application/json"]);
      if (!has("Accept")) headers.push(["Accept", "application/json"]);
    } else if (!flags.has("G") && !has("Content-Type")) headers.push(["Content-Type", "application/x-www-form-urlencoded"]);
  }
  if (flags.has("G") && body !== undefined) {
    target.search = target.search ? `${target.search}&${body}` : `?${body}`;
    body = undefined;
  }
  return {
    method: method ?? (body !== undefined ? "POST" : "GET"),
    url: target.toString(),
    headers,
    ...(body !== undefined ? { body } : {}),
  };
}

/** --data-urlencode's forms: "name=content" (content encoded), "=content" and "content" (all of it encoded). */
function urlencode(value: string): string {
  const equals = value.indexOf("=");
  if (equals > 0) return `${value.slice(0, equals)}=${encodeURIComponent(value.slice(equals + 1))}`;
  return encodeURIComponent(equals === 0 ? value.slice(1) : value);
}
