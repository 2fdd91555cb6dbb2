// The demo history npm start writes on a fresh state: deterministic, a year long, guarded so it is
// added once, and complete enough for a living dashboard (churn, refunds, expenses, an AWS connection).
import { describe, expect, it } from "vitest";
import { demoHistorySql } from "../../scripts/lib/demo-history.mjs";

const tenant = { organizationId: "01900000-0000-7000-8000-00000000d001", workspaceId: "01900000-0000-7000-8000-00000000d002" };
const now = new Date("2026-11-25T15:00:00Z");

describe("scripts/lib/demo-history.mjs", () => {
  const history = demoHistorySql({ ...tenant, now });

  it("is the same history for the same seed and day, and another for another seed", () => {
    expect(demoHistorySql({ ...tenant, now }).sql).toBe(history.sql);
    expect(demoHistorySql({ ...tenant, now, seed: 7 }).sql).not.toBe(history.sql);
  });

  it("covers the last 12 months in the organization's days", () => {
    expect(history.from).toBe("2025-11-25");
    expect(history.to).toBe("2026-11-25");
  });

  it("holds customers, churned subscriptions, charges with refunds, suppliers, expenses and one AWS connection", () => {
    const c = history.counts;
    expect(c.customers).toBeGreaterThan(100);
    expect(c.plans).toBeGreaterThanOrEqual(3);
    expect(c.canceledSubscriptions).toBeGreaterThan(0);
    expect(c.canceledSubscriptions).toBeLessThan(c.subscriptions);
    expect(c.payments).toBeGreaterThan(1000);
    expect(c.refunds).toBeGreaterThan(0);
    expect(c.suppliers).toBeGreaterThan(3);
    expect(c.expenses).toBeGreaterThan(12 * 5);
    expect(c.awsConnections).toBe(1);
  });

  it("inserts into every table only while the workspace has no plans, so a second start adds nothing", () => {
    const inserts = history.sql
      .split(/;\n?/)
      .map((statement) => statement.trim())
      .filter((statement) => statement.startsWith("INSERT"));
    expect(inserts.length).toBeGreaterThan(0);
    for (const line of inserts) expect(line).toContain(`NOT EXISTS (SELECT 1 FROM plans WHERE workspace_id = '${tenant.workspaceId}')`);
    for (const table of ["customers", "plans", "subscriptions", "payments", "refunds", "suppliers", "expenses", "aws_connections"])
      expect(inserts.some((line) => line.startsWith(`INSERT INTO ${table} `) || line.startsWith(`INSERT INTO "${table}"`))).toBe(true);
  });

  it("writes money as integer cents, never a decimal point", () => {
    expect(history.sql).toContain("value_cents");
    // A bare (unquoted) value with a decimal point would be a float in SQLite.
    expect(history.sql).not.toMatch(/[(,]\s*-?\d+\.\d+\s*[,)]/);
  });
});
