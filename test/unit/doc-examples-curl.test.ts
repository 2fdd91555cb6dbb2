// A doc's curl command as the request it sends, its variables, and the jq paths the runner evaluates.
import { describe, expect, it } from "vitest";
import { parseCurl, planCommand } from "../doc-examples/curl";
import { parseJq, runJq } from "../doc-examples/jq";
import { newShell, runCommand } from "../doc-examples/run";

const vars: Record<string, string> = { KEY: "ponte_test_abc", CUS: "c-1" };
const lookup = (name: string) => {
  const value = vars[name];
  if (value === undefined) throw new Error(`$${name} is not set`);
  return value;
};

describe("parseCurl", () => {
  it("reads -X, -H, -d and the URL; a URL without a scheme is http", () => {
    expect(parseCurl(["curl", "-s", "-X", "PATCH", "localhost:8787/a", "-H", "Authorization: Bearer k", "-d", '{"x":1}'])).toEqual({
      method: "PATCH",
      url: "http://localhost:8787/a",
      headers: [
        ["Authorization", "Bearer k"],
        ["Content-Type", "application/x-www-form-urlencoded"],
      ],
      body: '{"x":1}',
    });
  });

  it("data means POST; --json sets its headers; -u is basic auth; several -d join with &", () => {
    const json = parseCurl(["curl", "--json", '{"a":1}', "http://h/x"]);
    expect(json.method).toBe("POST");
    expect(json.headers).toEqual([
      ["Content-Type", "application/json"],
      ["Accept", "application/json"],
    ]);
    expect(parseCurl(["curl", "-u", "user:pw", "h/x"]).headers).toEqual([["Authorization", `Basic ${btoa("user:pw")}`]]);
    expect(parseCurl(["curl", "-d", "a=1", "--data-raw", "@b", "h/x"]).body).toBe("a=1&@b");
  });

  it("-G moves the data, --data-urlencode encoded, into the query of a GET", () => {
    const request = parseCurl(["curl", "-sG", "h/x?limit=5", "--data-urlencode", "q=Maria Silva", "-d", "offset=0"]);
    expect(request).toEqual({ method: "GET", url: "http://h/x?limit=5&q=Maria%20Silva&offset=0", headers: [] });
  });

  it("fails clearly on an option it does not support", () => {
    expect(() => parseCurl(["curl", "-k", "h/x"])).toThrow("curl option -k is not supported");
    expect(() => parseCurl(["curl", "--compressed", "h/x"])).toThrow("curl option --compressed is not supported");
    expect(() => parseCurl(["curl", "-d", "@body.json", "h/x"])).toThrow(/data from a file/);
    expect(() => parseCurl(["curl", "h/x", "h/y"])).toThrow(/two URLs/);
    expect(() => parseCurl(["wget", "h/x"])).toThrow(/not a curl command/);
  });
});

describe("planCommand", () => {
  it("substitutes variables in double quotes and bare words, not in single quotes", () => {
    const plan = planCommand(`curl -s "h/c/$CUS" -H "Authorization: Bearer $KEY" -d '{"id":"$CUS"}'`, lookup);
    expect(plan.kind === "request" && plan.request.url).toBe("http://h/c/c-1");
    expect(plan.kind === "request" && plan.request.body).toBe('{"id":"$CUS"}');
    expect(plan.kind === "request" && plan.request.headers[0]).toEqual(["Authorization", "Bearer ponte_test_abc"]);
  });

  it("reads NAME=$(curl … | jq -r path) and NAME=value", () => {
    const plan = planCommand('PAY=$(curl -s h/p -d "{\\"customer\\":\\"$CUS\\"}" | jq -r .data.id)', lookup);
    expect(plan).toMatchObject({
      kind: "request",
      capture: "PAY",
      jq: { raw: true, path: ["data", "id"] },
      request: { body: '{"customer":"c-1"}' },
    });
    expect(planCommand("KEY=ponte_test_…", lookup)).toEqual({ kind: "assign", name: "KEY", value: "ponte_test_…" });
  });

  it("refuses an unset variable, another command after the pipe, and other shell operators", () => {
    expect(() => planCommand("curl -s h/$NOPE", lookup)).toThrow("$NOPE is not set");
    expect(() => planCommand("curl -s h/x | grep id", lookup)).toThrow('only "| jq" may follow curl');
    expect(() => planCommand("curl -s h/x > out.json", lookup)).toThrow(/shell operator/);
    expect(() => planCommand("npm run listen", lookup)).toThrow(/not a curl command/);
  });
});

describe("jq", () => {
  it("evaluates a simple path, raw or as JSON, and null where the path runs out", () => {
    const doc = JSON.stringify({ data: [{ id: "a", n: 1 }], meta: null });
    expect(runJq(parseJq(["jq", "-r", ".data[0].id"]), doc).output).toBe("a");
    expect(runJq(parseJq(["jq", ".data[0].id"]), doc).output).toBe('"a"');
    expect(runJq(parseJq(["jq", ".data[0]"]), doc).value).toEqual({ id: "a", n: 1 });
    expect(runJq(parseJq(["jq", ".meta.x"]), doc).value).toBeNull();
    expect(runJq(parseJq(["jq", "."]), doc).value).toEqual({ data: [{ id: "a", n: 1 }], meta: null });
  });

  it("refuses filters beyond a path, and options beyond -r", () => {
    expect(() => parseJq(["jq", "-r", '.data[]|select(.key=="x").id'])).toThrow(/not a simple path/);
    expect(() => parseJq(["jq", "-c", ".a"])).toThrow("jq option -c is not supported");
    expect(() => runJq(parseJq(["jq", ".a"]), "not json")).toThrow(/not JSON/);
  });
});

describe("runCommand", () => {
  const answer = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status });
  const command = (text: string, expect?: string) => ({ file: "doc.md", line: 7, text, ...(expect ? { expect } : {}) });

  it("keeps a captured id for later commands, and checks status and fields", async () => {
    const shell = newShell({ KEY: "k" }, answer(201, { data: { id: "p-1", status: "PENDING" } }));
    await runCommand(shell, command('PAY=$(curl -s h/p -H "Authorization: Bearer $KEY" | jq -r .data.id)', '201 {"data":{"id":"p-1",…}}'));
    await expect(runCommand(shell, command("X=$(curl -s h/p | jq -r .data.id)", '{"data":{"id":"p-2",…}}'))).rejects.toThrow(
      '$.data.id: expected "p-2", got "p-1"',
    );
    expect(shell.vars.get("PAY")).toBe("p-1");
    await runCommand(shell, command("curl -s h/p/$PAY | jq .data.status", '"PENDING"'));
    await expect(runCommand(shell, command("curl -s h/p/$PAY", "200"))).rejects.toThrow(
      /doc.md:7: GET http:\/\/h\/p\/p-1: status 201, the text shows 200/,
    );
    await expect(runCommand(shell, command("curl -s h/p", '{"data":{"status":"RECEIVED",…}}'))).rejects.toThrow(
      '$.data.status: expected "RECEIVED", got "PENDING"',
    );
  });

  it("wants success when the text shows no status, and a value worth keeping", async () => {
    await expect(runCommand(newShell({}, answer(404, {})), command("curl -s h/x"))).rejects.toThrow(/status 404, the text shows success/);
    await expect(runCommand(newShell({}, answer(200, { data: {} })), command("X=$(curl -s h/x | jq -r .data.id)"))).rejects.toThrow(
      'X would be "null"',
    );
  });

  it("leaves a provided variable alone when the text assigns it a placeholder, and refuses other placeholders", async () => {
    const shell = newShell({ KEY: "real" }, answer(200, {}));
    await runCommand(shell, command("KEY=ponte_test_…"));
    expect(shell.vars.get("KEY")).toBe("real");
    await expect(runCommand(shell, command("SUB=sub_…"))).rejects.toThrow(/placeholder the runner does not provide/);
  });
});
