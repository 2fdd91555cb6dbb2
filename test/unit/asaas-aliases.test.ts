// Issue 25: the methods the upstream accepts besides the catalogue's own come from one table generated
// with the catalogue (CATALOGUE_ALIASES, rules in scripts/catalogue/render.mjs). Walks that table: each
// alias reaches its operation's own route, none shadows a route Ponte serves, and the entry tells the
// dialect's layouts apart with a prefix and a header check.
import { describe, expect, it } from "vitest";
import { buildApp, openApiDocumentOf } from "../../src/app";
import { aliasFor, asaasLayoutOf, operationFor, serveAsaas } from "../../src/compat/asaas-dialect/request";
import { CATALOGUE_ALIASES } from "../../src/compat/catalogue";

const app = await buildApp();

/** A template filled with sample ids, one distinct value per parameter. */
const filled = (template: string) => {
  let n = 0;
  return template.replace(/\{[^}]+\}|:[A-Za-z_]+/g, () => `rec_${++n}abc`);
};

describe("Asaas method aliases (CATALOGUE_ALIASES)", () => {
  it("every alias reaches its own operation at that operation's method and path", () => {
    expect(CATALOGUE_ALIASES.length).toBeGreaterThan(20);
    for (const alias of CATALOGUE_ALIASES) {
      const path = filled(alias.path);
      expect(operationFor(alias.method, path), `${alias.method} ${alias.path} is the catalogue's own`).toBeNull();
      const target = aliasFor(alias.method, path);
      expect(target?.operationId, `${alias.method} ${alias.path}`).toBe(alias.operationId);
      const reached = target ? operationFor(target.method, target.path) : null;
      expect(reached?.op.operationId, `${alias.method} ${alias.path} → ${target?.method} ${target?.path}`).toBe(alias.operationId);
      // The ids travel: every sample value of the alias path is in the target path.
      for (const value of path.match(/rec_\d+abc/g) ?? []) expect(target?.path).toContain(value);
    }
  });

  it("covers what issue 25 found refused, and the spellings Ponte already accepted", () => {
    const reach = (method: string, path: string) => aliasFor(method, path)?.operationId;
    expect(reach("POST", "/api/v1/subscriptions/sub_1")).toBe("atualizar-assinatura-existente");
    expect(reach("POST", "/api/v1/webhooks/wh_1")).toBe("atualizar-webhook-existente");
    expect(reach("POST", "/api/v1/invoices/inv_1")).toBe("atualizar-nota-fiscal");
    expect(aliasFor("POST", "/api/v1/transfers/t-1/cancel")).toMatchObject({ method: "DELETE", path: "/api/v1/transfers/t-1/cancel" });
    expect(aliasFor("PUT", "/api/v1/myAccount/commercialInfo")).toMatchObject({ method: "POST", path: "/api/v1/myAccount/commercialInfo" });
    expect(aliasFor("POST", "/api/v1/customers/cus_1")).toMatchObject({ method: "PUT", path: "/api/v1/customers/cus_1" });
    expect(aliasFor("POST", "/api/v1/payments/pay_1")).toMatchObject({ method: "PUT", path: "/api/v1/payments/pay_1" });
    expect(aliasFor("DELETE", "/api/v1/subscriptions/sub_1")).toMatchObject({ method: "POST", path: "/api/v1/subscriptions/sub_1/cancel" });
    expect(aliasFor("POST", "/api/v1/creditCard/tokenizeCreditCard")).toMatchObject({
      method: "POST",
      path: "/api/v1/payment-methods/tokenize",
    });
  });

  it("never rewrites a method and path the catalogue or Ponte serves itself", () => {
    expect(aliasFor("POST", "/api/v1/payments/simulate")).toBeNull(); // a literal beside POST /payments/{id}
    expect(aliasFor("POST", "/api/v1/subscriptions/sub_1/cancel")).toBeNull();
    const routes = app.routes.filter((r) => r.method !== "ALL" && !r.path.endsWith("*") && r.path.startsWith("/api/v1/"));
    expect(routes.length).toBeGreaterThan(200);
    const shadowed = routes.filter((r) => aliasFor(r.method, filled(r.path)) !== null).map((r) => `${r.method} ${r.path}`);
    expect(shadowed).toEqual([]);
  });
});

describe("the dialect's layouts at the entry", () => {
  const req = (path: string, headers: Record<string, string> = {}) => new Request(`https://ponte.example${path}`, { headers });

  it("/v3 and /api/v3 are the dialect whatever the headers; /api/v1 only with access_token (or access-token) and no Authorization", () => {
    expect(asaasLayoutOf(req("/v3/customers?limit=1"))).toBe("/v3");
    expect(asaasLayoutOf(req("/v3", { Authorization: "Bearer k" }))).toBe("/v3");
    expect(asaasLayoutOf(req("/api/v3/payments/pay_1"))).toBe("/api/v3");
    expect(asaasLayoutOf(req("/api/v1/customers", { access_token: "k" }))).toBe("/api/v1");
    expect(asaasLayoutOf(req("/api/v1/customers", { "Access-Token": "k" }))).toBe("/api/v1");
    expect(asaasLayoutOf(req("/api/v1/customers", { access_token: "k", Authorization: "Bearer k" }))).toBeNull();
    expect(asaasLayoutOf(req("/api/v1/customers"))).toBeNull();
    expect(asaasLayoutOf(req("/v31/customers"))).toBeNull();
    expect(asaasLayoutOf(req("/console/v3"))).toBeNull();
  });
});

describe("serveAsaas: every error of a dialect request in Asaas's shape", () => {
  const req = () => new Request("https://ponte.example/v3/customers", { headers: { access_token: "ponte_test_x" } });

  it("an answer in Ponte's envelope from outside the app's middleware (a route group that failed to load)", async () => {
    const loadFailed = Response.json(
      { error: { code: "INTERNAL_ERROR", message: "An unexpected error occurred.", details: {}, requestId: "req_abc" } },
      { status: 500 },
    );
    let routed: Request | undefined;
    const res = await serveAsaas(req(), "/v3", (r) => {
      routed = r;
      return loadFailed;
    });
    expect(new URL(routed?.url ?? "").pathname).toBe("/api/v1/customers");
    expect(res.status).toBe(500);
    expect(res.headers.get("X-Request-Id")).toBe("req_abc");
    expect(await res.json()).toEqual({ errors: [{ code: "internal_error", description: "An unexpected error occurred." }] });
  });

  it("a failure thrown on the way: a 500 with a fresh request id and nothing of the failure", async () => {
    const res = await serveAsaas(req(), "/v3", () => {
      throw new Error("secret detail");
    });
    expect(res.status).toBe(500);
    expect(res.headers.get("X-Request-Id")).toMatch(/^req_/);
    const body = (await res.json()) as { errors: { code: string; description: string }[] };
    expect(body.errors).toEqual([{ code: "internal_error", description: expect.not.stringContaining("secret") }]);
  });
});

describe("the OpenAPI document", () => {
  it("says where the dialect is served: the asaasAccessToken scheme names /v3, /api/v3 and both header spellings", async () => {
    const scheme = (await openApiDocumentOf(app)).components?.securitySchemes?.asaasAccessToken as { name?: string; description?: string };
    expect(scheme.name).toBe("access_token");
    for (const mention of ["`/v3/<path>`", "`/api/v3/<path>`", "`access-token`", "https://api.asaas.com/v3"]) {
      expect(scheme.description).toContain(mention);
    }
  });
});
