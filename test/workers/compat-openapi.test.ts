// The compatibility surface in the OpenAPI document: every passthrough operation under its group,
// with its permission, statuses and body; the native operations are the billing module's to add.
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../src/compat/catalogue";
import { catalogueRoute, documentedPath } from "../../src/compat/catalogue-route";
import type { OpenApiDocument, OperationObject } from "../openapi-types";
import { METHODS } from "../unit/openapi-walk";
import { call } from "./support";

async function operations() {
  const res = await call("GET", "/api/v1/openapi.json");
  expect(res.status).toBe(200);
  const doc = res.body as OpenApiDocument;
  const byId = new Map<string, { path: string; method: string; op: OperationObject }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op?.operationId) byId.set(op.operationId, { path, method, op });
    }
  }
  return { doc, byId };
}

describe("OpenAPI document", () => {
  it("lists all 208 catalogue operations: 187 passthrough and 21 native, each with its implementation", async () => {
    const { byId } = await operations();
    const passthrough = CATALOGUE.filter((o) => o.kind === "passthrough");
    const native = CATALOGUE.filter((o) => o.kind === "native");
    expect(passthrough.length + native.length).toBe(208);
    expect(native).toHaveLength(21);
    expect(passthrough.filter((o) => !byId.has(o.operationId)).map((o) => o.operationId)).toEqual([]);
    expect(native.filter((o) => !byId.has(o.operationId)).map((o) => o.operationId)).toEqual([]);
    for (const row of CATALOGUE) {
      const { op } = byId.get(row.operationId)!;
      expect(op["x-implementation"], row.operationId).toBe(row.kind);
      expect(op["x-surface"], row.operationId).toBe("public");
      expect(op["x-permission"], row.operationId).toBe(row.permission);
      // The compatibility group first; a native product operation also carries its platform group.
      expect(op.tags?.[0], row.operationId).toBe(row.group);
      expect(op.tags?.length, row.operationId).toBe(row.kind === "native" ? 2 : 1);
      expect(op.responses[String(row.successStatus)], row.operationId).toBeDefined();
    }
    // The first test generates the document (cold): seconds on a loaded machine.
  }, 30_000);

  it("documents each passthrough operation with its group, surface, permission, statuses, params and body", async () => {
    const { byId } = await operations();
    for (const row of CATALOGUE.filter((o) => o.kind === "passthrough")) {
      const { path, method, op } = byId.get(row.operationId)!;
      expect(method).toBe(row.method.toLowerCase());
      expect(path).toBe(documentedPath(row));
      expect(op.tags).toEqual([row.group]);
      expect(op["x-surface"]).toBe("public");
      expect(op["x-implementation"]).toBe("passthrough");
      expect(op["x-permission"]).toBe(row.permission);
      expect(op.security).toEqual([{ bearerAuth: [] }, { asaasAccessToken: [] }]);
      expect(Object.keys(op.responses)).toEqual(
        expect.arrayContaining([String(row.successStatus), "400", "401", "403", "404", "409", "429", "502", "504"]),
      );
      const params = (op.parameters ?? []).filter((p) => p.in === "path");
      expect(params.map((p) => p.name)).toEqual([...row.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
      for (const p of params) expect(p).toMatchObject({ required: true, schema: { type: "string" } });
      if (row.bodyRequired) {
        expect(op.requestBody!.required).toBe(true);
        expect(op.requestBody!.content["application/json"]).toBeDefined();
      } else {
        expect(op.requestBody).toBeUndefined();
      }
    }
  });

  it("documents each native operation's body as required exactly where the catalogue says so", async () => {
    const { byId } = await operations();
    for (const row of CATALOGUE.filter((o) => o.kind === "native")) {
      const { op } = byId.get(row.operationId)!;
      if (row.bodyRequired) expect(op.requestBody?.required, row.operationId).toBe(true);
      else expect(op.requestBody, row.operationId).toBeUndefined();
    }
  });

  it("lists second variants at the trailing-slash path, as the upstream's spec does", async () => {
    const { byId } = await operations();
    expect(byId.get("criar-cobranca-com-cartao-de-credito-com-dados-resumidos-na-resposta")!.path).toBe("/api/v1/lean/payments/");
    expect(byId.get("criar-parcelamento-com-cartão-de-crédito")!.path).toBe("/api/v1/installments/");
    expect(byId.get("transferir-para-conta-asaas")!.path).toBe("/api/v1/transfers/");
    expect(byId.get("transferir-para-conta-de-outra-instituicao-ou-chave-pix")!.path).toBe("/api/v1/transfers");
  });

  it("document uploads accept multipart/form-data as well as JSON", async () => {
    const { byId } = await operations();
    const uploads = ["fazer-upload-de-documentos-da-cobranca", "adicionar-uma-imagem-a-um-link-de-pagamentos", "reenviar-documentos"];
    for (const id of uploads)
      expect(Object.keys(byId.get(id)!.op.requestBody!.content).sort()).toEqual(["application/json", "multipart/form-data"]);
    expect(Object.keys(byId.get("transferir-para-conta-asaas")!.op.requestBody!.content)).toEqual(["application/json"]);
  });

  it("documents the gateway control plane as internal", async () => {
    const { byId } = await operations();
    for (const id of [
      "gateway-accounts-create",
      "gateway-accounts-list",
      "gateway-accounts-get",
      "gateway-accounts-update",
      "gateway-accounts-verify",
      "gateway-accounts-rotate-webhook-token",
      "gateway-accounts-delete",
    ]) {
      expect(byId.get(id)!.op).toMatchObject({ tags: ["gateway-accounts"], "x-surface": "internal" });
    }
    for (const id of ["gateway-api-logs-list", "gateway-api-logs-get"])
      expect(byId.get(id)!.op).toMatchObject({
        tags: ["gateway-api-logs"],
        "x-surface": "internal",
        "x-permission": "gateway_accounts.read",
      });
  });

  it("catalogueRoute gives native routes the same fields", () => {
    expect(catalogueRoute("criar-nova-cobranca")).toEqual({
      tags: ["Cobranças"],
      operationId: "criar-nova-cobranca",
      summary: "Criar nova cobrança",
      "x-surface": "public",
      "x-implementation": "native",
      "x-permission": "payments.manage",
      "x-upstream": "POST /v3/payments",
    });
    expect(documentedPath(CATALOGUE.find((o) => o.operationId === "criar-cobranca-com-cartao-de-credito")!)).toBe("/api/v1/payments/");
    expect(() => catalogueRoute("no-such-operation")).toThrow(/no-such-operation/);
  });
});
