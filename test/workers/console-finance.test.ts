// The console's finance pages: suppliers (search, add, edit, archive, delete refused in use), expenses
// (record, filters, mark paid, edit, cancel, delete) and cost categories (edit, delete; a key formulas use
// is refused naming them), rendered server-side through the same services as the API, whose answers the
// tests read back.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { callWithCookie, seedMember, signUpUser } from "./auth-support";
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
/** The page a successful action redirects to (303), as HTML. */
async function followed(res: Response, cookie: string, location: string) {
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe(location);
  return (await page(location, cookie)).text();
}
/** The API's answer (data) for a record, read with the same session. */
const api = async <T = Record<string, unknown>>(path: string, cookie: string) => {
  const res = await callWithCookie<{ data: T }>("GET", path, cookie);
  return { status: res.status, data: res.body.data };
};
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
    const unconfirmed = await form(`/console/suppliers/${supplier!.id}/delete`, {}, cookie);
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain("tick the box to confirm; nothing was changed");
    const del = await form(`/console/suppliers/${supplier!.id}/delete`, { confirmDelete: "yes" }, cookie);
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

describe("console finance edit pages", () => {
  it("edits an expense (a refused edit keeps the input), cancels and deletes it only once confirmed", async () => {
    const { cookie, workspaceId } = await signUpUser();
    const infra = await categoryId(workspaceId, "infrastructure");
    await form("/console/expenses", { description: "Rent", amount: "1000", incurredOn: "2026-04-01", costCategoryId: infra }, cookie);
    const [row] = await expenseRows(workspaceId);
    const edit = `/console/expenses/${row!.id}`;
    expect(await (await page("/console/expenses", cookie)).text()).toContain(`href="${edit}/edit"`);
    const shown = await (await page(`${edit}/edit`, cookie)).text();
    expect(shown).toContain('value="Rent"');
    expect(shown).toContain('value="1000.00"');

    const fields = { description: "Rent April", amount: "12.345", currency: "BRL", exchangeRate: "", incurredOn: "2026-04-01" };
    const bad = await form(edit, { ...fields, dueDate: "2026-04-10", costCategoryId: infra, supplierId: "", recurrence: "NONE" }, cookie);
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('value="Rent April"');
    expect(badHtml).toContain('value="12.345"');
    expect(badHtml).toMatch(/id="edit-amount" name="amount"[^>]*aria-invalid="true"/);
    expect((await api(`/api/v1/expenses/${row!.id}`, cookie)).data).toMatchObject({ description: "Rent", amount: "1000.00" });

    const saved = await form(
      edit,
      { ...fields, amount: "1200.50", dueDate: "2026-04-10", costCategoryId: infra, recurrence: "NONE" },
      cookie,
    );
    const list = await followed(saved, cookie, "/console/expenses?done=updated");
    expect(list).toContain("Expense updated.");
    expect(list).toContain("Rent April");
    expect((await api(`/api/v1/expenses/${row!.id}`, cookie)).data).toMatchObject({
      description: "Rent April",
      amount: "1200.50",
      amountBrl: "1200.50",
      dueDate: "2026-04-10",
      status: "PENDING",
    });

    const unconfirmed = await form(`${edit}/cancel`, {}, cookie);
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toMatch(/id="cancel-confirmCancel"[^>]*aria-invalid="true"/);
    expect((await api(`/api/v1/expenses/${row!.id}`, cookie)).data).toMatchObject({ status: "PENDING" });
    const canceled = await form(`${edit}/cancel`, { confirmCancel: "yes" }, cookie);
    expect(await followed(canceled, cookie, "/console/expenses?done=canceled")).toContain("Expense canceled");
    expect((await api(`/api/v1/expenses/${row!.id}`, cookie)).data).toMatchObject({ status: "CANCELED" });
    expect(await (await page(`${edit}/edit`, cookie)).text()).not.toContain("Cancel expense");

    const deleted = await form(`${edit}/delete`, { confirmDelete: "yes" }, cookie);
    expect(await followed(deleted, cookie, "/console/expenses?done=deleted")).toContain("No expenses match.");
    expect((await api(`/api/v1/expenses/${row!.id}`, cookie)).status).toBe(404);
  });

  it("a paid expense offers Mark unpaid, not Cancel; a forged cancel is refused; reopened, it cancels", async () => {
    const { cookie, workspaceId } = await signUpUser();
    const infra = await categoryId(workspaceId, "infrastructure");
    await form("/console/expenses", { description: "Rent", amount: "1000", incurredOn: "2026-04-01", costCategoryId: infra }, cookie);
    const [row] = await expenseRows(workspaceId);
    const edit = `/console/expenses/${row!.id}`;
    await form(`${edit}/pay`, {}, cookie);
    expect((await api(`/api/v1/expenses/${row!.id}`, cookie)).data).toMatchObject({ status: "PAID" });
    const shown = await (await page(`${edit}/edit`, cookie)).text();
    expect(shown).toContain("Mark unpaid");
    expect(shown).not.toContain("Cancel expense");

    const forged = await form(`${edit}/cancel`, { confirmCancel: "yes" }, cookie);
    expect(forged.status).toBe(409);
    expect(await forged.text()).toContain("A PAID expense cannot be canceled");
    expect((await api(`/api/v1/expenses/${row!.id}`, cookie)).data).toMatchObject({ status: "PAID" });

    const reopened = await form(`${edit}/reopen`, { confirmReopen: "yes" }, cookie);
    expect(await followed(reopened, cookie, "/console/expenses?done=reopened")).toContain("Expense marked unpaid");
    expect((await api(`/api/v1/expenses/${row!.id}`, cookie)).data).toMatchObject({ status: "PENDING", paidAt: null });
    const canceled = await form(`${edit}/cancel`, { confirmCancel: "yes" }, cookie);
    expect(await followed(canceled, cookie, "/console/expenses?done=canceled")).toContain("Expense canceled");
  });

  it("a viewer gets no edit forms; a forged edit, delete or category change is refused and changes nothing", async () => {
    const { cookie, organizationId, workspaceId } = await signUpUser();
    const infra = await categoryId(workspaceId, "infrastructure");
    await form("/console/expenses", { description: "Rent", amount: "1000", incurredOn: "2026-04-01", costCategoryId: infra }, cookie);
    const [row] = await expenseRows(workspaceId);
    const viewer = await seedMember(organizationId, "viewer");
    const view = await (await page(`/console/expenses/${row!.id}/edit`, viewer.cookie)).text();
    expect(view).toContain("Your role can see expenses but not change them.");
    expect(view).not.toContain("Save changes");
    const edited = await form(`/console/expenses/${row!.id}`, { description: "Hacked", amount: "1" }, viewer.cookie);
    expect(edited.status).toBe(403);
    expect(await edited.text()).toContain("lacks the &#39;finance.manage&#39; permission");
    expect((await form(`/console/expenses/${row!.id}/delete`, { confirmDelete: "yes" }, viewer.cookie)).status).toBe(403);
    expect(await expenseRows(workspaceId)).toMatchObject([{ description: "Rent", amount_brl_cents: 100_000 }]);
    const renamed = await form(
      `/console/cost-categories/${infra}`,
      { name: "Hacked", key: "infrastructure", kind: "FIXED" },
      viewer.cookie,
    );
    expect(renamed.status).toBe(403);
    expect((await api(`/api/v1/cost-categories/${infra}`, cookie)).data).toMatchObject({ name: "Infrastructure" });
  });

  it("edits a supplier (a bad email keeps the input) and deletes an unused one once confirmed", async () => {
    const { cookie, workspaceId } = await signUpUser();
    await form("/console/suppliers", { name: "Padaria" }, cookie);
    const { data } = await api<{ id: string }[]>("/api/v1/suppliers", cookie);
    const edit = `/console/suppliers/${data[0]!.id}`;
    expect(await (await page("/console/suppliers", cookie)).text()).toContain(`href="${edit}/edit"`);
    const bad = await form(edit, { name: "Padaria Central", email: "not-an-email" }, cookie);
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('value="Padaria Central"');
    expect(badHtml).toContain('value="not-an-email"');
    expect(badHtml).toContain('id="edit-email-error"');
    const software = await categoryId(workspaceId, "software");
    const saved = await form(edit, { name: "Padaria Central", email: "pao@example.com.br", defaultCostCategoryId: software }, cookie);
    expect(await followed(saved, cookie, "/console/suppliers?done=updated")).toContain("Padaria Central");
    expect((await api(`/api/v1/suppliers/${data[0]!.id}`, cookie)).data).toMatchObject({
      name: "Padaria Central",
      email: "pao@example.com.br",
      defaultCostCategoryId: software,
    });
    const deleted = await form(`${edit}/delete`, { confirmDelete: "yes" }, cookie);
    expect(await followed(deleted, cookie, "/console/suppliers?done=deleted")).toContain("Supplier deleted.");
    expect((await api(`/api/v1/suppliers/${data[0]!.id}`, cookie)).status).toBe(404);
  });

  it("edits a cost category; a key or a delete that a formula depends on is refused naming the formula", async () => {
    const { cookie, workspaceId } = await signUpUser();
    const software = await categoryId(workspaceId, "software");
    const formula = await callWithCookie("POST", "/api/v1/formulas", cookie, {
      body: { key: "software_share", name: "Software share", expression: "expenses.software / revenue * 100", unit: "PERCENT" },
    });
    expect(formula.status).toBe(201);
    const edit = `/console/cost-categories/${software}`;
    expect(await (await page("/console/cost-categories", cookie)).text()).toContain(`href="${edit}/edit"`);
    const rekey = await form(edit, { name: "Software", key: "saas", kind: "FIXED", parentId: "", description: "" }, cookie);
    expect(rekey.status).toBe(409);
    const rekeyHtml = await rekey.text();
    expect(rekeyHtml).toContain("Formulas software_share use expenses.software");
    expect(rekeyHtml).toContain('value="saas"');
    const undeletable = await form(`${edit}/delete`, { confirmDelete: "yes" }, cookie);
    expect(undeletable.status).toBe(409);
    expect(await undeletable.text()).toContain("Formulas software_share use expenses.software; change or delete them");
    const saved = await form(edit, { name: "SaaS tools", key: "software", kind: "FIXED", description: "Licences" }, cookie);
    expect(await followed(saved, cookie, `/console/cost-categories?done=updated&id=${software}`)).toContain(
      "SaaS tools saved (expenses.software).",
    );
    expect((await api(`/api/v1/cost-categories/${software}`, cookie)).data).toMatchObject({
      name: "SaaS tools",
      key: "software",
      description: "Licences",
    });
    const created = await form("/console/cost-categories", { name: "Snacks", kind: "VARIABLE" }, cookie);
    const snacks = await categoryId(workspaceId, "snacks");
    expect(await followed(created, cookie, `/console/cost-categories?done=created&id=${snacks}`)).toContain(
      "Created Snacks (expenses.snacks).",
    );
    await form("/console/expenses", { description: "Coffee", amount: "30", incurredOn: "2026-04-01", costCategoryId: snacks }, cookie);
    const inUse = await form(`/console/cost-categories/${snacks}/delete`, { confirmDelete: "yes" }, cookie);
    expect(inUse.status).toBe(409);
    expect(await inUse.text()).toContain("This category is in use (1 expense); archive it instead.");
    const [coffee] = await expenseRows(workspaceId);
    await form(`/console/expenses/${coffee!.id}/delete`, { confirmDelete: "yes" }, cookie);
    const deleted = await form(`/console/cost-categories/${snacks}/delete`, { confirmDelete: "yes" }, cookie);
    expect(await followed(deleted, cookie, "/console/cost-categories?done=deleted")).toContain("Category deleted.");
    expect((await api(`/api/v1/cost-categories/${snacks}`, cookie)).status).toBe(404);
  });
});
