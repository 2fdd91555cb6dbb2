import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseCatalogue, renderCatalogue } from "../../scripts/catalogue/render.mjs";
import { CATALOGUE, CATALOGUE_GROUPS } from "../../src/compat/catalogue";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const vendoredTsv = readFileSync(resolve(root, "scripts/catalogue/operations.tsv"), "utf8");
const sharedPath = resolve(root, "../shared/compat/operations.tsv");

describe("operation catalogue", () => {
  it("committed src/compat/catalogue.ts is what the vendored TSV generates", () => {
    const committed = readFileSync(resolve(root, "src/compat/catalogue.ts"), "utf8");
    expect(committed).toBe(renderCatalogue(vendoredTsv));
  });

  it.runIf(existsSync(sharedPath))("vendored TSV equals ../shared/compat/operations.tsv byte for byte", () => {
    const shared = readFileSync(sharedPath);
    const vendored = readFileSync(resolve(root, "scripts/catalogue/operations.tsv"));
    expect(vendored.equals(shared)).toBe(true);
  });

  it("has 208 operations: 21 native, 187 passthrough, unique operationIds", () => {
    expect(CATALOGUE).toHaveLength(208);
    expect(CATALOGUE.filter((op) => op.kind === "native")).toHaveLength(21);
    expect(CATALOGUE.filter((op) => op.kind === "passthrough")).toHaveLength(187);
    expect(new Set(CATALOGUE.map((op) => op.operationId)).size).toBe(208);
  });

  it("lists groups in first-seen order", () => {
    expect(CATALOGUE_GROUPS[0]).toBe("Clientes");
    expect(CATALOGUE_GROUPS).toEqual([...new Set(CATALOGUE.map((op) => op.group))]);
  });

  it("parses typed fields", () => {
    const create = CATALOGUE.find((op) => op.operationId === "criar-novo-cliente");
    expect(create).toMatchObject({
      method: "POST",
      path: "/api/v1/customers",
      upstreamPath: "/v3/customers",
      kind: "native",
      bodyRequired: true,
      successStatus: 200,
    });
  });

  it("renders deterministically", () => {
    expect(renderCatalogue(vendoredTsv)).toBe(renderCatalogue(vendoredTsv));
  });

  describe("rejects malformed rows naming the line", () => {
    const header = vendoredTsv.split("\n")[0];
    const good = "G\top\tGET\t/api/v1/x\tGET\t/v3/x\tnative\tx.read\t200\tno\tTitle";
    const cases: Array<[string, string, RegExp]> = [
      ["too few columns", "G\top\tGET\t/api/v1/x", /line 3: expected 11 columns, got 4/],
      ["bad method", good.replace("\tGET\t/api", "\tFETCH\t/api"), /line 3: invalid method "FETCH"/],
      ["bad upstream method", good.replace("\tGET\t/v3", "\tget\t/v3"), /line 3: invalid upstream_method "get"/],
      ["bad kind", good.replace("native", "proxy"), /line 3: invalid kind "proxy"/],
      ["bad status", good.replace("\t200\t", "\t204\t"), /line 3: invalid success_status "204"/],
      ["bad body flag", good.replace("\tno\t", "\tmaybe\t"), /line 3: invalid body_required "maybe"/],
    ];
    for (const [name, row, message] of cases) {
      it(name, () => {
        expect(() => parseCatalogue(`${header}\n${good}\n${row}\n`)).toThrow(message);
      });
    }
    it("accepts the well-formed row", () => {
      expect(parseCatalogue(`${header}\n${good}\n`)).toHaveLength(1);
    });
  });
});
