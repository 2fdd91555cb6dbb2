// The generated OpenAPI document (208-operation surface included) is a valid OpenAPI 3.1 document.
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "../openapi-types";

// The app is typed against workers-types, which the Node type project does not load: import it untyped.
const appModule = "../../src/app";
const { buildApp, openApiDocumentOf } = (await import(appModule)) as {
  buildApp: () => Promise<unknown>;
  openApiDocumentOf: (app: unknown) => Promise<OpenApiDocument>;
};

describe("OpenAPI document", () => {
  it("validates against the OpenAPI 3.1 schema", async () => {
    // The document as served: generated, then finished (tenant headers, tag list, availability).
    const doc = await openApiDocumentOf(await buildApp());
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does reject a broken document (a parameter without `in`).
    const broken = JSON.parse(JSON.stringify(doc));
    broken.paths["/api/v1/finance/balance"].get.parameters = [{ name: "x" }];
    expect((await new Validator().validate(broken)).valid).toBe(false);
  }, 60_000); // building (~2 s) and validating (~3 s) a 1.8 MB document, on a shared 2-core machine
});
