// Every one of the 187 passthrough operations, called once through Ponte: what reaches the upstream
// (method, path, query, body, headers) and what the merchant gets back.
import { beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../../src/compat/catalogue";
import { pathParamNames } from "../../src/compat/catalogue-route";
import { passthroughQueryNames } from "../../src/compat/passthrough-query";
import { call, seedTenant, type TestTenant } from "./support";
import { addFault, clearSimRequests, seedGatewayAccount, simKey, simRequests } from "./gateway-support";
import type { Passthrough } from "./bodies";

const PASSTHROUGH = CATALOGUE.filter((op) => op.kind === "passthrough");
const SAMPLE_PARAMS: Record<string, string> = {
  id: "pay_123",
  documentId: "doc_456",
  imageId: "img_789",
  paymentLinkId: "lnk_321",
  accessTokenId: "tok_654",
  phoneNumber: "11987654321",
};
const SAMPLE_QUERY = "limit=5&offset=0&x=1";
/** A query the operation takes: paging for a list, a documented filter for another operation with filters, anything for the rest (forwarded as sent). */
function sampleQuery(operationId: string): string {
  const names = passthroughQueryNames(operationId);
  if (names === null) return SAMPLE_QUERY;
  return names.has("offset") ? "limit=5&offset=0" : `${[...names][0]}=x`;
}
const ALLOWED_UPSTREAM_HEADERS = new Set(["access_token", "user-agent", "accept", "content-type", "content-length"]);

let tenant: TestTenant;
const upstreamKey = simKey();

beforeAll(async () => {
  tenant = await seedTenant();
  await seedGatewayAccount(tenant, upstreamKey);
});

describe("every passthrough operation forwards exactly what the catalogue says", () => {
  it("covers 187 operations", () => {
    expect(PASSTHROUGH).toHaveLength(187);
  });

  it.each(PASSTHROUGH.map((op) => [op.operationId, op] as const))("%s", async (_id, op) => {
    await clearSimRequests(upstreamKey);
    // The upstream answers 202 with a marker body: the merchant must see the catalogue's status and the body unchanged.
    const upstreamBody = { marker: op.operationId, nested: { list: [1, 2] } };
    await addFault(upstreamKey, {
      fault: "status",
      status: 202,
      body: upstreamBody,
      headers: { "Set-Cookie": "upstream=1", "X-Upstream-Internal": "yes" },
    });

    const surfacePath = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => SAMPLE_PARAMS[name]!);
    const variant = CATALOGUE.filter((o) => o.method === op.method && o.path === op.path).indexOf(op) > 0 ? "/" : "";
    const isGet = op.method === "GET";
    const body = op.bodyRequired ? { value: "129.90", customer: "cus_000005", nested: { a: [1, "b"] } } : undefined;
    const query = isGet ? sampleQuery(op.operationId) : "";
    const res = await call<Passthrough<unknown>>(op.method, `${surfacePath}${variant}${query ? `?${query}` : ""}`, {
      key: tenant.key,
      body,
      headers: {
        Cookie: "ponte_session=s3cret; other=1",
        "X-Forwarded-For": "203.0.113.9",
        Connection: "keep-alive",
        "X-Custom": "leak",
        Accept: "application/json",
      },
    });

    expect(res.status, JSON.stringify(res.body)).toBe(op.successStatus);
    expect(res.body.data).toEqual(upstreamBody);
    expect(res.body.meta.requestId).toBe(res.headers.get("X-Request-Id"));
    expect(res.body.meta.upstream.status).toBe(202);
    expect(typeof res.body.meta.upstream.durationMs).toBe("number");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("x-upstream-internal")).toBeNull();

    const seen = await simRequests(upstreamKey);
    expect(seen).toHaveLength(1);
    const sent = seen[0]!;
    expect(sent.method).toBe(op.upstreamMethod);
    const expectedParams = pathParamNames(op.upstreamPath);
    expect(sent.path).toBe(op.upstreamPath.replace(/\{([^}]+)\}/g, (_, name: string) => SAMPLE_PARAMS[name]!));
    expect(expectedParams.every((name) => sent.path.includes(SAMPLE_PARAMS[name]!))).toBe(true);
    expect(sent.query).toBe(query);
    expect(sent.body).toBe(body === undefined ? "" : JSON.stringify(body));
    expect(sent.headers.access_token).toBe(upstreamKey);
    expect(sent.headers["user-agent"]).toMatch(/^Ponte\/\d+\.\d+\.\d+/);
    if (body !== undefined) expect(sent.headers["content-type"]).toMatch(/^application\/json/);
    else expect(sent.headers["content-type"]).toBeUndefined();
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.headers.cookie).toBeUndefined();
    const unexpected = Object.keys(sent.headers).filter((h) => !ALLOWED_UPSTREAM_HEADERS.has(h));
    expect(unexpected).toEqual([]);
  });
});
