// Issue 25: the Asaas dialect at the upstream's own URL layout. A client library built for Asaas takes
// a host (`https://api.asaas.com`) and prefixes `/v3/`, or the legacy `/api/v3/`, or a base URL ending
// in `/v3`; it sends the key as `access_token` or `Access-Token`, and uses the methods the upstream
// accepts. Each layout and header spelling is exercised end to end against the simulator.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { dueDate, seedBillingTenant, simRequests } from "./billing-support";
import { type AsaasClient, asaasCall, type Json } from "./asaas-support";
import { BASE, seedTenant } from "./support";

const ok = (res: { status: number; body: Json }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).not.toHaveProperty("meta");
  expect(res.body).not.toHaveProperty("error");
  return res.body;
};

/** An error in the dialect's shape, with Ponte's request id header. */
const dialectError = (res: { status: number; headers: Headers; body: Json }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual({ errors: [{ code, description: expect.any(String) }] });
  expect(res.headers.get("X-Request-Id")).toMatch(/^req_/);
  return res.body.errors[0].description as string;
};

const LAYOUTS = ["/v3", "/api/v3", "/api/v1"];
const HEADERS = ["access_token", "Access-Token"];
const CLIENTS: AsaasClient[] = LAYOUTS.flatMap((prefix) => HEADERS.map((header) => ({ prefix, header })));

describe.each(CLIENTS)("Asaas layout $prefix with $header", (client) => {
  it("customers: create, get, list, update by POST, delete", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const created = ok(await asaasCall(client, t.key, "POST", "/customers", { name: "Maria Silva", cpfCnpj: "52998224725" }));
    expect(created).toMatchObject({ object: "customer", id: expect.stringMatching(/^cus_/), name: "Maria Silva", cpfCnpj: "52998224725" });
    expect(ok(await asaasCall(client, t.key, "GET", `/customers/${created.id}`))).toMatchObject({ id: created.id, name: "Maria Silva" });
    const list = ok(await asaasCall(client, t.key, "GET", "/customers?limit=5"));
    expect(list).toMatchObject({ object: "list", totalCount: 1, limit: 5, offset: 0, hasMore: false });
    expect(list.data.map((c: Json) => c.id)).toEqual([created.id]);
    const updated = ok(await asaasCall(client, t.key, "POST", `/customers/${created.id}`, { email: "maria@example.com" }));
    expect(updated).toMatchObject({ id: created.id, email: "maria@example.com" });
    const stored = await env.DB.prepare("SELECT email FROM customers WHERE upstream_id = ?").bind(created.id).first<Json>();
    expect(stored?.email).toBe("maria@example.com");
    expect(ok(await asaasCall(client, t.key, "DELETE", `/customers/${created.id}`))).toEqual({ deleted: true, id: created.id });
    expect(ok(await asaasCall(client, t.key, "GET", `/customers/${created.id}`))).toMatchObject({ id: created.id, deleted: true });
  }, 30_000); // a dozen requests through the worker and the simulator: slow on a loaded machine

  it("a PIX charge and its QR code; a subscription updated by POST; a passthrough read", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const customer = ok(await asaasCall(client, t.key, "POST", "/customers", { name: "João", cpfCnpj: "52998224725" }));
    const charge = ok(
      await asaasCall(client, t.key, "POST", "/payments", { customer: customer.id, billingType: "PIX", value: 129.9, dueDate: dueDate() }),
    );
    expect(charge).toMatchObject({ object: "payment", id: expect.stringMatching(/^pay_/), value: 129.9, billingType: "PIX" });
    const qr = ok(await asaasCall(client, t.key, "GET", `/payments/${charge.id}/pixQrCode`));
    expect(qr).toEqual({ encodedImage: expect.any(String), payload: expect.stringMatching(/^000201/), expirationDate: expect.any(String) });

    const sub = ok(
      await asaasCall(client, t.key, "POST", "/subscriptions", {
        customer: customer.id,
        billingType: "BOLETO",
        value: 59.9,
        cycle: "MONTHLY",
        nextDueDate: dueDate(3),
      }),
    );
    ok(await asaasCall(client, t.key, "POST", `/subscriptions/${sub.id}`, { description: "Plano Pro anual" }));
    const sent = await simRequests(t, "PUT", `/v3/subscriptions/${sub.id}`);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(String(sent[0]?.body))).toEqual({ description: "Plano Pro anual" });

    const balance = ok(await asaasCall(client, t.key, "GET", "/finance/balance"));
    expect(balance).toMatchObject({ balance: expect.any(Number) }); // the upstream's FinanceBalanceDTO, as it sent it
  }, 30_000);
});

describe("Asaas layout: the guard and the errors", () => {
  it.each(["/v3", "/api/v3"])("%s refuses Bearer: 401 in the dialect's shape, naming access_token", async (prefix) => {
    const t = await seedTenant();
    const res = await SELF.fetch(`${BASE}${prefix}/customers`, { headers: { Authorization: `Bearer ${t.key}` } });
    const body = (await res.json()) as Json;
    const description = dialectError({ status: res.status, headers: res.headers, body }, 401, "invalid_access_token");
    expect(description).toContain("access_token");
  });

  it("on /v3 the key in access_token counts, an Authorization header beside it is ignored", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const list = ok(
      await asaasCall({ prefix: "/v3", header: "access_token" }, t.key, "GET", "/customers", undefined, { Authorization: "Bearer nope" }),
    );
    expect(list).toMatchObject({ object: "list", totalCount: 0 });
  });

  it("an unknown /v3 path is a 404 in the dialect's shape, naming the path the caller sent", async () => {
    const t = await seedTenant();
    expect(
      dialectError(await asaasCall({ prefix: "/v3", header: "access_token" }, t.key, "GET", "/nothingHere/123"), 404, "not_found"),
    ).toBe("No route for GET /v3/nothingHere/123.");
    expect(
      dialectError(
        await asaasCall({ prefix: "/api/v3", header: "access-token" }, t.key, "GET", "/customers/cus_1/nothing"),
        404,
        "not_found",
      ),
    ).toBe("No route for GET /api/v3/customers/cus_1/nothing.");
    expect(
      dialectError(await asaasCall({ prefix: "/api/v1", header: "access_token" }, t.key, "GET", "/nothingHere"), 404, "not_found"),
    ).toBe("No route for GET /api/v1/nothingHere.");
    // A known path with a method it does not take (405, the dialect's 400) names the caller's path too.
    expect(
      dialectError(await asaasCall({ prefix: "/v3", header: "access_token" }, t.key, "PATCH", "/customers"), 400, "method_not_allowed"),
    ).toMatch(/^PATCH is not allowed on \/v3\/customers\. Allowed: /);
  });

  it("the environment check: a live key on this (sandbox) host is a 401 in the dialect's shape", async () => {
    const t = await seedTenant({ environment: "live" });
    expect(t.key.startsWith("ponte_live_")).toBe(true);
    const description = dialectError(
      await asaasCall({ prefix: "/v3", header: "Access-Token" }, t.key, "GET", "/customers"),
      401,
      "invalid_access_token",
    );
    expect(description).toContain("test");
  });

  it("permissions hold on /v3: a read-only key cannot create", async () => {
    const t = await seedTenant({ permissions: ["customers.read"] });
    dialectError(
      await asaasCall({ prefix: "/v3", header: "access_token" }, t.key, "POST", "/customers", { name: "X", cpfCnpj: "52998224725" }),
      403,
      "forbidden",
    );
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM customers WHERE organization_id = ?")
      .bind(t.organizationId)
      .first<Json>();
    expect(count?.n).toBe(0);
  });

  it("a server fault (the database failing mid-request) is a 500 in the dialect's shape with X-Request-Id", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    // The key lookup works; the query translating the path's upstream id fails.
    const failingOn = <T extends { prepare(sql: string): D1PreparedStatement }>(db: T): T =>
      new Proxy(db, {
        get(target, prop, receiver) {
          if (prop === "prepare") {
            return (sql: string) => {
              if (/upstream_id/i.test(sql)) throw new Error("D1_ERROR: simulated outage");
              return target.prepare(sql);
            };
          }
          if (prop === "withSession") return (c?: string) => failingOn(env.DB.withSession(c));
          const value = Reflect.get(target, prop, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    const failing = failingOn(env.DB);
    for (const prefix of ["/v3", "/api/v1"]) {
      const req = new Request(`${BASE}${prefix}/customers/cus_000000000001`, { headers: { access_token: t.key } });
      const ctx = { waitUntil: () => undefined, passThroughOnException: () => undefined, props: {} } as unknown as ExecutionContext;
      const res = await worker.fetch(req as never, { ...env, DB: failing } as never, ctx);
      const body = (await res.json()) as Json;
      const description = dialectError({ status: res.status, headers: res.headers, body }, 500, "internal_error");
      expect(description).not.toContain("simulated outage");
    }
  });
});

describe("Asaas layout: methods the upstream accepts", () => {
  const v3 = { prefix: "/v3", header: "access_token" };

  it("POST /webhooks/{id} updates, POST /invoices/{id} updates, POST /transfers/{id}/cancel cancels, PUT /myAccount/commercialInfo saves", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const hook = ok(
      await asaasCall(v3, t.key, "POST", "/webhooks", {
        name: "erp",
        url: "https://erp.example.com/hook",
        sendType: "SEQUENTIALLY",
        events: [],
      }),
    );
    ok(await asaasCall(v3, t.key, "POST", `/webhooks/${hook.id}`, { enabled: false }));
    expect(await simRequests(t, "PUT", `/v3/webhooks/${hook.id}`)).toHaveLength(1);

    await asaasCall(v3, t.key, "POST", "/invoices/inv_000000000001", { serviceDescription: "Consultoria" });
    expect(await simRequests(t, "PUT", "/v3/invoices/inv_000000000001")).toHaveLength(1);

    await asaasCall(v3, t.key, "POST", "/transfers/7bafd95a-e783-4a62-9be1-23999af742c6/cancel");
    expect(await simRequests(t, "DELETE", "/v3/transfers/7bafd95a-e783-4a62-9be1-23999af742c6/cancel")).toHaveLength(1);

    await asaasCall(v3, t.key, "PUT", "/myAccount/commercialInfo", { email: "financeiro@example.com" });
    expect(await simRequests(t, "POST", "/v3/myAccount/commercialInfo")).toHaveLength(1);
  }, 30_000);

  it("Bearer requests keep one method per operation: POST /api/v1/customers/{id} is 405 with Allow", async () => {
    const t = await seedTenant();
    const res = await SELF.fetch(`${BASE}/api/v1/customers/cus_1`, {
      method: "POST",
      headers: { Authorization: `Bearer ${t.key}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toContain("PUT");
  });
});
