// The console's finance pages: suppliers (search, add, archive, delete refused in use) and expenses
// (record, filters, mark paid), rendered server-side through the same services as the API.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { seedMember, signUpUser } from "./auth-support";
import { BASE } from "./support";

async function form(path: string, fields: Record<string, string>, cookie: string) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    redirect: "manual",
    headers: { Origin: BASE, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
  });
}
const page = (path: string, cookie: string) => SELF.fetch(`${BASE}${path}`, { redirect: "manual", headers: { Cookie: cookie } });
const categoryId = async (workspaceId: string, key: string) =>
  (await env.DB.prepare("SELECT id FROM cost_categories WHERE workspace_id = ? AND key = ?")
    .bind(workspaceId, key)
    .first<{ id: string }>())!.id;
const expenseRows = (workspaceId: string) =>
  env.DB.prepare("SELECT id, description, status, amount_brl_cents, supplier_id FROM expenses WHERE workspace_id = ? ORDER BY description")
    .bind(workspaceId)
    .all<{ id: string; description: string; status: string; amount_brl_cents: number; supplier_id: string | null }>()
    .then((r) => r.results);

describe("console suppliers", () => {
  it("adds a supplier (a bad CNPJ is explained), finds it by search, archives it, and refuses to delete it in use", async () => {
    const { cookie, workspaceId } = await signUpUser();
    const nav = await (await page("/console", cookie)).text();
    expect(nav).toContain('href="/console/suppliers"');
    expect(nav).toContain('href="/console/expenses"');
    const bad = await form("/console/suppliers", { name: "Hosting Ltda", cpfCnpj: "11.222.333/0001-82" }, cookie);
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Please check: cpfCnpj");
    expect(badHtml).toContain('value="Hosting Ltda"');
    const software = await categoryId(workspaceId, "software");
    const ok = await form(
      "/console/suppliers",
      { name: "Hosting Ltda", cpfCnpj: "11.222.333/0001-81", defaultCostCategoryId: software },
      cookie,
    );
    expect(ok.status).toBe(303);
    await form("/console/suppliers", { name: "Padaria" }, cookie);
    const found = await (await page("/console/suppliers?q=11222333", cookie)).text();
    expect(found).toContain("Hosting Ltda");
    expect(found).toContain("Software");
    expect(found).not.toContain("Padaria");
    const supplier = await env.DB.prepare("SELECT id FROM suppliers WHERE workspace_id = ? AND name = 'Hosting Ltda'")
      .bind(workspaceId)
      .first<{ id: string }>();
    // An expense for it (the supplier's default category), then delete is refused, archive works.
    const rec = await form(
      "/console/expenses",
      { description: "VPS", amount: "80.00", incurredOn: "2026-04-01", supplierId: supplier!.id },
      cookie,
    );
    expect(rec.status).toBe(303);
    const del = await form(`/console/suppliers/${supplier!.id}/delete`, {}, cookie);
    expect(del.status).toBe(409);
    expect(await del.text()).toContain("archive it instead");
    expect((await form(`/console/suppliers/${supplier!.id}/archive`, {}, cookie)).status).toBe(303);
    const active = await (await page("/console/suppliers", cookie)).text();
    expect(active).not.toContain("Hosting Ltda");
    expect(await (await page("/console/suppliers?archived=true", cookie)).text()).toContain("Hosting Ltda");
  });
});

describe("console expenses", () => {
  it("records a USD expense at its rate, filters by status, and marks it paid", async () => {
    const { cookie, workspaceId } = await signUpUser();
    const infra = await categoryId(workspaceId, "infrastructure");
    const rec = await form(
      "/console/expenses",
      {
        description: "Cloud bill",
        amount: "100.00",
        currency: "USD",
        exchangeRate: "5.25",
        incurredOn: "2026-04-02",
        costCategoryId: infra,
      },
      cookie,
    );
    expect(rec.status).toBe(303);
    expect(rec.headers.get("location")).toBe("/console/expenses?done=created");
    const missingRate = await form(
      "/console/expenses",
      { description: "No rate", amount: "10.00", currency: "USD", incurredOn: "2026-04-02", costCategoryId: infra },
      cookie,
    );
    expect(missingRate.status).toBe(400);
    expect(await missingRate.text()).toContain("exchangeRate is required for USD.");
    const [row] = await expenseRows(workspaceId);
    expect(row).toMatchObject({ description: "Cloud bill", status: "PENDING", amount_brl_cents: 52_500 });
    const html = await (await page("/console/expenses", cookie)).text();
    expect(html).toContain("Cloud bill");
    expect(html).toContain("525.00");
    expect(html).toContain("Mark paid");
    const paid = await form(`/console/expenses/${row!.id}/pay`, {}, cookie);
    expect(paid.status).toBe(303);
    expect((await expenseRows(workspaceId))[0]?.status).toBe("PAID");
    expect(await (await page("/console/expenses?status=PAID", cookie)).text()).toContain("Cloud bill");
    const pending = await (await page("/console/expenses?status=PENDING&from=2026-04-01", cookie)).text();
    expect(pending).not.toContain("Cloud bill");
    expect(pending).toContain("No expenses match.");
    const again = await form(`/console/expenses/${row!.id}/pay`, {}, cookie);
    expect(again.status).toBe(409);
    const badFilter = await page("/console/expenses?from=2026-13-01", cookie);
    expect(badFilter.status).toBe(400);
    expect(await badFilter.text()).toContain("Please check: from");
  });

  it("a viewer sees expenses but no actions, and a forged mark-paid is refused", async () => {
    const { cookie, organizationId, workspaceId } = await signUpUser();
    const infra = await categoryId(workspaceId, "infrastructure");
    await form("/console/expenses", { description: "Rent", amount: "1000", incurredOn: "2026-04-01", costCategoryId: infra }, cookie);
    const viewer = await seedMember(organizationId, "viewer");
    const html = await (await page("/console/expenses", viewer.cookie)).text();
    expect(html).toContain("Rent");
    expect(html).not.toContain("Mark paid");
    expect(html).not.toContain("Record expense");
    const [row] = await expenseRows(workspaceId);
    const res = await form(`/console/expenses/${row!.id}/pay`, {}, viewer.cookie);
    expect(res.status).toBe(403);
    expect((await expenseRows(workspaceId))[0]?.status).toBe("PENDING");
  });
});
