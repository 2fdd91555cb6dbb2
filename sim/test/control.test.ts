// The /__sim control API: request recording, faults, webhook deliveries.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { account, BASE, createCustomer, createPayment, fetchSim } from "./helpers";
import type { Answer, SimList, Deleted } from "./helpers";
import type { Customer, Delivery, Fault, Payment, RecordedRequest, Subscription, WebhookConfig } from "../src/state";

const received = async (): Promise<Array<{ path: string; headers: Record<string, string>; body: string }>> =>
  (await (env as unknown as { PONTE: Fetcher }).PONTE.fetch("https://ponte.internal/__received")).json();

describe("request recording", () => {
  it("records method, path, raw query, lower-cased headers and raw body, newest last; clears", async () => {
    const sim = account();
    await sim.call("POST", "/v3/customers", { name: "A", cpfCnpj: "24971563792" }, { "X-Trace-Id": "t-1" });
    await sim.call("GET", "/v3/customers?name=A&limit=5");
    const { body } = await sim.control<SimList<RecordedRequest>>("GET", "/__sim/requests");
    expect(body.data).toHaveLength(2);
    expect(body.data[0]).toMatchObject({ method: "POST", path: "/v3/customers", query: "", body: '{"name":"A","cpfCnpj":"24971563792"}' });
    expect(body.data[0]!.headers).toMatchObject({ access_token: sim.token, "x-trace-id": "t-1", "user-agent": "ponte-test" });
    expect(body.data[1]).toMatchObject({ method: "GET", query: "name=A&limit=5", body: "" });
    expect(Date.parse(body.data[1]!.receivedAt)).not.toBeNaN();
    await sim.control("DELETE", "/__sim/requests");
    expect((await sim.control<SimList<RecordedRequest>>("GET", "/__sim/requests")).body.data).toEqual([]);
  });

  it("needs a token and answers health", async () => {
    expect((await fetchSim("/__sim/requests")).status).toBe(400);
    expect(await (await fetchSim("/__sim/health")).json()).toEqual({ ok: true });
  });
});

describe("faults", () => {
  it("status: answers the given status, body and headers for `times` matching requests", async () => {
    const sim = account();
    const installed = await sim.control<Fault>("POST", "/__sim/faults", {
      token: sim.token,
      method: "GET",
      pathPrefix: "/v3/payments",
      fault: "status",
      status: 429,
      headers: { "Retry-After": "7" },
      body: { errors: [{ code: "too_many_requests", description: "slow down" }] },
      times: 2,
    });
    expect(installed.status).toBe(201);
    await sim.call("GET", "/v3/customers").then((r) => expect(r.status).toBe(200)); // not matching
    for (let i = 0; i < 2; i++) {
      const res = await sim.call("GET", "/v3/payments");
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("7");
      expect(await res.json()).toEqual({ errors: [{ code: "too_many_requests", description: "slow down" }] });
    }
    expect((await sim.call("GET", "/v3/payments")).status).toBe(200);
  });

  it("status: a default 500 and a 401 even for a valid token", async () => {
    const sim = account();
    await sim.control<Fault>("POST", "/__sim/faults", { token: sim.token, fault: "status", status: 500 });
    await sim.control<Fault>("POST", "/__sim/faults", { token: sim.token, fault: "status", status: 401 });
    const first = await sim.call("GET", "/v3/customers");
    expect(first.status).toBe(500);
    expect(((await first.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("simulated_fault");
    expect((await sim.call("GET", "/v3/customers")).status).toBe(401);
  });

  it("delay: waits delayMs then answers normally", async () => {
    const sim = account();
    await sim.control<Fault>("POST", "/__sim/faults", { token: sim.token, fault: "delay", delayMs: 300 });
    const started = Date.now();
    const res = await sim.call("GET", "/v3/customers");
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it("timeout: does not answer until the faults are cleared", async () => {
    const sim = account();
    await sim.control<Fault>("POST", "/__sim/faults", { token: sim.token, fault: "timeout" });
    const pending = sim.call("GET", "/v3/customers");
    const winner = await Promise.race([pending.then(() => "answered"), new Promise((r) => setTimeout(() => r("timed out"), 500))]);
    expect(winner).toBe("timed out");
    await sim.control("DELETE", "/__sim/faults"); // releases the hung request
    expect((await pending).status).toBe(504);
    expect((await sim.control<SimList<Fault>>("GET", "/__sim/faults")).body.data).toEqual([]);
  });

  it("network: the caller sees a failed fetch, then normal service", async () => {
    const sim = account();
    await sim.control<Fault>("POST", "/__sim/faults", { token: sim.token, fault: "network" });
    const outcome = await sim.call("GET", "/v3/customers").then(
      (r) => `status ${r.status}`,
      (e: unknown) => `error ${e instanceof Error ? e.message : e}`,
    );
    expect(outcome).toMatch(/^error /);
    expect((await sim.call("GET", "/v3/customers")).status).toBe(200);
  });

  it("rejects an unknown fault kind", async () => {
    const sim = account();
    expect((await sim.control<Fault>("POST", "/__sim/faults", { token: sim.token, fault: "explode" })).status).toBe(400);
  });
});

describe("outbound webhooks", () => {
  it("delivers subscribed events through the PONTE binding with the auth token header", async () => {
    const sim = account();
    const hookPath = `/webhooks/upstream/${crypto.randomUUID()}`;
    const config = await sim.json<Answer<WebhookConfig>>("POST", "/v3/webhooks", {
      name: "ponte",
      url: `https://ponte.example${hookPath}?acct=1`,
      email: "ops@example.com",
      enabled: true,
      interrupted: false,
      apiVersion: 3,
      authToken: "whsec_token_123",
      sendType: "SEQUENTIALLY",
      events: ["PAYMENT_CREATED", "PAYMENT_RECEIVED"],
    });
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ object: "webhook", enabled: true, authToken: "whsec_token_123" });
    expect((await sim.json<Answer<SimList<WebhookConfig>>>("GET", "/v3/webhooks")).body.totalCount).toBe(1);

    const payment = await createPayment(sim);
    await sim.json<Answer<Payment>>("POST", `/v3/sandbox/payment/${payment.id}/overdue`); // not subscribed
    await sim.json<Answer<Payment>>("POST", `/v3/sandbox/payment/${payment.id}/confirm`);

    const mine = (await received()).filter((r) => r.path.startsWith(hookPath));
    expect(mine.map((r) => r.path)).toEqual([`${hookPath}?acct=1`, `${hookPath}?acct=1`]);
    const bodies = mine.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.event)).toEqual(["PAYMENT_CREATED", "PAYMENT_RECEIVED"]);
    expect(bodies[1]).toMatchObject({ payment: { id: payment.id, status: "RECEIVED" } });
    expect(bodies[0].payment.status).toBe("PENDING");
    expect(bodies[0].id).toMatch(/^evt_/);
    expect(bodies[0].dateCreated).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(mine[0]!.headers["asaas-access-token"]).toBe("whsec_token_123");
    expect(mine[0]!.headers["content-type"]).toBe("application/json");

    const deliveries = (await sim.control<SimList<Delivery>>("GET", "/__sim/webhooks")).body.data;
    expect(deliveries.map((d: { event: string; status: number; ok: boolean }) => [d.event, d.status, d.ok])).toEqual([
      ["PAYMENT_CREATED", 200, true],
      ["PAYMENT_RECEIVED", 200, true],
    ]);
  });

  it("sends subscription events and every event when `events` is empty; skips disabled configs", async () => {
    const sim = account();
    const hookPath = `/hooks/${crypto.randomUUID()}`;
    await sim.json<Answer<WebhookConfig>>("POST", "/v3/webhooks", { name: "all", url: `https://x.test${hookPath}`, events: [] });
    const off = await sim.json<Answer<WebhookConfig>>("POST", "/v3/webhooks", {
      name: "off",
      url: `https://x.test${hookPath}/off`,
      enabled: false,
    });
    const customer = (await createCustomer(sim)).id;
    const sub = (
      await sim.json<Answer<Subscription>>("POST", "/v3/subscriptions", {
        customer,
        billingType: "PIX",
        value: 5,
        nextDueDate: "2027-01-10",
        cycle: "WEEKLY",
      })
    ).body;
    await sim.json<Answer<Deleted>>("DELETE", `/v3/subscriptions/${sub.id}`);
    const events = (await received()).filter((r) => r.path.startsWith(hookPath)).map((r) => JSON.parse(r.body));
    expect(events.map((e) => e.event)).toEqual(["SUBSCRIPTION_CREATED", "PAYMENT_CREATED", "PAYMENT_DELETED", "SUBSCRIPTION_DELETED"]);
    expect(events[0].subscription.id).toBe(sub.id);
    expect((await sim.json<Answer<Deleted>>("DELETE", `/v3/webhooks/${off.body.id}`)).body).toEqual({ deleted: true, id: off.body.id });
  });

  it("records a failed delivery without failing the upstream request", async () => {
    const sim = account();
    await sim.json<Answer<WebhookConfig>>("POST", "/v3/webhooks", { name: "bad", url: `https://x.test/fail/${crypto.randomUUID()}` });
    const created = await sim.json<Answer<Customer>>("POST", "/v3/customers", { name: "A", cpfCnpj: "24971563792" });
    const payment = await sim.json<Answer<Payment>>("POST", "/v3/payments", {
      customer: created.body.id,
      billingType: "PIX",
      value: 1,
      dueDate: "2027-01-01",
    });
    expect(payment.status).toBe(200);
    const deliveries = (await sim.control<SimList<Delivery>>("GET", "/__sim/webhooks")).body.data;
    expect(deliveries).toEqual([expect.objectContaining({ event: "PAYMENT_CREATED", status: 500, ok: false })]);
  });

  it("updates and gets a webhook config", async () => {
    const sim = account();
    const created = (await sim.json<Answer<WebhookConfig>>("POST", "/v3/webhooks", { name: "a", url: "https://x.test/a" })).body;
    const updated = await sim.json<Answer<WebhookConfig>>("PUT", `/v3/webhooks/${created.id}`, {
      interrupted: true,
      events: ["PAYMENT_RECEIVED"],
    });
    expect(updated.body).toMatchObject({ url: "https://x.test/a", interrupted: true, events: ["PAYMENT_RECEIVED"] });
    expect((await sim.call("POST", `/v3/webhooks/${created.id}/removeBackoff`)).status).toBe(204);
    const after = (await sim.json<Answer<WebhookConfig>>("GET", `/v3/webhooks/${created.id}`)).body;
    expect(after).toMatchObject({ name: "a", interrupted: false });
    expect((await sim.json<Answer<WebhookConfig>>("POST", "/v3/webhooks", { name: "no url" })).status).toBe(400);
  });

  it("delivers with ctx.waitUntil when WEBHOOK_DELIVERY is not sync", async () => {
    const sim = account();
    await sim.json<Answer<WebhookConfig>>("POST", "/v3/webhooks", { name: "async", url: `https://x.test/async/${crypto.randomUUID()}` });
    const customer = (await createCustomer(sim)).id;
    const ctx = createExecutionContext();
    const request = new Request(`${BASE}/v3/payments`, {
      method: "POST",
      headers: { access_token: sim.token, "content-type": "application/json" },
      body: JSON.stringify({ customer, billingType: "PIX", value: 3, dueDate: "2027-01-01" }),
    });
    const res = await worker.fetch(request, { ...(env as object), WEBHOOK_DELIVERY: "async" } as never, ctx);
    expect(res.status).toBe(200);
    await waitOnExecutionContext(ctx);
    const deliveries = (await sim.control<SimList<Delivery>>("GET", "/__sim/webhooks")).body.data;
    expect(deliveries).toEqual([expect.objectContaining({ event: "PAYMENT_CREATED", ok: true })]);
  });
});
