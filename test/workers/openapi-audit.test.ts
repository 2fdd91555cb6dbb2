// What an audit of the OpenAPI document asked for (issue 12, point 6): a described top-level tag list,
// the tenant headers on every operation that honours them, the status `available` on every
// compatibility operation, platform tags on the native product operations, money that accepts numbers.
import type { OpenAPIObject, OperationObject, ParameterObject, SchemaObject } from "openapi3-ts/oas31";
import { describe, expect, it } from "vitest";
import { operationsOf as documentedOperations } from "../unit/openapi-walk";
import { call } from "./support";

const load = async () => (await call<OpenAPIObject>("GET", "/api/v1/openapi.json")).body;
const operationsOf = (doc: OpenAPIObject) =>
  documentedOperations(doc).map(({ path, method, op }) => ({
    label: `${method.toUpperCase()} ${path}`,
    op: op as OperationObject & Record<string, unknown>,
  }));

describe("the OpenAPI document after the audit", () => {
  it("lists every tag it uses once, at the top, each with a description", async () => {
    const doc = await load();
    const used = new Set(operationsOf(doc).flatMap(({ op }) => op.tags ?? []));
    const listed = (doc.tags ?? []).map((t) => t.name);
    expect(new Set(listed)).toEqual(used);
    expect(listed).toHaveLength(used.size);
    for (const tag of doc.tags ?? []) expect(tag.description?.length ?? 0, tag.name).toBeGreaterThan(20);
    // The first test generates the document (cold): seconds on a loaded machine.
  }, 30_000);

  it("documents X-Organization-Id and X-Workspace-Id (optional headers) on every operation a credential is checked on", async () => {
    const guarded = operationsOf(await load()).filter(({ op }) => op["x-permission"]);
    expect(guarded.length).toBeGreaterThan(250);
    for (const { label, op } of guarded) {
      const headers = (op.parameters as ParameterObject[] | undefined)?.filter((p) => p.in === "header").map((p) => [p.name, p.required]);
      expect(headers, label).toEqual(
        expect.arrayContaining([
          ["X-Organization-Id", false],
          ["X-Workspace-Id", false],
        ]),
      );
    }
  });

  it("every compatibility operation states the status available; native product operations carry their platform tag", async () => {
    const ops = operationsOf(await load()).filter(({ op }) => op["x-surface"] === "public" && op["x-implementation"]);
    expect(ops.length).toBeGreaterThanOrEqual(208);
    for (const { label, op } of ops) expect(op.description, label).toMatch(/^Status: available\./);
    const tagsOf = (label: string) => ops.find((o) => o.label === label)?.op.tags;
    expect(tagsOf("POST /api/v1/customers")).toEqual(["Clientes", "customers"]);
    expect(tagsOf("POST /api/v1/payment-methods/tokenize")).toEqual(["Cartão de crédito", "payment-methods"]);
  });

  it("documents money fields that take a JSON number as string or number", async () => {
    const doc = await load();
    const create = doc.components?.schemas?.CreatePayment as SchemaObject;
    const value = create.properties?.value as SchemaObject;
    expect(value.anyOf?.map((s) => (s as SchemaObject).type)).toEqual(["string", "number"]);
  });
});
