// One rule for query strings (issue 27 #7): every operation of the OpenAPI document answers 400
// VALIDATION_FAILED naming a query parameter it does not declare, in the Bearer envelope and in the
// Asaas dialect's error shape. Generated from the document, so a new route is covered untouched. The
// one exception: passthrough operations whose upstream shape documents no query forward it as sent.
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../src/compat/catalogue";
import { passthroughQueryNames } from "../../src/compat/passthrough-query";
import { apiOperations, fillPath } from "./openapi-operations";
import { API_V1_CLIENT, asaasCall } from "./asaas-support";
import { call, expectError, seedTenant } from "./support";
import { signUpUser } from "./auth-support";
import { seedBillingTenant } from "./billing-support";

const UNKNOWN = "zz_unknown";
const OPERATIONS = await apiOperations();
const PASSTHROUGH = new Map(CATALOGUE.filter((op) => op.kind === "passthrough").map((op) => [op.operationId, op]));
/** Passthrough operations whose shape documents no query: forwarded as sent (docs/concepts.md "One rule for query strings"). */
const FORWARDED = OPERATIONS.filter((op) => PASSTHROUGH.has(op.operationId) && passthroughQueryNames(op.operationId) === null);
const CHECKED = OPERATIONS.filter((op) => !FORWARDED.includes(op));

describe("an undeclared query parameter", () => {
  it("is a 400 naming it on every operation of the document (but the passthroughs whose shape documents no query)", async () => {
    expect(CHECKED.length).toBeGreaterThan(150);
    // Every passthrough list is checked (offset and limit at least).
    expect(FORWARDED.filter((op) => passthroughQueryNames(op.operationId)?.has("offset"))).toEqual([]);
    const t = await seedBillingTenant({ webhooks: false });
    const { cookie } = await signUpUser();
    const failures: string[] = [];
    for (let i = 0; i < CHECKED.length; i += 25) {
      await Promise.all(
        CHECKED.slice(i, i + 25).map(async (op) => {
          const path = `${fillPath(op, (name) => (name === "gatewayAccountId" ? t.gatewayAccountId : crypto.randomUUID()))}?${UNKNOWN}=1`;
          const session = op.security.length > 0 && !op.security.includes("bearerAuth");
          const headers: Record<string, string> = session ? { Cookie: cookie, Origin: "http://ponte.test" } : {};
          // The upstream's own webhook call authenticates with the account's token before anything else.
          if (op.path.startsWith("/api/v1/webhooks/upstream/")) headers["asaas-access-token"] = t.webhookToken;
          const res = await call<{ error?: { code: string; details: { fields?: { path: string; code: string }[] } } }>(op.method, path, {
            key: session ? null : t.key,
            headers,
          });
          const fields = res.body?.error?.details.fields ?? [];
          if (
            res.status !== 400 ||
            JSON.stringify(fields) !==
              JSON.stringify([{ path: `query.${UNKNOWN}`, message: "unknown parameter", code: "unrecognized_keys" }])
          )
            failures.push(`${op.label}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
        }),
      );
    }
    expect(failures).toEqual([]);
  });

  it("names every unknown parameter once, and the declared ones still pass (the audit's ?groupby=plan)", async () => {
    const t = await seedTenant();
    const res = await call("GET", "/api/v1/profitability?groupby=plan&from=2026-01-01&Limit=1&groupby=month", { key: t.key });
    const err = expectError(res, 400, "VALIDATION_FAILED");
    expect(err.details.fields.map((f) => f.path)).toEqual(["query.groupby", "query.Limit"]);
    expect((await call("GET", "/api/v1/profitability?groupBy=plan", { key: t.key })).status).toBe(200);
    expect((await call("GET", "/api/v1/formulas?limit=5&offset=0", { key: t.key })).status).toBe(200);
  });

  it("comes after authentication: no credential is still 401", async () => {
    expectError(await call("GET", `/api/v1/dashboard?${UNKNOWN}=1`), 401, "UNAUTHORIZED");
  });

  it("in the Asaas dialect is Asaas's error shape naming it; the key in the query string is not read", async () => {
    const t = await seedTenant();
    const client = API_V1_CLIENT;
    const res = await asaasCall(client, t.key, "GET", `/customers?nome=Ana&access_token=${t.key}`);
    expect(res.status).toBe(400);
    const text = JSON.stringify(res.body);
    expect(text).toContain("query.nome");
    expect(text).toContain("query.access_token");
    expect(text).not.toContain(t.key);
  });

  it("on a passthrough list is checked against its upstream shape's filters; other passthroughs forward it", async () => {
    const t = await seedTenant();
    const err = expectError(await call("GET", "/api/v1/transfers?typo=1&type=PIX", { key: t.key }), 400, "VALIDATION_FAILED");
    expect(err.details.fields.map((f) => f.path)).toEqual(["query.typo"]);
    // No gateway account here: a documented filter gets past the rule to the gateway check.
    expectError(await call("GET", "/api/v1/transfers?type=PIX&offset=0&limit=5", { key: t.key }), 409, "GATEWAY_ACCOUNT_MISSING");
    expectError(
      await call("GET", "/api/v1/pix/addressKeys/external?key=a@b.co&type=EMAIL", { key: t.key }),
      409,
      "GATEWAY_ACCOUNT_MISSING",
    );
  });
});
