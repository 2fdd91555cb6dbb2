// Sweeps that stay small (issue 28 #4): the adoption sweep visits a bounded number of accounts per run and
// resumes each account's listing from its cursor; a recurring expense cannot start decades back, and the
// recurrence sweeper writes a bounded number of rows per run and goes on in the next.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { costCategories, expenses } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import { MAX_OCCURRENCES_PER_RUN, materialiseRecurringExpenses } from "../../src/modules/expenses/recurrence";
import { earliestRecurrenceStart } from "../../src/modules/expenses/service";
import { adoptMissedPayments } from "../../src/modules/reconciliation/adopt-missed";
import { defaultCostCategoryRows } from "../../src/modules/cost-categories/service";
import { type BillingTenant, dueDate, seedBillingTenant, sim, simRequests, testDeps } from "./billing-support";
import { call, seedTenant } from "./support";

interface CursorRow {
  visited_at: string;
  payments_since: string;
  payments_offset: number;
  payments_pass_started_on: string;
}
const cursorOf = (t: BillingTenant) =>
  env.DB.prepare("SELECT * FROM adoption_cursors WHERE gateway_account_id = ?").bind(t.gatewayAccountId).first<CursorRow>();
const adoptedUpstreamIds = async (t: BillingTenant) =>
  (
    await env.DB.prepare("SELECT upstream_id FROM payments WHERE workspace_id = ? ORDER BY upstream_id")
      .bind(t.workspaceId)
      .all<{ upstream_id: string }>()
  ).results.map((r) => r.upstream_id);

async function missedPayments(t: BillingTenant, n: number): Promise<string[]> {
  const customer = await sim<{ id: string }>("POST", "/v3/customers", { name: "Lia Mota", cpfCnpj: "24971563792" }, t.upstreamKey);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = await sim<{ id: string }>(
      "POST",
      "/v3/payments",
      { customer: customer.body.id, billingType: "PIX", value: 10 + i, dueDate: dueDate(4) },
      t.upstreamKey,
    );
    ids.push(p.body.id);
  }
  return ids.sort();
}

const brazilDay = (ms: number) => new Date(ms - 3 * 3_600_000).toISOString().slice(0, 10);

describe("the adoption sweep stays small", () => {
  it("visits at most accountsPerRun accounts a run, each again only after 15 minutes, and resumes a long listing where it stopped", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const missed = await missedPayments(t, 3);
    const start = Date.now();
    const at = (minutes: number) => testDeps({ now: () => new Date(start + minutes * 60_000) });
    const options = { accountsPerRun: 1, maxPages: 1, pageSize: 2 };

    // The newest account first; one page of two this run: two adopted, the cursor stops after them.
    expect(await adoptMissedPayments(at(0), options)).toBe(2);
    expect(await adoptedUpstreamIds(t)).toHaveLength(2);
    const first = await cursorOf(t);
    expect(first).toMatchObject({ payments_offset: 2, payments_since: brazilDay(start - 2 * 86_400_000) });

    // Within 15 minutes the account is not due: nothing listed for it.
    const listed = (await simRequests(t, "GET", "/v3/payments")).length;
    await adoptMissedPayments(at(5), { ...options, accountsPerRun: 1000 });
    expect((await simRequests(t, "GET", "/v3/payments")).length).toBe(listed);

    // 16 minutes on, the pass resumes at offset 2, reads the last one and ends: since moves to the day the pass started.
    await adoptMissedPayments(at(16), { ...options, accountsPerRun: 1000 });
    expect(await adoptedUpstreamIds(t)).toEqual(missed);
    const done = await cursorOf(t);
    expect(done).toMatchObject({ payments_offset: 0, payments_since: brazilDay(start), payments_pass_started_on: brazilDay(start) });
    const queries = (await simRequests(t, "GET", "/v3/payments")).map((r) => r.query);
    expect(JSON.stringify(queries.at(-1))).toContain("offset=2");
  });
});

describe("recurring expenses stay bounded", () => {
  it("a recurring expense may start at most 36 months back (400, nothing stored); a single expense may be older", async () => {
    const t = await seedTenant();
    const [category] = defaultCostCategoryRows(t, new Date().toISOString());
    await createDb(env.DB).insert(costCategories).values(category!);
    const earliest = earliestRecurrenceStart(new Date());
    const dayBefore = new Date(Date.parse(`${earliest}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const body = { description: "Aluguel", amount: "1000.00", costCategoryId: category!.id, recurrence: "MONTHLY" };
    const refused = await call<{ error: { code: string; message: string } }>("POST", "/api/v1/expenses", {
      key: t.key,
      body: { ...body, incurredOn: dayBefore },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("VALIDATION_FAILED");
    expect(refused.body.error.message).toContain(`at most 36 months before today (on or after ${earliest})`);
    const yearOne = await call("POST", "/api/v1/expenses", { key: t.key, body: { ...body, incurredOn: "0001-01-01" } });
    expect(yearOne.status).toBe(400);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM expenses WHERE workspace_id = ?")
      .bind(t.workspaceId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
    expect((await call("POST", "/api/v1/expenses", { key: t.key, body: { ...body, incurredOn: earliest } })).status).toBe(201);
    const { recurrence: _r, ...single } = body;
    expect((await call("POST", "/api/v1/expenses", { key: t.key, body: { ...single, incurredOn: dayBefore } })).status).toBe(201);
  });

  it("the sweeper writes at most MAX_OCCURRENCES_PER_RUN rows a run and catches up in the next", async () => {
    const t = await seedTenant();
    const now = new Date().toISOString();
    const [category] = defaultCostCategoryRows(t, now);
    const db = createDb(env.DB);
    await db.insert(costCategories).values(category!);
    // 30 parents 30 months back (stored directly, as an older release could have): 30 × 30 occurrences due.
    const start = `${earliestRecurrenceStart(new Date(Date.now() + 6 * 31 * 86_400_000)).slice(0, 8)}01`;
    const parents = Array.from({ length: 30 }, () => ({
      id: newId(),
      ...t,
      description: "Aluguel",
      amountCents: 100_000,
      currency: "BRL" as const,
      amountBrlCents: 100_000,
      incurredOn: start,
      status: "PENDING" as const,
      costCategoryId: category!.id,
      recurrence: "MONTHLY" as const,
      source: "MANUAL" as const,
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < parents.length; i += 4)
      await db.insert(expenses).values(parents.slice(i, i + 4).map(({ apiKeyId: _k, key: _s, ...p }) => p));
    const occurrences = async () =>
      (
        await env.DB.prepare("SELECT count(*) AS n FROM expenses WHERE workspace_id = ? AND source = 'RECURRENCE'")
          .bind(t.workspaceId)
          .first<{ n: number }>()
      )?.n ?? 0;
    const deps = testDeps();
    expect(await materialiseRecurringExpenses(deps)).toBe(MAX_OCCURRENCES_PER_RUN);
    // (other tests' recurring expenses share the database and the run's budget)
    expect(await occurrences()).toBeGreaterThan(0);
    expect(await occurrences()).toBeLessThanOrEqual(MAX_OCCURRENCES_PER_RUN);
    const runs = [MAX_OCCURRENCES_PER_RUN];
    for (let n = await materialiseRecurringExpenses(deps); n > 0; n = await materialiseRecurringExpenses(deps)) runs.push(n);
    const months = (Number(now.slice(0, 4)) - Number(start.slice(0, 4))) * 12 + Number(now.slice(5, 7)) - Number(start.slice(5, 7));
    expect(await occurrences()).toBe(30 * months);
    expect(runs.length).toBeGreaterThan(1);
    expect(Math.max(...runs)).toBe(MAX_OCCURRENCES_PER_RUN);
  });
});
