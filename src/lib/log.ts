// The one way src/ writes a log line: one JSON object per line, with a level and a message, and errors reduced to
// their class, code, first message line and stack frames. Never an error's text as such: a failed drizzle query's
// message is the SQL with every bound parameter (a customer's name, CPF/CNPJ, e-mail…), and a fetch error may
// quote a URL. As a last guard every line is scrubbed of what must never reach a log: e-mail addresses, CPF/CNPJ
// and card-number-like digit runs, Ponte API keys, webhook signing secrets, upstream keys, bearer tokens.
// Imports nothing (layer src/lib), so every layer can log through it.

export type LogLevel = "error" | "warn" | "info";

export interface ErrorSummary {
  /** The error's class (`TypeError`, `DrizzleQueryError`, `ApiError`…), or the type of a non-Error throw. */
  errorClass: string;
  /** A code the error carries (`UPSTREAM_ERROR`, `SQLITE_CONSTRAINT`…), when it has one. */
  code?: string;
  /** The first line of the message, without SQL parameters, scrubbed, at most 200 characters. */
  message: string;
  /** Where it was thrown: stack frames only (file:line), never the message the stack starts with. */
  frames?: string[];
  /** The error it wraps, summarised the same way (one level). */
  cause?: ErrorSummary;
}

const SCRUBBERS: readonly [RegExp, string][] = [
  [/\b(ponte_(?:test|live)_)[A-Za-z0-9_-]+/g, "$1[redacted]"],
  [/\bwhsec_[A-Za-z0-9_+/=-]+/g, "whsec_[redacted]"],
  [/\$aact_[^\s"',;)]+/g, "$aact_[redacted]"],
  [/\bpinv_[A-Za-z0-9_-]+/g, "pinv_[redacted]"],
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, "$1 [redacted]"],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, "[email]"],
  // CPF and CNPJ, punctuated (529.982.247-25, 11.222.333/0001-81).
  [/\b\d{3}\.\d{3}\.\d{3}-\d{2}\b/g, "[cpf]"],
  [/\b\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}\b/g, "[cnpj]"],
  // Bare runs of 11 or more digits: a CPF (11), a CNPJ (14), a card number (13–19), a phone number. Letters on
  // either side (an id's hex) are not a boundary, so ids stay readable.
  [/(?<![0-9A-Za-z])\d{11,}(?![0-9A-Za-z])/g, "[digits]"],
];

/** Removes personal data and secrets from free text. */
export function scrub(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SCRUBBERS) out = out.replace(pattern, replacement);
  return out;
}

/** drizzle wraps a failed statement as `Failed query: <sql>\nparams: <values>`; the cause is the driver's error. */
const FAILED_QUERY = /^Failed query:/;

function firstLine(text: string): string {
  return scrub((text.split("\n", 1)[0] ?? "").slice(0, 200));
}

function framesOf(stack: unknown): string[] | undefined {
  if (typeof stack !== "string") return undefined;
  const frames = stack
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 8)
    .map((line) => scrub(line.trim()));
  return frames.length > 0 ? frames : undefined;
}

/** An error as it may be logged. */
export function summarizeError(err: unknown, depth = 0): ErrorSummary {
  if (!(err instanceof Error)) return { errorClass: err === null ? "null" : typeof err, message: "(a non-Error value was thrown)" };
  const errorClass = err.constructor?.name && err.constructor.name !== "Object" ? err.constructor.name : err.name;
  const rawCode = (err as { code?: unknown }).code;
  const code = typeof rawCode === "string" || typeof rawCode === "number" ? String(rawCode) : undefined;
  const message = FAILED_QUERY.test(err.message)
    ? "a database statement failed (its SQL and parameters are not logged)"
    : firstLine(err.message);
  const summary: ErrorSummary = { errorClass, message };
  if (code !== undefined) summary.code = scrub(code);
  const frames = framesOf(err.stack);
  if (frames) summary.frames = frames;
  if (depth === 0 && err.cause !== undefined) summary.cause = summarizeError(err.cause, depth + 1);
  return summary;
}

/** Writes one structured line. `fields` must hold identifiers and counts, never request bodies or stored records. */
export function logLine(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  let line: string;
  try {
    line = scrub(JSON.stringify({ level, msg, ...fields }));
  } catch {
    line = JSON.stringify({ level, msg, note: "fields could not be serialised" });
  }
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
