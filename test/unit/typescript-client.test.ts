// Drift check for the typed client: the committed clients/typescript/src/schema.d.ts must equal what
// `npm run client:generate` writes from the routes now. A route change without regenerating fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderSchema } from "../../scripts/lib/typescript-client.mjs";
import { buildApp, openApiDocumentOf } from "../../src/app";

const SCHEMA_FILE = new URL("../../clients/typescript/src/schema.d.ts", import.meta.url);

describe("the typed client's schema (clients/typescript/src/schema.d.ts)", () => {
  it("is what npm run client:generate writes from the current document (run it after changing a route)", async () => {
    const committed = readFileSync(SCHEMA_FILE, "utf8");
    const fresh = await renderSchema(await openApiDocumentOf(await buildApp()));
    // One comparison of the whole file; on failure, the first differing line says where.
    if (fresh !== committed) {
      const a = committed.split("\n");
      const b = fresh.split("\n");
      const at = a.findIndex((line, i) => line !== b[i]);
      expect(`line ${at + 1}: ${a[at]}`, "out of date: run `npm run client:generate`").toBe(`line ${at + 1}: ${b[at]}`);
    }
    expect(fresh).toBe(committed);
  }, 60_000);

  it("declares the operations the client flow uses", () => {
    const committed = readFileSync(SCHEMA_FILE, "utf8");
    for (const path of ['"/api/v1/customers"', '"/api/v1/payments"', '"/api/v1/payments/{id}/refund"']) expect(committed).toContain(path);
  });
});
