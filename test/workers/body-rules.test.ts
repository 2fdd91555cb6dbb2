// Body rules (issue 10, finding 3): an unsupported type is 415, an empty body is no body (an
// optional body reads as `{}`, a required one is 400 VALIDATION_FAILED), JSON nests at most
// LIMITS.maxJsonDepth deep, and a framework-thrown 4xx is never a 500.
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/config";
import { createPayment, createCustomer, seedBillingTenant, sim } from "./billing-support";
import { call, expectError, seedTenant } from "./support";
import type { Reply, Customer, Organization, Payment } from "./bodies";

const form = () => {
  const f = new FormData();
  f.set("name", "Nova Loja");
  return f;
};
const nested = (depth: number) => `{"name":"Loja","x":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;

describe("content types", () => {
  it("multipart/form-data to a JSON operation: 415 UNSUPPORTED_MEDIA_TYPE, the record unchanged", async () => {
    const t = await seedTenant();
    const err = expectError(
      await call<Reply<Organization>>("PATCH", "/api/v1/organizations/current", { key: t.key, rawBody: form() }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    expect(err.details.contentType).toMatch(/^multipart\/form-data/);
    expect((await call<Reply<Organization>>("GET", "/api/v1/organizations/current", { key: t.key })).body.data.name).toBe("Acme Ltda");
  });

  it("a form-encoded or text body: 415 naming the type", async () => {
    const t = await seedTenant();
    for (const type of ["application/x-www-form-urlencoded", "text/plain"]) {
      const res = await call<Reply<Organization>>("PATCH", "/api/v1/organizations/current", {
        key: t.key,
        rawBody: "name=Nova",
        headers: { "Content-Type": type },
      });
      expect(expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE").details.contentType).toBe(type);
    }
  });
});

describe("an empty body", () => {
  it("refund requires a body, as the catalogue says: an empty POST is 400 naming it, `{}` refunds the whole payment", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const payment = (await createPayment(t, customer.id, { value: "100.00" })).body.data;
    await sim("POST", `/v3/sandbox/payment/${payment.upstreamId}/confirm`, {}, t.upstreamKey);
    // How older HTTP clients send a POST without a body.
    const empty = await call("POST", `/api/v1/payments/${payment.id}/refund`, {
      key: t.key,
      rawBody: "",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(expectError(empty, 400, "VALIDATION_FAILED").details.fields.map((f) => f.path)).toEqual(["body"]);
    expect((await call<Reply<Payment>>("GET", `/api/v1/payments/${payment.id}`, { key: t.key })).body.data.status).toBe("RECEIVED");
    const res = await call<Reply<Payment>>("POST", `/api/v1/payments/${payment.id}/refund`, { key: t.key, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "REFUNDED", refundedValue: "100.00" });
  });

  it("on an operation whose body is required is 400 VALIDATION_FAILED naming the body", async () => {
    const t = await seedTenant();
    for (const headers of [
      {} as Record<string, string>,
      { "Content-Type": "application/x-www-form-urlencoded" },
      { "Content-Type": "application/json" },
      { "Content-Type": "multipart/form-data; boundary=x" },
    ]) {
      const err = expectError(
        await call<Reply<Organization>>("PATCH", "/api/v1/organizations/current", { key: t.key, rawBody: "", headers }),
        400,
        "VALIDATION_FAILED",
      );
      expect(err.details.fields).toEqual([{ path: "body", message: "required: a JSON object", code: "invalid_type" }]);
    }
    expect((await call<Reply<Organization>>("GET", "/api/v1/organizations/current", { key: t.key })).body.data.name).toBe("Acme Ltda");
  });
});

describe("JSON nesting", () => {
  it(`${LIMITS.maxJsonDepth} levels pass the guard; one more is 400 INVALID_BODY naming the limit`, async () => {
    const t = await seedTenant();
    const atLimit = await call<Reply<Organization>>("PATCH", "/api/v1/organizations/current", {
      key: t.key,
      rawBody: nested(LIMITS.maxJsonDepth),
      headers: { "Content-Type": "application/json" },
    });
    // Past the guard: the route's own validation names the unknown field.
    expect(expectError(atLimit, 400, "VALIDATION_FAILED").details.fields[0]).toMatchObject({ path: "body.x", message: "unknown field" });
    const over = await call<Reply<Organization>>("PATCH", "/api/v1/organizations/current", {
      key: t.key,
      rawBody: nested(LIMITS.maxJsonDepth + 1),
      headers: { "Content-Type": "application/json" },
    });
    expect(expectError(over, 400, "INVALID_BODY").details).toEqual({ maxDepth: LIMITS.maxJsonDepth });
    // 100 000 levels: refused without parsing (no stack overflow, no 500).
    const deep = await call<Reply<Customer>>("POST", "/api/v1/customers", {
      key: t.key,
      rawBody: `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
      headers: { "Content-Type": "application/json" },
    });
    expectError(deep, 400, "INVALID_BODY");
  });

  it("brackets inside strings are not nesting", async () => {
    const t = await seedTenant();
    const name = `Loja ${"[{".repeat(40)}`;
    const res = await call<Reply<Organization>>("PATCH", "/api/v1/organizations/current", { key: t.key, body: { name } });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe(name);
  });
});
