// The typed client's schema (clients/typescript/src/schema.d.ts): openapi-typescript's rendering of
// the OpenAPI document the worker serves. One function, used by `npm run client:generate`
// (scripts/generate-client.mjs) to write the file and by test/unit/typescript-client.test.ts to
// check the committed file has not drifted from the routes.
import openapiTS, { astToString } from "openapi-typescript";

export const SCHEMA_HEADER = [
  "// Generated from Ponte's OpenAPI document (GET /api/v1/openapi.json) by openapi-typescript.",
  "// Do not edit: regenerate with `npm run client:generate`; `npm test` fails when it is out of date.",
  "",
].join("\n");

/** The TypeScript declarations (paths, components, operations) for a document, as the file holds them. */
export async function renderSchema(document) {
  // Through JSON, as /api/v1/openapi.json serves it (no undefined members, no shared objects).
  const ast = await openapiTS(JSON.parse(JSON.stringify(document)), { alphabetize: false, exportType: false });
  return SCHEMA_HEADER + astToString(ast);
}
