// The 404/405 answer's path matching (src/http/error-handler.ts): which methods a path allows, compared segment by
// segment with the app's routes. The worker tests (http-core) check the envelopes; this checks the matching itself.
import { describe, expect, it } from "vitest";
import { allowedMethods, pathMatchers } from "../../src/http/error-handler";

const matchers = pathMatchers([
  { method: "GET", path: "/api/v1/plans" },
  { method: "POST", path: "/api/v1/plans" },
  { method: "GET", path: "/api/v1/plans/:id" },
  { method: "PATCH", path: "/api/v1/plans/:id" },
  { method: "POST", path: "/api/v1/plans/:id/archive" },
  { method: "POST", path: "/v3/payments/" },
  { method: "ALL", path: "/api/v1/anything" },
  { method: "GET", path: "/api/v1/files/*" },
  { method: "GET", path: "/api/v1/a.b" },
]);

describe("404/405 path matching", () => {
  it("lists a literal path's methods, HEAD with GET, sorted", () => {
    expect(allowedMethods(matchers, "/api/v1/plans")).toEqual(["GET", "HEAD", "POST"]);
  });

  it("a :param takes one non-empty segment, nothing more", () => {
    expect(allowedMethods(matchers, "/api/v1/plans/pln_1")).toEqual(["GET", "HEAD", "PATCH"]);
    expect(allowedMethods(matchers, "/api/v1/plans/pln_1/archive")).toEqual(["POST"]);
    expect(allowedMethods(matchers, "/api/v1/plans//archive")).toEqual([]);
    expect(allowedMethods(matchers, "/api/v1/plans/pln_1/other")).toEqual([]);
    expect(allowedMethods(matchers, "/api/v1/plans/a/b")).toEqual([]);
  });

  it("a route's trailing slash does not count; characters are literal", () => {
    expect(allowedMethods(matchers, "/v3/payments")).toEqual(["POST"]);
    expect(allowedMethods(matchers, "/api/v1/a.b")).toEqual(["GET", "HEAD"]);
    expect(allowedMethods(matchers, "/api/v1/axb")).toEqual([]);
  });

  it("catch-alls name no method of their own", () => {
    expect(allowedMethods(matchers, "/api/v1/anything")).toEqual([]);
    expect(allowedMethods(matchers, "/api/v1/files/x")).toEqual([]);
  });
});
