// Which blocks of a doc run, and how they split into commands with their `# →` answers.
import { describe, expect, it } from "vitest";
import { extractBlocks } from "../doc-examples/extract";

const md = (...lines: string[]) => lines.join("\n");

describe("extractBlocks", () => {
  it("takes shell blocks (or unlabelled ones) that hold curl, with their line numbers", () => {
    const blocks = extractBlocks(
      "doc.md",
      md(
        "# Title",
        "```sh",
        "npm start",
        "```",
        "```ts",
        'await fetch("x"); // curl -s x',
        "```",
        "```",
        "curl -s localhost:8787/api/v1/health",
        "```",
        "~~~bash",
        "curl -s localhost:8787/a",
        "~~~",
      ),
    );
    expect(blocks.map((b) => [b.line, b.commands.map((c) => [c.line, c.text])])).toEqual([
      [8, [[9, "curl -s localhost:8787/api/v1/health"]]],
      [11, [[12, "curl -s localhost:8787/a"]]],
    ]);
  });

  it("joins continuation lines, quotes across lines and $( … ), and reads the trailing → comment", () => {
    const [block] = extractBlocks(
      "doc.md",
      md(
        "```sh",
        "# a comment of its own",
        "CUS=$(curl -s -X POST localhost:8787/c \\",
        '  -d \'{"name":"Maria",',
        '       "x":1}\' | jq -r .data.id)',
        "",
        'curl -s localhost:8787/c/$CUS   # → 200 {"data":{…},…}',
        "curl -s 'localhost:8787/a#frag' # plain remark",
        "```",
      ),
    );
    expect(block?.commands).toEqual([
      {
        file: "doc.md",
        line: 3,
        text: 'CUS=$(curl -s -X POST localhost:8787/c   -d \'{"name":"Maria",\n       "x":1}\' | jq -r .data.id)',
      },
      { file: "doc.md", line: 7, text: "curl -s localhost:8787/c/$CUS", expect: '200 {"data":{…},…}' },
      { file: "doc.md", line: 8, text: "curl -s 'localhost:8787/a#frag'" },
    ]);
  });

  it("takes a # → line under a command, continued by indented # lines", () => {
    const [block] = extractBlocks(
      "doc.md",
      md("```sh", "curl -s localhost:8787/p", '# → {"rows":[{"a":1,', '#     "b":2}],…}', "# an ordinary remark", "```"),
    );
    expect(block?.commands[0]?.expect).toBe('{"rows":[{"a":1, "b":2}],…}');
  });

  it("reads the not-run marker on the line before the fence, and refuses a marker it does not know", () => {
    const [block] = extractBlocks("doc.md", md("<!-- example: not-run (needs AWS) -->", "", "```sh", "curl -s x", "```"));
    expect(block?.notRun).toBe("needs AWS");
    expect(() => extractBlocks("doc.md", md("<!-- example: skip -->", "```sh", "curl -s x", "```"))).toThrow(
      /doc.md:1: unknown example marker/,
    );
  });

  it("fails on a command that never ends, and on a # → with no command", () => {
    expect(() => extractBlocks("doc.md", md("```sh", "curl -s -d '{", "```"))).toThrow(/doc.md:2: the command does not end/);
    expect(() => extractBlocks("doc.md", md("```sh", "# → 200", "curl -s x", "```"))).toThrow(/doc.md:2: a "# →" line with no command/);
  });
});
