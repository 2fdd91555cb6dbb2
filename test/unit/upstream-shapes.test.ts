import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseCatalogue } from "../../scripts/catalogue/render.mjs";
import { parseField, parseShapes } from "../../scripts/catalogue/shapes.mjs";
import { CATALOGUE } from "../../src/compat/catalogue";
import { UPSTREAM_DTO_NAMES, UPSTREAM_OPERATION_IDS, upstreamDto, upstreamShape } from "../../src/compat/upstream-shapes";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const json = readFileSync(resolve(root, "scripts/catalogue/upstream-shapes.json"), "utf8");
const catalogue = parseCatalogue(readFileSync(resolve(root, "scripts/catalogue/operations.tsv"), "utf8"));

describe("upstream shapes", () => {
  it("committed src/compat/upstream-shapes.ts is what upstream-shapes.json generates (npm run shapes:check)", () => {
    const out = execFileSync(process.execPath, [resolve(root, "scripts/generate-shapes.mjs"), "--check"], { cwd: root, encoding: "utf8" });
    expect(out).toContain("up to date");
  });

  it("has a shape for each of the 208 catalogue operations, with the catalogue's upstream method and path", () => {
    expect(UPSTREAM_OPERATION_IDS).toHaveLength(208);
    for (const op of CATALOGUE) {
      const shape = upstreamShape(op.operationId);
      expect(shape, op.operationId).toMatchObject({ method: op.upstreamMethod, path: op.upstreamPath });
      if (shape?.dto) expect(UPSTREAM_DTO_NAMES).toContain(shape.dto);
    }
  });

  it("reads which fields are money, dates, date-times, ids and nested DTOs", () => {
    const payment = upstreamDto("PaymentGetResponse");
    expect(payment.money).toEqual(expect.arrayContaining(["value", "netValue", "originalValue", "interestValue"]));
    expect(payment.dates).toEqual(expect.arrayContaining(["dateCreated", "dueDate", "paymentDate", "creditDate"]));
    expect(payment.ids).toEqual(expect.arrayContaining(["id", "customer", "subscription", "installment"]));
    expect(payment.nested).toMatchObject({ refunds: "PaymentRefundGetResponse", discount: "PaymentDiscount" });
    expect(upstreamDto("PaymentRefundGetResponse").dateTimes).toEqual(["dateCreated", "effectiveDate"]);
    expect(upstreamDto("FinanceBalanceResponse").fields).toEqual([{ name: "balance", kind: "money", array: false, required: true }]);
    expect(upstreamShape("recuperar-extrato")).toMatchObject({ response: "list", dto: "FinancialTransactionGetResponse" });
    expect(upstreamShape("recuperar-extrato")?.filters).toEqual(["startDate", "finishDate", "order"]);
    expect(upstreamShape("remover-cliente")).toMatchObject({ response: "delete", dto: "CustomerDeleteResponse" });
    expect(upstreamShape("gerar-carne-de-parcelamento")).toMatchObject({ response: "file", dto: undefined });
    expect(upstreamShape("transferir-para-conta-asaas")?.dto).toBe("TransferSaveInternalTransferResponse");
    expect(upstreamShape("nope")).toBeUndefined();
    expect(() => upstreamDto("Nope")).toThrow(/unknown upstream DTO/);
  });

  it("refuses a source whose operations drift from the catalogue or name unknown DTOs, enums or fields", () => {
    const src = JSON.parse(json);
    src.operations["listar-clientes"].upstream = "GET /v3/clients";
    src.operations["recuperar-saldo-da-conta"].response = "object Nope";
    delete src.operations["remover-cliente"];
    src.dtos.FinanceBalanceResponse.fields = "balance:enum:Nope value:Mystery";
    let message = "";
    try {
      parseShapes(JSON.stringify(src), catalogue);
    } catch (err) {
      message = String(err);
    }
    expect(message).toContain("listar-clientes: upstream GET /v3/clients but the catalogue says GET /v3/customers");
    expect(message).toContain("FinanceBalanceResponse.balance: unknown enum Nope");
    expect(message).toContain("FinanceBalanceResponse.value: unknown dto Mystery");
    expect(message).toContain("recuperar-saldo-da-conta: unknown dto Nope");
    expect(message).toContain("remover-cliente: no shape");
    expect(() => parseShapes(json, catalogue)).not.toThrow();
  });

  it("parses field tokens", () => {
    expect(parseField("refunds:PaymentRefundGetResponse[]")).toEqual({
      name: "refunds",
      kind: "object",
      of: "PaymentRefundGetResponse",
      array: true,
      required: false,
    });
    expect(parseField("status:enum:PaymentStatus!")).toEqual({
      name: "status",
      kind: "enum",
      of: "PaymentStatus",
      array: false,
      required: true,
    });
    expect(() => parseField("value")).toThrow(/name:type/);
    expect(() => parseField("value:float-ish")).toThrow(/unknown type/);
  });
});
