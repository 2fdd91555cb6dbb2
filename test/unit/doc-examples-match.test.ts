// The answer pattern a doc shows after `# →`: `…` for "any more", placeholders for "any value".
import { describe, expect, it } from "vitest";
import { mismatches, parseExpectation, parsePattern } from "../doc-examples/match";

const check = (pattern: string, actual: unknown) => mismatches(parsePattern(pattern), actual);

describe("parsePattern and mismatches", () => {
  it("plain JSON must match exactly: no member more, none less", () => {
    expect(check('{"a":1,"b":"x"}', { a: 1, b: "x" })).toEqual([]);
    expect(check('{"a":1}', { a: 1, b: "x" })).toEqual(['$.b: not in the text (add "…")']);
    expect(check('{"a":1,"b":"x"}', { a: 1 })).toEqual(["$.b: missing"]);
    expect(check('{"a":"1.00"}', { a: 1 })).toEqual(['$.a: expected "1.00", got 1']);
  });

  it("… among members allows any more members", () => {
    expect(check('{"data":{"status":"PENDING",…}}', { data: { status: "PENDING", id: "x" }, meta: {} })).toEqual([
      '$.meta: not in the text (add "…")',
    ]);
    expect(check('{"data":{"status":"PENDING",…},…}', { data: { status: "PENDING", id: "x" }, meta: {} })).toEqual([]);
    expect(check('{"data":{"status":"PENDING",…},…}', { data: { status: "RECEIVED" } })).toEqual([
      '$.data.status: expected "PENDING", got "RECEIVED"',
    ]);
  });

  it("… in an array stands for any number of elements there; without it the length is exact", () => {
    expect(check("[1,…]", [1, 2, 3])).toEqual([]);
    expect(check("[1,…]", [2, 1])).toHaveLength(1);
    expect(check("[…,3]", [1, 2, 3])).toEqual([]);
    expect(check('[{"k":"a",…},…,{"k":null,…}]', [{ k: "a" }, { k: "b" }, { k: null, n: 1 }])).toEqual([]);
    expect(check('[{"k":"a",…},…,{"k":null,…}]', [{ k: "a" }, { k: "b" }])).toHaveLength(1);
    expect(check("[1,2]", [1, 2, 3])).toHaveLength(1);
    expect(check("[]", [])).toEqual([]);
  });

  it("a <placeholder>, a lone … string or a bare … is any value, but a value must be there", () => {
    expect(check('{"id":"<customer id>","x":"…","y":…,"z":{…}}', { id: "c1", x: 3, y: null, z: { q: 1 } })).toEqual([]);
    expect(check('{"id":"<customer id>"}', {})).toEqual(["$.id: missing"]);
    expect(check('{"totalCount":<n>,"items":[<first>,…]}', { totalCount: 3, items: [{ a: 1 }, 2] })).toEqual([]);
    expect(check('{"z":{…}}', { z: [] })).toEqual(["$.z: expected an object, got []"]);
  });

  it("… or a placeholder inside a string matches any text in that place", () => {
    expect(check('"cus_…"', "cus_000123")).toEqual([]);
    expect(check('"cus_…"', "pay_000123")).toEqual(['$: expected a string like "cus_…", got "pay_000123"']);
    expect(check('"https://<host>/pay/<id>"', "https://ponte.test/pay/9")).toEqual([]);
    expect(check('"a.b"', "axb")).toHaveLength(1);
  });

  it("refuses what is not a pattern, saying where", () => {
    expect(() => parsePattern('{"encodedImage","payload"}')).toThrow(/at 15: ":" expected/);
    expect(() => parsePattern('{"a":1} trailing')).toThrow(/text after the pattern/);
    expect(() => parsePattern('{"a":1')).toThrow(/"," or "}" expected/);
  });
});

describe("parseExpectation", () => {
  it("reads a status, a body pattern, or both", () => {
    expect(parseExpectation("201")).toEqual({ status: 201 });
    expect(parseExpectation('409 {"error":{"code":"IN_USE",…}}').status).toBe(409);
    expect(parseExpectation('409 {"error":{"code":"IN_USE",…}}').body?.kind).toBe("object");
    expect(parseExpectation('"RECEIVED"')).toEqual({ body: { kind: "literal", value: "RECEIVED" } });
    expect(parseExpectation("2010")).toEqual({ body: { kind: "literal", value: 2010 } });
  });
});
