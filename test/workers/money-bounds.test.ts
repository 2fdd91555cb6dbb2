// Issue 26 item 4: one bound for every amount (R$ 1 billion, src/lib/money.ts), inputs and computed: an expense
// whose amount × exchange rate passes it is a 400 naming amountBrl (never a 500), and the reports over amounts
// within the bound answer 200.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, type Envelope, type ErrorBody, expectError, seedTenant, type TestTenant } from "./support";

interface Expense {
  id: string;
  amount: string;
  amountBrl: string;
}

const post = (t: TestTenant, body: unknown) =>
  call<Envelope<Expense> & Partial<ErrorBody>>("POST", "/api/v1/expenses", { key: t.key, body });
const rows = async (t: TestTenant) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM expenses WHERE workspace_id = ?1").bind(t.workspaceId).first<{ n: number }>())?.n;

async function category(t: TestTenant) {
  const res = await call<Envelope<{ id: string }>>("POST", "/api/v1/cost-categories", {
    key: t.key,
    body: { name: "Cloud", kind: "VARIABLE" },
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe("the bound on every amount (R$ 1,000,000,000.00)", () => {
  it("an expense whose amount × exchangeRate passes it is a 400 naming amountBrl, storing nothing", async () => {
    const t = await seedTenant();
    const costCategoryId = await category(t);
    const base = { description: "Servers", incurredOn: "2026-03-10", costCategoryId, currency: "USD" };
    const over = expectError(await post(t, { ...base, amount: "1000000000.00", exchangeRate: "90000" }), 400, "VALIDATION_FAILED");
    expect(over.message).toContain("amountBrl (amount × exchangeRate) exceeds the maximum of 1000000000.00");
    expect((over.details.fields as { path: string }[])[0]?.path).toBe("body.amountBrl");
    expectError(await post(t, { ...base, amount: "200000000.01", exchangeRate: "5" }), 400, "VALIDATION_FAILED");
    expect(await rows(t)).toBe(0);

    // Exactly the bound is accepted.
    const at = await post(t, { ...base, amount: "200000000.00", exchangeRate: "5" });
    expect(at.status).toBe(201);
    expect(at.body.data.amountBrl).toBe("1000000000.00");

    // A new amount converted at the kept rate is bound too.
    const small = await post(t, { ...base, amount: "1.00", exchangeRate: "5" });
    const patched = await call("PATCH", `/api/v1/expenses/${small.body.data.id}`, { key: t.key, body: { amount: "300000000.00" } });
    expectError(patched, 400, "VALIDATION_FAILED");
    const kept = await call<Envelope<Expense>>("GET", `/api/v1/expenses/${small.body.data.id}`, { key: t.key });
    expect(kept.body.data).toMatchObject({ amount: "1.00", amountBrl: "5.00" });
  });

  it("reports over several maximal expenses on one day answer 200 with the exact sums", async () => {
    const t = await seedTenant();
    const costCategoryId = await category(t);
    for (let i = 0; i < 3; i++) {
      const res = await post(t, { description: "Big", incurredOn: "2026-03-10", costCategoryId, amount: "1000000000.00" });
      expect(res.status).toBe(201);
    }
    const query = "from=2026-03-01&to=2026-03-31";
    const profit = await call<Envelope<{ totals: { directCosts: string; sharedCosts: string } }>>("GET", `/api/v1/profitability?${query}`, {
      key: t.key,
    });
    expect(profit.status, JSON.stringify(profit.body)).toBe(200);
    const metric = await call<Envelope<{ total: string }>>("GET", `/api/v1/metrics/expenses?${query}`, { key: t.key });
    expect(metric.status).toBe(200);
    expect(metric.body.data.total).toBe("3000000000.00");
    expect((await call("GET", `/api/v1/dashboard?${query}`, { key: t.key })).status).toBe(200);
  });
});
