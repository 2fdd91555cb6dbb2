// The JSON depth scan the body guard runs before parsing: nesting counted outside strings only.
import { describe, expect, it } from "vitest";
import { checkJsonBody, jsonDepth } from "../../src/http/body-guard";

describe("jsonDepth", () => {
  it("counts arrays and objects, not brackets inside strings or escaped quotes", () => {
    expect(jsonDepth("{}")).toBe(1);
    expect(jsonDepth('{"a":[{"b":[]}]}')).toBe(4);
    expect(jsonDepth('{"a":"[[[{{{"}')).toBe(1);
    expect(jsonDepth('{"a":"\\"[[[","b":[1]}')).toBe(2);
    expect(jsonDepth(`${"[".repeat(200_000)}${"]".repeat(200_000)}`)).toBe(200_000);
  });

  it("checkJsonBody refuses past 32 levels with INVALID_BODY and a non-object with INVALID_BODY", () => {
    expect(() => checkJsonBody(`{"a":${"[".repeat(31)}${"]".repeat(31)}}`)).not.toThrow();
    expect(() => checkJsonBody(`{"a":${"[".repeat(32)}${"]".repeat(32)}}`)).toThrow(
      expect.objectContaining({ code: "INVALID_BODY", details: { maxDepth: 32 } }),
    );
    expect(() => checkJsonBody("[]")).toThrow(expect.objectContaining({ code: "INVALID_BODY" }));
    expect(() => checkJsonBody("{")).toThrow(expect.objectContaining({ code: "MALFORMED_JSON" }));
  });
});
