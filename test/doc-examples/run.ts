// Runs a doc's commands in order against a fetch (the worker's own in the test), as a reader's shell would:
// variables set by earlier commands, the status and the fields the text shows checked on each answer.
import { type CurlRequest, planCommand } from "./curl";
import type { DocCommand } from "./extract";
import { runJq } from "./jq";
import { mismatches, parseExpectation } from "./match";

/** The variables the runner sets before a file runs: the key (`$KEY`, `$PONTE_KEY`) and `$BASE`. */
export type Provided = Record<string, string>;

/** A value a doc writes where the reader puts their own ("ponte_test_…", "<your key>"). */
const isPlaceholder = (value: string) => value.includes("…") || /<[^<>]+>/.test(value);

export interface Shell {
  vars: Map<string, string>;
  provided: Set<string>;
  fetch: (request: Request) => Promise<Response>;
}

export function newShell(provided: Provided, fetch: Shell["fetch"]): Shell {
  return { vars: new Map(Object.entries(provided)), provided: new Set(Object.keys(provided)), fetch };
}

const describe = (request: CurlRequest) => `${request.method} ${request.url}`;

/** Runs one command; throws an Error that says what the text promised and what came back. */
export async function runCommand(shell: Shell, command: DocCommand): Promise<void> {
  const where = `${command.file}:${command.line}`;
  const lookup = (name: string) => {
    const value = shell.vars.get(name);
    if (value === undefined) throw new Error(`${where}: $${name} is not set (assign it in an earlier example of this file)`);
    return value;
  };
  let plan: ReturnType<typeof planCommand>;
  try {
    plan = planCommand(command.text, lookup);
  } catch (error) {
    const message = (error as Error).message;
    throw new Error(message.startsWith(where) ? message : `${where}: ${message}`);
  }
  if (plan.kind === "assign") {
    if (!isPlaceholder(plan.value)) shell.vars.set(plan.name, plan.value);
    else if (!shell.provided.has(plan.name))
      throw new Error(`${where}: ${plan.name}=${plan.value} is a placeholder the runner does not provide`);
    return;
  }
  const { request } = plan;
  const response = await shell.fetch(
    new Request(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
    }),
  );
  const text = await response.text();
  const fail = (what: string): never => {
    throw new Error(`${where}: ${describe(request)}: ${what}\n  answer ${response.status}: ${text.slice(0, 600)}`);
  };
  let expectation: ReturnType<typeof parseExpectation> = {};
  try {
    if (command.expect !== undefined) expectation = parseExpectation(command.expect);
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`);
  }
  if (expectation.status !== undefined ? response.status !== expectation.status : response.status < 200 || response.status > 299) {
    fail(`status ${response.status}, the text shows ${expectation.status ?? "success (2xx)"}`);
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = text;
  }
  const printed = plan.jq ? runJq(plan.jq, text) : { value: answer, output: text };
  if (expectation.body) {
    // What the command prints (jq's output when piped), or, when a variable takes that, the API's answer.
    const problems = mismatches(expectation.body, plan.capture !== undefined ? answer : printed.value);
    if (problems.length > 0) fail(`the answer differs from the text:\n  ${problems.join("\n  ")}`);
  }
  if (plan.capture !== undefined) {
    const captured = printed.output.replace(/\n$/, "");
    if (captured === "" || captured === "null") fail(`${plan.capture} would be ${JSON.stringify(captured)}`);
    shell.vars.set(plan.capture, captured);
  }
}
