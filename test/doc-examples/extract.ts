// The doc examples: every fenced shell block that holds a `curl`, split into the commands a shell would run,
// each with the answer the text shows for it (`# → …`). Pure text in, plain data out (no runtime needed).

/** One command a reader would paste, with where it stands and what the text says it answers. */
export interface DocCommand {
  file: string;
  /** 1-based line of the command's first line in the file. */
  line: number;
  /** The command as the shell reads it: continuation lines joined, the trailing comment removed. */
  text: string;
  /** What follows `→` in the command's own comment or in the `# →` lines under it; absent when the text shows none. */
  expect?: string;
}

/** A fenced block that holds `curl`, run in order, or skipped with the reason its marker gives. */
export interface DocBlock {
  file: string;
  line: number;
  commands: DocCommand[];
  /** The reason of a `<!-- example: not-run (reason) -->` marker on the line before the fence. */
  notRun?: string;
}

const SHELL_LANGUAGES = new Set(["", "sh", "bash", "shell", "zsh", "console"]);
const NOT_RUN = /^<!--\s*example:\s*not-run\s*\((.+)\)\s*-->$/;
const ANY_MARKER = /<!--\s*example:/;

/** The fenced shell blocks of a Markdown file that hold a `curl` command. */
export function extractBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*(```+|~~~+)\s*([\w-]*)/.exec(lines[i] ?? "");
    if (!open) continue;
    const fence = open[1] ?? "```";
    const language = (open[2] ?? "").toLowerCase();
    let end = i + 1;
    while (end < lines.length && !(lines[end] ?? "").trim().startsWith(fence)) end++;
    const body = lines.slice(i + 1, end);
    const start = i;
    i = end;
    if (!SHELL_LANGUAGES.has(language) || !body.some((l) => /(^|[\s(|])curl\s/.test(l))) continue;
    let before = start - 1;
    while (before >= 0 && (lines[before] ?? "").trim() === "") before--;
    const marker = (lines[before] ?? "").trim();
    const notRun = NOT_RUN.exec(marker)?.[1]?.trim();
    if (notRun === undefined && ANY_MARKER.test(marker)) {
      throw new Error(`${file}:${before + 1}: unknown example marker ${marker}; the one marker is <!-- example: not-run (reason) -->`);
    }
    blocks.push({ file, line: start + 1, commands: splitCommands(file, start + 2, body), ...(notRun ? { notRun } : {}) });
  }
  return blocks;
}

/**
 * The block's commands, as a shell splits them: a newline ends a command unless it is escaped with `\` or
 * inside quotes or `$( … )`. A `#` that starts a word begins a comment; a comment that starts with `→`
 * is the command's expected answer, and `#` lines indented under a `# →` line continue it.
 */
export function splitCommands(file: string, firstLine: number, body: string[]): DocCommand[] {
  const commands: DocCommand[] = [];
  let current: DocCommand | undefined;
  let text = "";
  let quote: "'" | '"' | null = null;
  let depth = 0;
  let continuingExpect = false;
  let startLine = 0;
  const finish = (comment: string | undefined) => {
    const command: DocCommand = { file, line: startLine, text: text.trim() };
    const expect = comment?.trim().startsWith("→") ? comment.trim().slice(1).trim() : undefined;
    if (expect !== undefined) command.expect = expect;
    commands.push(command);
    current = command;
    continuingExpect = expect !== undefined;
    text = "";
  };
  body.forEach((raw, index) => {
    const lineNo = firstLine + index;
    const inside = text !== "";
    if (!inside) {
      const trimmed = raw.trim();
      if (trimmed === "") {
        continuingExpect = false;
        return;
      }
      if (trimmed.startsWith("#")) {
        const rest = trimmed.slice(1);
        if (rest.trim().startsWith("→")) {
          if (!current) throw new Error(`${file}:${lineNo}: a "# →" line with no command above it`);
          if (current.expect !== undefined) throw new Error(`${file}:${lineNo}: a second "# →" for one command`);
          current.expect = rest.trim().slice(1).trim();
          continuingExpect = true;
        } else if (continuingExpect && current && /^\s{2,}/.test(rest)) {
          current.expect = `${current.expect} ${rest.trim()}`;
        } else {
          continuingExpect = false;
        }
        return;
      }
      startLine = lineNo;
    }
    let comment: string | undefined;
    let i = 0;
    for (; i < raw.length; i++) {
      const c = raw[i];
      if (quote === "'") {
        if (c === "'") quote = null;
      } else if (c === "\\" && i + 1 < raw.length) {
        i++;
      } else if (quote === '"') {
        if (c === '"') quote = null;
      } else if (c === "'" || c === '"') {
        quote = c;
      } else if (c === "$" && raw[i + 1] === "(") {
        depth++;
        i++;
      } else if (c === ")" && depth > 0) {
        depth--;
      } else if (c === "#" && (i === 0 || /\s/.test(raw[i - 1] ?? ""))) {
        comment = raw.slice(i + 1);
        break;
      }
    }
    const code = raw.slice(0, i);
    if (quote !== "'" && /\\\s*$/.test(code) && comment === undefined) {
      text += code.replace(/\\\s*$/, "");
      return;
    }
    if (quote || depth > 0) {
      text += `${code}\n`;
      return;
    }
    text += code;
    finish(comment);
  });
  if (text.trim() !== "") throw new Error(`${file}:${startLine}: the command does not end (an open quote, "$(" or "\\")`);
  return commands;
}
