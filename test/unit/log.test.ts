// src/lib/log.ts: what an error becomes in a log line, and the scrub every line goes through (issue 26 #7).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { logLine, scrub, summarizeError } from "../../src/lib/log";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("summarizeError", () => {
  it("a failed drizzle query keeps its class and cause, never its SQL or parameters", () => {
    const cause = Object.assign(new Error("D1_ERROR: UNIQUE constraint failed: idempotency_keys.key: SQLITE_CONSTRAINT"), {
      code: "SQLITE_CONSTRAINT",
    });
    const err = new DrizzleQueryError(
      'insert into "customers" ("name", "cpf_cnpj", "email") values (?, ?, ?)',
      ["Maria Silva", "52998224725", "maria@example.com"],
      cause,
    );
    const summary = summarizeError(err);
    const text = JSON.stringify(summary);
    expect(summary.errorClass).toBe("DrizzleQueryError");
    expect(summary.message).toMatch(/database statement failed/);
    expect(summary.cause).toMatchObject({
      errorClass: "Error",
      code: "SQLITE_CONSTRAINT",
      message: expect.stringMatching(/UNIQUE constraint/),
    });
    for (const secret of ["Maria", "52998224725", "maria@example.com", "insert into", "cpf_cnpj"]) expect(text).not.toContain(secret);
    expect(summary.frames?.every((f) => f.startsWith("at "))).toBe(true);
  });

  it("keeps only the first line of a message, scrubbed, and says so for a non-Error throw", () => {
    const summary = summarizeError(new TypeError('fetch failed for maria@example.com\nbody: {"cpf":"529.982.247-25"}'));
    expect(summary).toMatchObject({ errorClass: "TypeError", message: "fetch failed for [email]" });
    expect(summarizeError("ponte_test_abc")).toEqual({ errorClass: "string", message: "(a non-Error value was thrown)" });
  });
});

describe("scrub", () => {
  it.each([
    ["Authorization: Bearer ponte_test_AbC123xyz", "ponte_test_AbC123xyz"],
    ["key ponte_live_Zz9-_q", "Zz9-_q"],
    ["secret whsec_c2VjcmV0", "c2VjcmV0"],
    ["access_token $aact_hmlg_000abc", "000abc"],
    ["mail ana.souza+x@loja.com.br", "ana.souza"],
    ["cpf 529.982.247-25", "529.982.247-25"],
    ["cnpj 11.222.333/0001-81", "11.222.333/0001-81"],
    ["cpf 52998224725", "52998224725"],
    ["card 4111111111111111", "4111111111111111"],
    ["token pinv_abcDEF123", "abcDEF123"],
  ])("%s", (text, secret) => {
    expect(scrub(text)).not.toContain(secret);
  });

  // A bare run of 11+ digits is redacted even inside an id (a UUID whose last group is all digits): privacy first.
  it("leaves ids, times and short numbers readable", () => {
    const text = "req_01a219e075867086adc39b91184aa8c0 2026-11-26T21:00:00.000Z 0f8c2b1e-1234-4abc-9def-1a2b3c4d5e6f status 502 streak 10";
    expect(scrub(text)).toBe(text);
  });
});

describe("logLine", () => {
  it("writes one JSON line at the level's console method, scrubbed", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    logLine("error", "request failed", { requestId: "req_1", note: "maria@example.com" });
    logLine("warn", "slow", { ms: 5 });
    expect(JSON.parse(String(error.mock.calls[0]?.[0]))).toEqual({
      level: "error",
      msg: "request failed",
      requestId: "req_1",
      note: "[email]",
    });
    expect(JSON.parse(String(warn.mock.calls[0]?.[0]))).toEqual({ level: "warn", msg: "slow", ms: 5 });
  });
});

describe("one writer of log lines", () => {
  const src = join(dirname(fileURLToPath(import.meta.url)), "../../src");
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
    });

  it("no file in src/ but src/lib/log.ts calls console.* (everything logs through logLine)", () => {
    const writers = files(src)
      .filter((file) => relative(src, file) !== join("lib", "log.ts"))
      .filter((file) => /\bconsole\.(log|info|warn|error|debug|trace)\s*\(/.test(readFileSync(file, "utf8")))
      .map((file) => relative(src, file));
    expect(writers).toEqual([]);
  });
});
