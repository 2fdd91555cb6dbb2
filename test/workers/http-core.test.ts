// The HTTP core: envelopes on every failure, request ids, body rules, 404/405, 500 without internals.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { BASE, call, type ErrorBody, expectError, seedTenant } from "./support";
import type { ApiKey, ApiKeyWithSecret, Health, Reply, Workspace } from "./bodies";

describe("error envelope on every failure", () => {
  it("404 for an unknown path, even without credentials", async () => {
    const res = await call("GET", "/api/v1/no-such-thing");
    const error = expectError(res, 404, "NOT_FOUND");
    expect(error.message).toContain("/api/v1/no-such-thing");
  });

  it("404 outside /api/v1 too", async () => {
    expectError(await call("GET", "/wp-admin"), 404, "NOT_FOUND");
  });

  it("405 with Allow for a known path and another method", async () => {
    const res = await call("DELETE", "/api/v1/health");
    const error = expectError(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers.get("Allow")).toBe("GET, HEAD");
    expect(error.details.allowed).toEqual(["GET", "HEAD"]);
  });

  it("405 also for parameterised paths", async () => {
    const res = await call<Reply<ApiKey>>("PUT", "/api/v1/api-keys/0190f3a0-0000-7000-8000-000000000000/revoke");
    expectError(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers.get("Allow")).toBe("POST");
  });

  it("400 MALFORMED_JSON for a body that is not JSON", async () => {
    const { key } = await seedTenant();
    const res = await call<Reply<Workspace>>("POST", "/api/v1/workspaces", {
      key,
      rawBody: '{"name": "x",',
      headers: { "Content-Type": "application/json" },
    });
    expectError(res, 400, "MALFORMED_JSON");
  });

  it.each([
    ["[1,2]", "array"],
    ['"text"', "string"],
    ["42", "number"],
    ["null", "null"],
  ])("400 INVALID_BODY for a JSON %s", async (raw, kind) => {
    const { key } = await seedTenant();
    const res = await call<Reply<Workspace>>("POST", "/api/v1/workspaces", {
      key,
      rawBody: raw,
      headers: { "Content-Type": "application/json" },
    });
    const error = expectError(res, 400, "INVALID_BODY");
    expect(error.details.received).toBe(kind);
  });

  it("415 for a body that is not JSON by content type", async () => {
    const { key } = await seedTenant();
    const res = await call<Reply<Workspace>>("POST", "/api/v1/workspaces", {
      key,
      rawBody: "name=x",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    const error = expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(error.details.contentType).toBe("application/x-www-form-urlencoded");
  });

  it("413 for a JSON body over 1 MiB, before authentication", async () => {
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024) });
    const res = await call<Reply<Workspace>>("POST", "/api/v1/workspaces", {
      rawBody: big,
      headers: { "Content-Type": "application/json" },
    });
    const error = expectError(res, 413, "PAYLOAD_TOO_LARGE");
    expect(error.details.limitBytes).toBe(1024 * 1024);
  });

  it("413 when a streamed body without Content-Length passes the limit", async () => {
    const chunk = new TextEncoder().encode("x".repeat(256 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await (await buildApp()).request(
      `${BASE}/api/v1/workspaces`,
      { method: "POST", body: stream, headers: { "Content-Type": "application/json" }, duplex: "half" } as RequestInit,
      env,
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as ErrorBody).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("400 VALIDATION_FAILED names the failing fields", async () => {
    const { key } = await seedTenant();
    const res = await call<Reply<ApiKeyWithSecret>>("POST", "/api/v1/api-keys", {
      key,
      body: { name: "", permissions: ["nope.read"], extra: 1 },
    });
    const error = expectError(res, 400, "VALIDATION_FAILED");
    const paths = error.details.fields.map((f: { path: string }) => f.path);
    // An unknown field is named by its own path.
    expect(paths).toEqual(expect.arrayContaining(["body.name", "body.permissions.0", "body.extra"]));
  });

  it("400 VALIDATION_FAILED for bad query parameters", async () => {
    const { key } = await seedTenant();
    for (const q of ["limit=0", "limit=101", "offset=-1", "limit=abc"]) {
      const res = await call<Reply<Workspace[]>>("GET", `/api/v1/workspaces?${q}`, { key });
      expectError(res, 400, "VALIDATION_FAILED");
    }
  });

  it("500 for an unexpected exception, with no stack or internals", async () => {
    const app = await buildApp();
    app.get("/api/v1/__boom", () => {
      throw new Error("db password is hunter2 at /src/secret.ts:42");
    });
    const res = await app.request(`${BASE}/api/v1/__boom`, {}, env);
    const body = (await res.json()) as ErrorBody;
    expect(res.status).toBe(500);
    expect(body.error.code).toBe("INTERNAL_ERROR");
    expect(JSON.stringify(body)).not.toContain("hunter2");
    expect(JSON.stringify(body)).not.toContain("secret.ts");
    expect(body.error.requestId).toBe(res.headers.get("X-Request-Id"));
  });
});

describe("request ids", () => {
  it("every response carries X-Request-Id equal to meta.requestId, unique per request", async () => {
    const a = await call<Reply<Health>>("GET", "/api/v1/health");
    const b = await call<Reply<Health>>("GET", "/api/v1/health");
    expect(a.headers.get("X-Request-Id")).toBe(a.body.meta.requestId);
    expect(a.body.meta.requestId).not.toBe(b.body.meta.requestId);
  });
});

describe("trailing slashes", () => {
  it("reach the same route", async () => {
    const res = await call("GET", "/api/v1/health/");
    expect(res.status).toBe(200);
  });
});
