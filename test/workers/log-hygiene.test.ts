// Issue 26 #7: no log line carries personal data or a secret. Real flows run through the worker with every
// console method recorded — customer create with CPF/CNPJ and e-mail, Idempotency-Key conflicts, a refused card,
// upstream errors, webhook delivery failures, a 500 — and the recorded output is scanned for CPF/CNPJ
// patterns, e-mail addresses, card numbers (13–19 digit runs), Ponte API keys, webhook signing secrets and
// upstream keys.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../../src/db/client";
import { idempotencyKeys } from "../../src/db/schema";
import { CNPJ, CPF, HOLDER, card, createCustomer, dueDate, seedBillingTenant } from "./billing-support";
import { addFault } from "./gateway-support";
import { call } from "./support";
import { consume, createEndpoint, insertEvent, mockReceiver } from "./webhooks-support";
import type { Customer, Payment, Reply } from "./bodies";

const FORBIDDEN = [
  // Digit runs count when no letter or digit touches them, so the hex of a request id or UUID is not a CPF.
  { name: "CPF", pattern: /\b\d{3}\.\d{3}\.\d{3}-\d{2}\b|(?<![0-9A-Za-z])\d{11}(?![0-9A-Za-z])/ },
  { name: "CNPJ", pattern: /\b\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}\b|(?<![0-9A-Za-z])\d{14}(?![0-9A-Za-z])/ },
  { name: "e-mail", pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/ },
  { name: "card number", pattern: /(?<![0-9A-Za-z])\d{13,19}(?![0-9A-Za-z])/ },
  { name: "Ponte API key", pattern: /ponte_(test|live)_/ },
  { name: "webhook signing secret", pattern: /whsec_/ },
  { name: "upstream key", pattern: /\$aact_/ },
] as const;

let lines: string[] = [];

function render(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}\n${value.stack ?? ""}\n${render(value.cause)}`;
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

beforeEach(() => {
  lines = [];
  for (const level of ["log", "info", "warn", "error", "debug", "trace"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(render).join(" "));
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Fails naming the pattern and the offending line (secrets in the line are what the test is about: it is a test key). */
function expectCleanLogs() {
  for (const line of lines) {
    for (const { name, pattern } of FORBIDDEN) {
      expect(pattern.test(line), `a log line carries a ${name}: ${line.slice(0, 400)}`).toBe(false);
    }
  }
}

const newCustomer = (key: string, idempotencyKey: string, cpfCnpj = CPF) =>
  call<Reply<Customer>>("POST", "/api/v1/customers", {
    key,
    headers: { "Idempotency-Key": idempotencyKey },
    body: { name: "Maria Silva", cpfCnpj, email: "maria.silva@example.com.br", mobilePhone: "11987654321" },
  });

describe("log hygiene (issue 26 #7)", () => {
  it("customer create with CPF, CNPJ and e-mail logs none of them", async () => {
    const t = await seedBillingTenant();
    await createCustomer(t, { email: "ana@example.com.br" });
    await createCustomer(t, { cpfCnpj: CNPJ, email: "loja@example.com.br" });
    expectCleanLogs();
  });

  it("Idempotency-Key conflicts (concurrent duplicates, a retry while in flight) log no SQL parameters", async () => {
    const t = await seedBillingTenant();
    const results = await Promise.all(Array.from({ length: 6 }, () => newCustomer(t.key, "cust-1")));
    expect(results.map((r) => r.status).every((s) => s === 200 || s === 409)).toBe(true);
    // The stored key looks in flight again, as while the first request runs: the retry's claim is refused.
    await createDb(env.DB)
      .update(idempotencyKeys)
      .set({ state: "in_flight", createdAt: Math.floor(Date.now() / 1000) })
      .where(and(eq(idempotencyKeys.organizationId, t.organizationId), eq(idempotencyKeys.key, "cust-1")));
    const retry = await newCustomer(t.key, "cust-1");
    expect(retry.status).toBe(409);
    expectCleanLogs();
  });

  it("a refused card logs neither the card number nor the holder's CPF and e-mail", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const res = await call<Reply<Payment>>("POST", "/api/v1/payments", {
      key: t.key,
      body: {
        customer: customer.id,
        billingType: "CREDIT_CARD",
        value: "100.00",
        dueDate: dueDate(),
        creditCard: card("5184019740373151"),
        creditCardHolderInfo: HOLDER,
      },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expectCleanLogs();
  });

  it("upstream errors (a 500, a dropped connection) on a customer create log no personal data or key", async () => {
    const t = await seedBillingTenant();
    await addFault(t.upstreamKey, { fault: "status", status: 500, method: "POST", pathPrefix: "/v3/customers" });
    const failed = await call("POST", "/api/v1/customers", {
      key: t.key,
      body: { name: "Maria Silva", cpfCnpj: CPF, email: "maria.silva@example.com.br" },
    });
    expect(failed.status).toBeGreaterThanOrEqual(200);
    await addFault(t.upstreamKey, { fault: "network", method: "POST", pathPrefix: "/v3/customers" });
    await call("POST", "/api/v1/customers", { key: t.key, body: { name: "João Souza", cpfCnpj: CNPJ, email: "joao@example.com.br" } });
    expectCleanLogs();
  });

  it("webhook delivery failures (a 500 answer, an unreachable receiver) log no payload or secret", async () => {
    const t = await seedBillingTenant();
    await createEndpoint(t, { eventKinds: ["*"] });
    const receiver = mockReceiver(() => new Response("maria.silva@example.com.br 529.982.247-25", { status: 500 }));
    const event = await insertEvent(t, "payment.received", {
      id: crypto.randomUUID(),
      value: "129.90",
      customer: { name: "Maria Silva", cpfCnpj: "52998224725", email: "maria.silva@example.com.br" },
    });
    await consume([{ eventId: event.id }]);
    receiver.answer(() => {
      throw new TypeError("Network connection lost to hooks.merchant.com.br (maria.silva@example.com.br)");
    });
    const second = await insertEvent(t, "payment.received", { id: crypto.randomUUID(), email: "maria.silva@example.com.br" });
    await consume([{ eventId: second.id }]);
    expect(receiver.received.length).toBeGreaterThan(0);
    expectCleanLogs();
  });

  it("an event that cannot be read (a server fault) is logged without its data", async () => {
    const t = await seedBillingTenant();
    await createEndpoint(t, { eventKinds: ["*"] });
    mockReceiver();
    const event = await insertEvent(t, "payment.received", { id: crypto.randomUUID(), email: "maria.silva@example.com.br" });
    await env.DB.prepare("UPDATE events SET data = ? WHERE id = ?")
      .bind('{"email":"maria.silva@example.com.br", 52998224725', event.id)
      .run();
    await consume([{ eventId: event.id }]);
    expect(lines.length).toBeGreaterThan(0); // the fault is logged…
    expectCleanLogs(); // …without the row's data
  });
});
