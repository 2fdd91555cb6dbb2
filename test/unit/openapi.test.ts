// The OpenAPI document is generated from the routes; it must be valid OpenAPI 3.1 and complete.
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { buildApp, OPENAPI_CONFIG } from "../../src/app";
import { operationsOf, responseOf, resolveSchema } from "./openapi-walk";

const doc = (await buildApp()).getOpenAPI31Document(OPENAPI_CONFIG) as OpenAPIObject;
const operations = operationsOf(doc);

describe("OpenAPI document", () => {
  it("is valid OpenAPI 3.1 by the maintained JSON-schema validator", async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  }, 30_000);

  it("carries version 1.0.0 and the security schemes", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(Object.keys(doc.components?.securitySchemes ?? {})).toEqual(expect.arrayContaining(["bearerAuth", "sessionCookie"]));
  });

  it("gives every operation an operationId, a tag, security and x-surface; ids are unique", () => {
    expect(operations.length).toBeGreaterThan(10);
    const ids = new Set<string>();
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, where).toBeTruthy();
      expect(ids.has(op.operationId ?? ""), `duplicate ${op.operationId}`).toBe(false);
      ids.add(op.operationId ?? "");
      expect(op.tags?.length, where).toBeGreaterThan(0);
      expect(Array.isArray(op.security), where).toBe(true);
      expect(["public", "internal"], where).toContain(op["x-surface"]);
    }
  });

  it("documents error responses with the error envelope on authenticated operations", () => {
    for (const { path, method, op } of operations) {
      if (!op.security?.length) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const unauthorized = responseOf(op, "401");
      expect(unauthorized, where).toBeDefined();
      // Operations a bearer key can call name their permission; the auth group's session-only routes act on the user, not a tenant.
      if (op.security.some((s) => "bearerAuth" in s)) expect(op["x-permission"], where).toMatch(/^[a-z_]+\.(read|manage)$/);
      const schema = unauthorized?.content?.["application/json"]?.schema;
      expect(schema && "$ref" in schema ? schema.$ref : undefined, where).toBe("#/components/schemas/Error");
      expect(resolveSchema(doc, schema).properties, where).toHaveProperty("error");
    }
  });
});
