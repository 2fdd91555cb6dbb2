// What the API reference (/api/v1/docs) shows for every operation, read from the finished document
// (openApiDocumentOf: what GET /api/v1/openapi.json serves): it stays valid OpenAPI 3.1, and each
// operation states its permission, has an example on its JSON body and success response, and its
// error responses carry error-envelope examples for every code of their status.
import { Validator } from "@seriousme/openapi-schema-validator";
import type { ExampleObject, MediaTypeObject, OpenAPIObject, ReferenceObject, ResponseObject } from "openapi3-ts/oas31";
import { describe, expect, it } from "vitest";
import { buildApp, openApiDocumentOf } from "../../src/app";
import { ERROR_STATUS } from "../../src/http/errors";
import { operationsOf } from "./openapi-walk";

const doc = JSON.parse(JSON.stringify(await openApiDocumentOf(await buildApp()))) as OpenAPIObject;
const operations = operationsOf(doc);
const json = (r: ResponseObject | ReferenceObject | undefined) => (r as ResponseObject | undefined)?.content?.["application/json"];
const exampleValue = (e: ExampleObject | ReferenceObject) =>
  "$ref" in e ? doc.components?.examples?.[e.$ref.replace("#/components/examples/", "")] : e;

describe("the finished OpenAPI document (the reference's source)", () => {
  it("is valid OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  }, 60_000);

  it("states each operation's permission in its description, as x-permission says", () => {
    expect(operations.length).toBeGreaterThan(250);
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      const permission = op["x-permission"] as string | undefined;
      if (permission) expect(op.description, where).toContain(`**Permission:** \`${permission}\``);
      else expect(op.description, where).toMatch(/\*\*Permission:\*\* none/);
    }
  });

  it("gives every JSON request body and success response an example", () => {
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      const body = (op.requestBody as { content?: Record<string, MediaTypeObject> } | undefined)?.content?.["application/json"];
      if (body) expect(body.example ?? body.examples, `${where} body`).toBeDefined();
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const media = json(response as ResponseObject);
        if (status.startsWith("2") && media) expect(media.example ?? media.examples, `${where} ${status}`).toBeDefined();
      }
    }
  });

  it("documents 400/401/403/404/429 (and 409 on writes) with one error-envelope example per code on credential-checked operations", () => {
    for (const { path, method, op } of operations.filter(({ op }) => op["x-permission"])) {
      const where = `${method.toUpperCase()} ${path}`;
      const statuses = ["400", "401", "403", "404", "429", ...(method === "get" ? [] : ["409"])];
      for (const status of statuses) {
        const examples = json(op.responses?.[status])?.examples ?? {};
        const codes = Object.entries(ERROR_STATUS)
          .filter(([, s]) => String(s) === status)
          .map(([code]) => code);
        expect(Object.keys(examples).length, `${where} ${status}`).toBeGreaterThan(0);
        for (const [name, example] of Object.entries(examples)) {
          const value = (exampleValue(example) as ExampleObject | undefined)?.value as {
            error: { code: string; details: Record<string, unknown> };
          };
          expect(codes, `${where} ${status} ${name}`).toContain(value.error.code);
          if (value.error.code === "FORBIDDEN") expect(value.error.details.requiredPermission).toBe(op["x-permission"]);
        }
      }
    }
  });

  it("builds examples from the schema: the refund's body and the payment it answers", () => {
    const refund = doc.paths?.["/api/v1/payments/{id}/refund"]?.post;
    expect(
      (refund?.requestBody as { content?: Record<string, MediaTypeObject> } | undefined)?.content?.["application/json"]?.example,
    ).toEqual({
      value: "129.90",
      description: "Pedido 1001",
    });
    const answer = json(refund?.responses?.["200"])?.example as { data: Record<string, unknown>; meta: Record<string, unknown> };
    expect(answer.data).toMatchObject({ object: "payment", billingType: "PIX", value: "129.90", status: "PENDING" });
    expect(answer.meta.requestId).toMatch(/^req_/);
  });
});
