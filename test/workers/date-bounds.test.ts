// Issue 26 #9 and #12c: every date input of the API lies between 2000-01-01 and 2100-12-31 (src/http/dates.ts):
// outside them, 400 naming the field and the bound, and nothing stored. An AWS sync range Cost Explorer cannot
// answer is the caller's 400, checked before any call, and leaves the connection as it was.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DATE_CEILING, DATE_FLOOR } from "../../src/http/dates";
import { earliestCostDay } from "../../src/modules/aws-connections/cost-import";
import { CPF, createCustomer, seedBillingTenant } from "./billing-support";
import { type TestTenant, call, expectError, seedTenant } from "./support";

const count = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;

async function costCategory(t: TestTenant, key = "cloud") {
  const res = await call<{ data: { id: string } }>("POST", "/api/v1/cost-categories", {
    key: t.key,
    body: { name: "Cloud", key, kind: "VARIABLE" },
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** The 400 names the field and the bound. */
function expectOutOfBounds(res: Awaited<ReturnType<typeof call>>, path: string, bound: string) {
  const error = expectError(res, 400, "VALIDATION_FAILED");
  const fields = error.details.fields as { path: string; message: string }[];
  expect(fields).toEqual(expect.arrayContaining([expect.objectContaining({ path, message: expect.stringContaining(bound) })]));
}

describe("date floor and ceiling (issue 26 #9)", () => {
  it("a recurring expense dated 0001-01-01 is refused naming body.incurredOn and the floor; nothing is stored", async () => {
    const t = await seedTenant();
    const costCategoryId = await costCategory(t);
    const body = { description: "Servers", amount: "10.00", costCategoryId, recurrence: "MONTHLY" };
    expectOutOfBounds(
      await call("POST", "/api/v1/expenses", { key: t.key, body: { ...body, incurredOn: "0001-01-01" } }),
      "body.incurredOn",
      DATE_FLOOR,
    );
    expectOutOfBounds(
      await call("POST", "/api/v1/expenses", { key: t.key, body: { ...body, incurredOn: "1999-12-31" } }),
      "body.incurredOn",
      DATE_FLOOR,
    );
    expectOutOfBounds(
      await call("POST", "/api/v1/expenses", { key: t.key, body: { ...body, incurredOn: "2026-01-10", recurrenceEndsOn: "9999-12-31" } }),
      "body.recurrenceEndsOn",
      DATE_CEILING,
    );
    expectOutOfBounds(
      await call("POST", "/api/v1/expenses", {
        key: t.key,
        body: { ...body, recurrence: undefined, incurredOn: "2026-01-10", status: "PAID", paidAt: "1970-01-01T00:00:00Z" },
      }),
      "body.paidAt",
      DATE_FLOOR,
    );
    expect(await count("SELECT count(*) AS n FROM expenses WHERE workspace_id = ?", t.workspaceId)).toBe(0);
    // The bounds themselves are dates.
    const first = await call("POST", "/api/v1/expenses", { key: t.key, body: { ...body, recurrence: undefined, incurredOn: DATE_FLOOR } });
    expect(first.status).toBe(201);
    const last = await call("POST", "/api/v1/expenses", { key: t.key, body: { ...body, recurrence: undefined, incurredOn: DATE_CEILING } });
    expect(last.status).toBe(201);
  });

  it("payment and subscription due dates outside the bounds are refused before the upstream is called", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t, { cpfCnpj: CPF });
    const payment = (dueDate: string) =>
      call("POST", "/api/v1/payments", { key: t.key, body: { customer: customer.id, billingType: "PIX", value: "10.00", dueDate } });
    expectOutOfBounds(await payment("0001-01-01"), "body.dueDate", DATE_FLOOR);
    expectOutOfBounds(await payment("2101-01-01"), "body.dueDate", DATE_CEILING);
    expectOutOfBounds(
      await call("POST", "/api/v1/subscriptions", {
        key: t.key,
        body: { customer: customer.id, billingType: "PIX", value: "10.00", cycle: "MONTHLY", nextDueDate: "1900-02-01" },
      }),
      "body.nextDueDate",
      DATE_FLOOR,
    );
    expect(await count("SELECT count(*) AS n FROM payments WHERE workspace_id = ?", t.workspaceId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM subscriptions WHERE workspace_id = ?", t.workspaceId)).toBe(0);
  });

  it("list filters, metric ranges and log time filters have the same bounds", async () => {
    const t = await seedTenant();
    expectOutOfBounds(await call("GET", "/api/v1/payments?dueDate[ge]=0001-01-01", { key: t.key }), "query.dueDate[ge]", DATE_FLOOR);
    expectOutOfBounds(await call("GET", "/api/v1/expenses?to=2200-01-01", { key: t.key }), "query.to", DATE_CEILING);
    expectOutOfBounds(await call("GET", "/api/v1/metrics/revenue?from=1900-01-01", { key: t.key }), "query.from", DATE_FLOOR);
    expectOutOfBounds(await call("GET", "/api/v1/audit-logs?from=0001-01-01T00:00:00Z", { key: t.key }), "query.from", DATE_FLOOR);
    expectOutOfBounds(await call("GET", "/api/v1/webhook-logs?to=3000-01-01T00:00:00Z", { key: t.key }), "query.to", DATE_CEILING);
    // Inside the bounds the same filters answer.
    expect((await call("GET", `/api/v1/payments?dueDate[ge]=${DATE_FLOOR}&dueDate[le]=${DATE_CEILING}`, { key: t.key })).status).toBe(200);
    expect((await call("GET", "/api/v1/audit-logs?from=2000-01-01T00:00:00Z", { key: t.key })).status).toBe(200);
  });
});

describe("AWS sync ranges (issue 26 #12c)", () => {
  it("a range Cost Explorer cannot answer is a 400 before any call; the connection keeps its status", async () => {
    const t = await seedTenant();
    await costCategory(t, "infrastructure");
    const created = await call<{ data: { id: string; status: string } }>("POST", "/api/v1/aws-connections", {
      key: t.key,
      body: {
        name: "Production AWS",
        authType: "ACCESS_KEY",
        accessKeyId: `AKIA${crypto.randomUUID().replace(/-/g, "").slice(0, 16).toUpperCase()}`,
        secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        exchangeRate: "5",
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const before = await env.DB.prepare("SELECT status, last_error, synced_through FROM aws_connections WHERE id = ?").bind(id).first();
    const sync = (body: unknown) => call("POST", `/api/v1/aws-connections/${id}/sync`, { key: t.key, body });

    expectOutOfBounds(await sync({ from: "0001-01-01", to: "0001-01-31" }), "body.from", DATE_FLOOR);
    const today = new Date().toISOString().slice(0, 10);
    const earliest = earliestCostDay(today);
    const tooOld = new Date(Date.parse(`${earliest}T00:00:00Z`) - 40 * 86_400_000).toISOString().slice(0, 10);
    expectOutOfBounds(await sync({ from: tooOld, to: earliest }), "body.from", earliest);

    const after = await env.DB.prepare("SELECT status, last_error, synced_through FROM aws_connections WHERE id = ?").bind(id).first();
    expect(after).toEqual(before);
    expect(after?.status).not.toBe("FAILED");
    expect(await count("SELECT count(*) AS n FROM expenses WHERE workspace_id = ?", t.workspaceId)).toBe(0);
  });
});
