// Passthrough rules beyond the per-operation table: who may call, missing accounts, upstream error
// mapping, id translation, uploads, path safety, secrets that must never leak, and the call log.
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { createDb } from "../../src/db/client";
import { customers, payments } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import { BASE, call, type ErrorBody, expectError, seedTenant } from "./support";
import { addFault, clearFaults, seedGatewayAccount, simKey, simRequests, upstream, waitForLogs } from "./gateway-support";
import type { Passthrough } from "./bodies";

interface UploadedDocument {
  name: string;
  type: string;
  availableAfterPayment: boolean;
  file: { size: number; extension: string };
}

/** Creates a record on the simulator as the upstream (outside Ponte); answers its upstream id. */
async function upstreamRecord(key: string, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await upstream<{ id: string }>(key, "POST", path, body);
  if (res.status !== 200) throw new Error(`upstream POST ${path}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** An upstream payment (and its customer), made outside Ponte. */
async function upstreamPaymentOf(key: string): Promise<string> {
  const customer = await upstreamRecord(key, "/v3/customers", { name: "Maria", cpfCnpj: "24971563792" });
  return upstreamRecord(key, "/v3/payments", { customer, billingType: "PIX", value: 129.9, dueDate: "2030-12-01" });
}

async function connectedTenant(permissions?: readonly string[]) {
  const tenant = await seedTenant(permissions ? { permissions } : {});
  const upstreamKey = simKey();
  await seedGatewayAccount(tenant, upstreamKey);
  return { ...tenant, upstreamKey };
}

describe("authorisation", () => {
  it("401 without a key, and the upstream is never called", async () => {
    const t = await connectedTenant();
    expectError(await call("GET", "/api/v1/payments/limits"), 401, "UNAUTHORIZED");
    expect(await simRequests(t.upstreamKey)).toEqual([]);
  });

  it("a key with only gateway_accounts.read may read but gets 403 naming gateway_accounts.manage on every write", async () => {
    const t = await connectedTenant(["gateway_accounts.read"]);
    expect((await call("GET", "/api/v1/payments/limits", { key: t.key })).status).toBe(200);
    const writes: [string, string][] = [
      ["POST", "/api/v1/transfers"],
      ["PUT", "/api/v1/payments/pay_1"],
      ["DELETE", "/api/v1/lean/payments/pay_1"],
      ["POST", "/api/v1/pix/qrCodes/pay"],
      ["DELETE", "/api/v1/myAccount"],
      ["POST", "/api/v1/sandbox/payment/pay_1/confirm"],
    ];
    for (const [method, path] of writes) {
      const error = expectError(await call(method, path, { key: t.key, body: method === "DELETE" ? undefined : {} }), 403, "FORBIDDEN");
      expect(error.details.requiredPermission).toBe("gateway_accounts.manage");
    }
    expect((await simRequests(t.upstreamKey)).map((r) => r.path)).toEqual(["/v3/payments/limits"]);
  });

  it("a key without gateway permissions gets 403 naming gateway_accounts.read on reads", async () => {
    const t = await connectedTenant(["payments.manage"]);
    const error = expectError(await call("GET", "/api/v1/finance/balance", { key: t.key }), 403, "FORBIDDEN");
    expect(error.details.requiredPermission).toBe("gateway_accounts.read");
  });

  it("409 GATEWAY_ACCOUNT_MISSING when the workspace has no gateway account", async () => {
    const { key } = await seedTenant();
    const error = expectError(await call("GET", "/api/v1/finance/balance", { key }), 409, "GATEWAY_ACCOUNT_MISSING");
    expect(error.message).toContain("POST /api/v1/gateway-accounts");
  });
});

describe("upstream failures become the error envelope", () => {
  it("400 keeps the status and carries the upstream's errors", async () => {
    const t = await connectedTenant();
    const errors = [{ code: "invalid_value", description: "O valor deve ser maior que 5,00" }];
    await addFault(t.upstreamKey, { fault: "status", status: 400, body: { errors } });
    const error = expectError(await call("POST", "/api/v1/transfers", { key: t.key, body: { value: 1 } }), 400, "BAD_REQUEST");
    expect(error.details).toEqual({ upstreamStatus: 400, errors });
    expect(error.message).toContain("O valor deve ser maior que 5,00");
  });

  it("404 keeps the status (a real simulator answer)", async () => {
    const t = await connectedTenant();
    const error = expectError(await call("GET", "/api/v1/webhooks/wbh_nope", { key: t.key }), 404, "NOT_FOUND");
    expect(error.details.upstreamStatus).toBe(404);
    expect(error.details.errors[0]?.description).toBeTruthy();
  });

  it.each([401, 403])("%i from the upstream is 502 UPSTREAM_AUTH_FAILED (the merchant's own key is fine)", async (status) => {
    const t = await connectedTenant();
    await addFault(t.upstreamKey, { fault: "status", status });
    const error = expectError(await call("GET", "/api/v1/finance/balance", { key: t.key }), 502, "UPSTREAM_AUTH_FAILED");
    expect(error.details).toEqual({ upstreamStatus: status });
  });

  it("a key the upstream rejects for real is 502 UPSTREAM_AUTH_FAILED", async () => {
    const tenant = await seedTenant();
    await seedGatewayAccount(tenant, "not-an-upstream-key");
    expectError(await call("GET", "/api/v1/finance/balance", { key: tenant.key }), 502, "UPSTREAM_AUTH_FAILED");
  });

  it("429 stays 429 with the upstream's Retry-After", async () => {
    const t = await connectedTenant();
    await addFault(t.upstreamKey, { fault: "status", status: 429, headers: { "Retry-After": "17" } });
    const res = await call("GET", "/api/v1/finance/balance", { key: t.key });
    const error = expectError(res, 429, "RATE_LIMITED");
    expect(res.headers.get("Retry-After")).toBe("17");
    expect(error.details.retryAfterSeconds).toBe(17);
  });

  it.each([500, 503])("%i is 502 UPSTREAM_ERROR", async (status) => {
    const t = await connectedTenant();
    await addFault(t.upstreamKey, { fault: "status", status, body: "<html>oops</html>" });
    const error = expectError(await call("GET", "/api/v1/finance/balance", { key: t.key }), 502, "UPSTREAM_ERROR");
    expect(error.details.upstreamStatus).toBe(status);
    expect(JSON.stringify(error)).not.toContain("oops");
  });

  it("a network failure is 502 UPSTREAM_ERROR, logged with no status", async () => {
    const t = await connectedTenant();
    await addFault(t.upstreamKey, { fault: "network" });
    expectError(await call("GET", "/api/v1/finance/balance", { key: t.key }), 502, "UPSTREAM_ERROR");
    const [log] = await waitForLogs(t, 1);
    expect(log).toMatchObject({ upstream_status: null, error_code: "UPSTREAM_ERROR", operation_id: "recuperar-saldo-da-conta" });
  });

  it("no answer within the timeout is 504 UPSTREAM_TIMEOUT", async () => {
    const t = await connectedTenant();
    await addFault(t.upstreamKey, { fault: "timeout", delayMs: 5000 });
    const started = Date.now();
    const res = await (await buildApp()).request(
      `${BASE}/api/v1/finance/balance`,
      { headers: { Authorization: `Bearer ${t.key}` } },
      { ...env, UPSTREAM_TIMEOUT_MS: "100" },
    );
    await clearFaults(t.upstreamKey); // releases the hung simulator request
    expect(res.status).toBe(504);
    const body = (await res.json()) as ErrorBody;
    expect(body.error.code).toBe("UPSTREAM_TIMEOUT");
    expect(body.error.details.timeoutMs).toBe(100);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("the upstream key never leaks", () => {
  it("appears in no response body or header, success or failure, nor in the call log", async () => {
    const t = await connectedTenant();
    const responses = [await call("GET", "/api/v1/finance/balance", { key: t.key })];
    await addFault(t.upstreamKey, {
      fault: "status",
      status: 401,
      body: { errors: [{ code: "x", description: `bad key ${t.upstreamKey}` }] },
    });
    responses.push(await call("GET", "/api/v1/finance/balance", { key: t.key }));
    await addFault(t.upstreamKey, { fault: "status", status: 400, headers: { "X-Echo": t.upstreamKey } });
    responses.push(await call("POST", "/api/v1/bill", { key: t.key, body: {} }));
    expect(responses.map((r) => r.status)).toEqual([200, 502, 400]);
    for (const res of responses) {
      expect(JSON.stringify(res.body)).not.toContain(t.upstreamKey);
      for (const [, value] of res.headers) expect(value).not.toContain(t.upstreamKey);
    }
    const logs = await waitForLogs(t, 3);
    expect(JSON.stringify(logs)).not.toContain(t.upstreamKey);
    const { results } = await env.DB.prepare("SELECT upstream_key_sealed FROM gateway_accounts WHERE workspace_id = ?")
      .bind(t.workspaceId)
      .all();
    expect(JSON.stringify(results)).not.toContain(t.upstreamKey);
  });
});

describe("native id translation", () => {
  async function insertCustomer(tenant: { organizationId: string; workspaceId: string }, upstreamId: string | null) {
    const id = newId();
    const now = new Date().toISOString();
    await createDb(env.DB)
      .insert(customers)
      .values({
        id,
        organizationId: tenant.organizationId,
        workspaceId: tenant.workspaceId,
        upstreamId,
        syncStatus: upstreamId ? "synced" : "pending",
        name: "Ana",
        cpfCnpj: "24971563792",
        personType: "FISICA",
        createdAt: now,
        updatedAt: now,
      });
    return id;
  }

  it("a tenant's own customer UUID becomes its upstream id; others pass through unchanged", async () => {
    const t = await connectedTenant();
    const other = await seedTenant();
    const upstreamCustomer = await upstreamRecord(t.upstreamKey, "/v3/customers", { name: "Maria", cpfCnpj: "24971563792" });
    const mine = await insertCustomer(t, upstreamCustomer);
    const theirs = await insertCustomer(other, "cus_theirs");
    const unsynced = await insertCustomer(t, null);
    const unknown = newId();

    const res = await call<Passthrough>("GET", `/api/v1/customers/${mine}/notifications`, { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body.meta.upstream.status).toBe(200);
    // Ids that are not the tenant's reach the upstream as sent; it knows no such customer.
    for (const id of [theirs, unsynced, unknown, "cus_000005"])
      expect((await call("GET", `/api/v1/customers/${id}/notifications`, { key: t.key })).status).toBe(404);

    expect((await simRequests(t.upstreamKey)).map((r) => r.path)).toEqual([
      "/v3/customers",
      `/v3/customers/${upstreamCustomer}/notifications`,
      `/v3/customers/${theirs}/notifications`,
      `/v3/customers/${unsynced}/notifications`,
      `/v3/customers/${unknown}/notifications`,
      "/v3/customers/cus_000005/notifications",
    ]);
    const logs = await waitForLogs(t, 5);
    expect(logs[0]).toMatchObject({
      surface_path: `/api/v1/customers/${mine}/notifications`,
      upstream_path: `/v3/customers/${upstreamCustomer}/notifications`,
    });
  });

  it("translates payment UUIDs too (upper-case input accepted)", async () => {
    const t = await connectedTenant();
    const id = newId();
    const now = new Date().toISOString();
    const upstreamPayment = await upstreamPaymentOf(t.upstreamKey);
    await createDb(env.DB).insert(payments).values({
      id,
      organizationId: t.organizationId,
      workspaceId: t.workspaceId,
      upstreamId: upstreamPayment,
      syncStatus: "synced",
      customerId: newId(),
      billingType: "PIX",
      status: "PENDING",
      valueCents: 12990,
      dueDate: "2026-12-01",
      createdAt: now,
      updatedAt: now,
    });
    expect((await call("GET", `/api/v1/payments/${id.toUpperCase()}/billingInfo`, { key: t.key })).status).toBe(200);
    expect((await simRequests(t.upstreamKey)).at(-1)!.path).toBe(`/v3/payments/${upstreamPayment}/billingInfo`);
  });
});

describe("bodies and uploads", () => {
  it("multipart uploads are forwarded byte for byte with their boundary", async () => {
    const t = await connectedTenant();
    const payment = await upstreamPaymentOf(t.upstreamKey);
    const form = new FormData();
    form.append("availableAfterPayment", "true");
    form.append("type", "DOCUMENT");
    form.append("file", new File([new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00, 0xff])], "nota.pdf", { type: "application/pdf" }));
    const request = new Request(`${BASE}/api/v1/payments/${payment}/documents`, {
      method: "POST",
      body: form,
      headers: { Authorization: `Bearer ${t.key}` },
    });
    const contentType = request.headers.get("content-type")!;
    const bytes = await request.clone().arrayBuffer();
    const res = await call<Passthrough<UploadedDocument>>("POST", `/api/v1/payments/${payment}/documents`, {
      key: t.key,
      rawBody: bytes,
      headers: { "Content-Type": contentType },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The upstream stored the document it parsed from those bytes.
    expect(res.body.data).toMatchObject({
      name: "nota.pdf",
      type: "DOCUMENT",
      availableAfterPayment: true,
      file: { size: 6, extension: "pdf" },
    });
    const sent = (await simRequests(t.upstreamKey)).at(-1);
    expect(sent!.path).toBe(`/v3/payments/${payment}/documents`);
    expect(sent!.headers["content-type"]).toBe(contentType);
    expect(sent!.body).toBe(new TextDecoder().decode(bytes));
  });

  it("415 for multipart on an operation that takes JSON", async () => {
    const t = await connectedTenant();
    const res = await call("POST", "/api/v1/transfers", {
      key: t.key,
      rawBody: "--b\r\n\r\n--b--",
      headers: { "Content-Type": "multipart/form-data; boundary=b" },
    });
    expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it.each([
    ["no body", undefined, {}],
    ["an empty body with a JSON type", "", { "Content-Type": "application/json" }],
  ])("400 VALIDATION_FAILED for %s where the catalogue requires one", async (_name, rawBody, headers) => {
    const t = await connectedTenant();
    const error = expectError(
      await call("POST", "/api/v1/pix/qrCodes/decode", { key: t.key, ...(rawBody === undefined ? {} : { rawBody }), headers }),
      400,
      "VALIDATION_FAILED",
    );
    expect(error.details.fields[0]?.path).toBe("body");
    expect(await simRequests(t.upstreamKey)).toEqual([]);
  });

  it("400 INVALID_BODY for a JSON array body", async () => {
    const t = await connectedTenant();
    expectError(
      await call("POST", "/api/v1/pix/qrCodes/decode", { key: t.key, rawBody: "[1]", headers: { "Content-Type": "application/json" } }),
      400,
      "INVALID_BODY",
    );
  });
});

describe("documents the upstream answers as files", () => {
  it("a subscription's carnê (PDF) is forwarded byte for byte, outside the envelope, and logged", async () => {
    const t = await connectedTenant();
    const customer = (await upstream<{ id: string }>(t.upstreamKey, "POST", "/v3/customers", { name: "Ana", cpfCnpj: "52998224725" })).body
      .id;
    const sub = (
      await upstream<{ id: string }>(t.upstreamKey, "POST", "/v3/subscriptions", {
        customer,
        billingType: "BOLETO",
        value: 49.9,
        nextDueDate: "2027-01-31",
        cycle: "MONTHLY",
      })
    ).body;
    const direct = await env.UPSTREAM!.fetch(`https://upstream-sim.internal/v3/subscriptions/${sub.id}/paymentBook`, {
      headers: { access_token: t.upstreamKey },
    });
    const expected = new Uint8Array(await direct.arrayBuffer());

    const res = await SELF.fetch(`${BASE}/api/v1/subscriptions/${sub.id}/paymentBook`, { headers: { Authorization: `Bearer ${t.key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="carne-${sub.id}.pdf"`);
    expect(res.headers.get("x-upstream-status")).toBe("200");
    expect(Number(res.headers.get("x-upstream-duration-ms"))).toBeGreaterThanOrEqual(0);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 8))).toBe("%PDF-1.4");
    expect(bytes).toEqual(expected);

    const [log] = await waitForLogs(t, 1);
    expect(log).toMatchObject({
      operation_id: "gerar-carne-de-assinatura",
      upstream_status: 200,
      upstream_path: `/v3/subscriptions/${sub.id}/paymentBook`,
    });
  });

  it("any file type answers with the catalogue's success status; an upstream error stays the JSON envelope", async () => {
    const t = await connectedTenant();
    await addFault(t.upstreamKey, { fault: "status", status: 202, body: "PNG-bytes-é", headers: { "Content-Type": "image/png" } });
    const res = await SELF.fetch(`${BASE}/api/v1/installments/ins_1/paymentBook`, { headers: { Authorization: `Bearer ${t.key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-upstream-status")).toBe("202");
    expect(res.headers.get("content-disposition")).toBeNull();
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new TextEncoder().encode("PNG-bytes-é"));

    const missing = await call("GET", "/api/v1/subscriptions/sub_nope00000000/paymentBook", { key: t.key });
    expectError(missing, 404, "NOT_FOUND");
  });

  it("the OpenAPI document describes the carnê as application/pdf", async () => {
    const doc = (await call<OpenAPIObject>("GET", "/api/v1/openapi.json")).body;
    const contentTypes = (path: string) => Object.keys(doc.paths?.[path]?.get?.responses?.["200"]?.content ?? {});
    expect(contentTypes("/api/v1/subscriptions/{id}/paymentBook")).toEqual(["application/pdf"]);
    expect(contentTypes("/api/v1/finance/balance")).toEqual(["application/json"]);
  });
});

describe("never an open proxy", () => {
  // /v3/… and /api/v3/… are the Asaas dialect of /api/v1/… (issue 25), never a way past the catalogue:
  // with a Bearer key they are refused before any route, in the dialect's shape.
  it.each(["/api/v1/../v3/customers", "/api/v1/%2e%2e/v3/customers", "/v3/customers", "/v3/../v3/customers"])(
    "%s with Bearer → 401 in the Asaas dialect, nothing reaches the upstream",
    async (path) => {
      const t = await connectedTenant();
      const res = await call<{ errors: { code: string }[] }>("GET", path, { key: t.key });
      expect(res.status, JSON.stringify(res.body)).toBe(401);
      expect(res.body.errors.map((e) => e.code)).toEqual(["invalid_access_token"]);
      expect(await simRequests(t.upstreamKey)).toEqual([]);
    },
  );

  it.each([
    ["/api/v1/payments/pay_1/nonexistent", 404],
    ["/api/v1/payments/a%2Fb/billingInfo", 400],
    ["/api/v1/payments/..%2F..%2Fcustomers/billingInfo", 400],
    ["/api/v1/payments/http:%2F%2Fevil.example%2F/billingInfo", 400],
    ["/api/v1/payments/https%3A%2F%2Fevil.example/billingInfo", 400],
    ["/api/v1/payments/%2e%2e%2fx/billingInfo", 400],
    ["/api/v1/payments/pay_1%3Fx%3D1/billingInfo", 400],
    ["/api/v1/payments/.hidden/billingInfo", 400],
    ["/api/v1/payments/pay%00/billingInfo", 400],
  ])("%s → %i, nothing reaches the upstream", async (path, status) => {
    const t = await connectedTenant();
    const res = await call<ErrorBody>("GET", path, { key: t.key });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.error.code).toBe(status === 404 ? "NOT_FOUND" : "VALIDATION_FAILED");
    expect(await simRequests(t.upstreamKey)).toEqual([]);
  });

  it("a query string cannot change the host or path", async () => {
    const t = await connectedTenant();
    const query = "next=https://evil.example/x&@evil.example=1&path=/../../v3/accounts";
    expect((await call("GET", `/api/v1/finance/balance?${query}`, { key: t.key })).status).toBe(200);
    const [sent] = await simRequests(t.upstreamKey);
    expect(sent).toMatchObject({ path: "/v3/finance/balance", query });
  });

  it("literal paths win over parameters (GET /accounts/escrow is not GET /accounts/{id})", async () => {
    const t = await connectedTenant();
    await call("GET", "/api/v1/accounts/escrow", { key: t.key });
    await call("GET", "/api/v1/pix/addressKeys/external", { key: t.key });
    await call("PUT", "/api/v1/notifications/batch", { key: t.key, body: {} });
    expect((await simRequests(t.upstreamKey)).map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v3/accounts/escrow",
      "GET /v3/pix/addressKeys/external",
      "PUT /v3/notifications/batch",
    ]);
    const logs = await waitForLogs(t, 3);
    expect(logs.map((l) => l.operation_id)).toEqual([
      "recuperar-configuracao-padrao-da-conta-escrow",
      "consultar-chave-pix",
      "atualizar-notificacoes-existentes-em-lote",
    ]);
  });
});

describe("variants on one method+path", () => {
  it("the trailing-slash spelling reaches the same route and is logged as the second variant", async () => {
    const t = await connectedTenant();
    await call("POST", "/api/v1/transfers", { key: t.key, body: { value: "10.00" } });
    await call("POST", "/api/v1/transfers/", { key: t.key, body: { value: "10.00", walletId: "w" } });
    expect((await simRequests(t.upstreamKey)).map((r) => r.path)).toEqual(["/v3/transfers", "/v3/transfers"]);
    const logs = await waitForLogs(t, 2);
    expect(logs.map((l) => l.operation_id)).toEqual([
      "transferir-para-conta-de-outra-instituicao-ou-chave-pix",
      "transferir-para-conta-asaas",
    ]);
  });
});
