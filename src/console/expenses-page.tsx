// Expenses: filters (dates, category, supplier, status, source), the list with its BRL total, "mark
// paid" on a pending one, a link to each one's edit page (edit, cancel, delete: finance/expense-edit.tsx),
// and a form to record one (BRL, or USD with its rate; monthly/yearly). All through the expenses service.
import type { Hono } from "hono";
import { formatMoney, parseMoney } from "../lib/money";
import { listCostCategories } from "../modules/cost-categories/service";
import { CreateExpenseBody, EXPENSE_SOURCES, EXPENSE_STATUSES, ExpenseListQuery, type ExpenseFilters } from "../modules/expenses/rows";
import { createExpense, listExpenses, payExpense } from "../modules/expenses/service";
import { listSuppliers } from "../modules/suppliers/service";
import { type ConsoleContext, type ConsoleEnv, isExpected, parseForm, plainError, shellFor } from "./context";
import { registerExpenseEditPages } from "./finance/expense-edit";
import { EXPENSE_FIELDS, expenseFields } from "./finance/expense-form";
import { Page } from "./layout";
import { ActionForm, bodyOf, type FormState, formAction, Outcome } from "./parts/action-form";
import { DataTable } from "./parts/data-table";
import { FilterBar, filtersOf } from "./parts/filter-bar";
import { manage } from "./finance/record-actions";

const FILTERS = ["from", "to", "status", "costCategoryId", "supplierId", "source"] as const;
const STATUS_BADGE: Record<string, string> = { PAID: "ok", PENDING: "warn", CANCELED: "" };
const NOTICES: Record<string, string> = {
  created: "Expense recorded.",
  paid: "Expense marked paid.",
  updated: "Expense updated.",
  canceled: "Expense canceled: it stays listed but leaves the totals.",
  reopened: "Expense marked unpaid: it is PENDING again.",
  deleted: "Expense deleted.",
};

async function render(c: ConsoleContext, state: FormState, status: 200 | 400 | 403 | 404 | 409 | 500 = 200) {
  const { deps, principal } = c.get("console");
  const q = filtersOf(c, FILTERS); // a bad value is the API's 400
  let filters: ExpenseFilters = {};
  let error = state.error;
  try {
    const { limit: _l, offset: _o, ...parsed } = parseForm(ExpenseListQuery, q);
    filters = parsed;
  } catch (err) {
    if (!isExpected(err)) throw err;
    error ??= plainError(err);
    status = 400;
  }
  const [expenses, categories, suppliers] = await Promise.all([
    listExpenses(deps, principal, { limit: 100, offset: 0 }, filters),
    listCostCategories(deps, principal, { limit: 100, offset: 0 }, {}),
    listSuppliers(deps, principal, { limit: 100, offset: 0 }, {}),
  ]);
  const categoryName = new Map(categories.rows.map((k) => [k.id, k.name]));
  const supplierName = new Map(suppliers.rows.map((s) => [s.id, s.name]));
  const total = expenses.rows.reduce(
    (sum, e) => sum + (e.status === "CANCELED" ? 0 : (parseMoney(e.amountBrl) as { cents: number }).cents),
    0,
  );
  const canManage = principal.permissions.has("finance.manage");
  const today = deps.now().toISOString().slice(0, 10);
  return c.html(
    <Page title="Expenses" shell={shellFor(c, "/console/expenses")}>
      <h1>Expenses</h1>
      <Outcome state={{ ...state, error }} />
      <FilterBar
        c={c}
        path="/console/expenses"
        label="Filter expenses"
        fields={[
          { name: "from", label: "Incurred from", type: "date" },
          { name: "to", label: "Incurred to", type: "date" },
          { name: "status", label: "Status", options: EXPENSE_STATUSES, any: "Any status" },
          {
            name: "costCategoryId",
            label: "Category",
            options: categories.rows.map((k) => ({ value: k.id, label: k.name })),
            any: "Any category",
          },
          {
            name: "supplierId",
            label: "Supplier",
            options: suppliers.rows.map((s) => ({ value: s.id, label: s.name })),
            any: "Any supplier",
          },
          { name: "source", label: "Source", options: EXPENSE_SOURCES, any: "Any source" },
        ]}
      />
      <p>
        {expenses.totalCount} expense{expenses.totalCount === 1 ? "" : "s"}; shown total (not canceled):{" "}
        <strong>R$ {formatMoney(total)}</strong>
      </p>
      <DataTable
        rows={expenses.rows}
        empty="No expenses match."
        columns={[
          { label: "Incurred", cell: (e) => e.incurredOn },
          {
            label: "Description",
            cell: (e) => (
              <>
                {e.description}
                {e.source !== "MANUAL" ? <span class="muted"> ({e.source.toLowerCase()})</span> : null}
                {e.recurrence !== "NONE" ? <span class="muted"> ({e.recurrence.toLowerCase()})</span> : null}
              </>
            ),
          },
          { label: "Category", cell: (e) => categoryName.get(e.costCategoryId) ?? "—" },
          { label: "Supplier", cell: (e) => (e.supplierId ? (supplierName.get(e.supplierId) ?? "—") : "—") },
          {
            label: "Amount",
            mono: true,
            cell: (e) => (
              <>
                {e.currency} {e.amount}
                {e.exchangeRate ? <span class="muted"> × {e.exchangeRate}</span> : null}
              </>
            ),
          },
          { label: "BRL", cell: (e) => e.amountBrl, mono: true },
          { label: "Due", cell: (e) => e.dueDate ?? "—" },
          {
            label: "Status",
            cell: (e) => (
              <>
                <span class={`badge ${STATUS_BADGE[e.status] ?? ""}`}>{e.status.toLowerCase()}</span>
                {e.paidAt ? <span class="muted"> {e.paidAt.slice(0, 10)}</span> : null}
              </>
            ),
          },
          {
            label: "Actions",
            hiddenLabel: true,
            cell: (e) =>
              canManage ? (
                <>
                  <a href={`/console/expenses/${e.id}/edit`} aria-label={`Edit “${e.description}” of ${e.incurredOn}`}>
                    Edit
                  </a>
                  {e.status === "PENDING" && e.source !== "AWS" ? (
                    <ActionForm
                      id={`pay-${e.id}`}
                      bare
                      action={`/console/expenses/${e.id}/pay`}
                      submit="Mark paid"
                      submitClass="secondary"
                      submitLabel={`Mark paid: “${e.description}” of ${e.incurredOn}`}
                    />
                  ) : null}
                </>
              ) : null,
          },
        ]}
      />
      {canManage ? (
        <ActionForm
          id="e"
          title="Record an expense"
          action="/console/expenses"
          submit="Record expense"
          state={state}
          fields={expenseFields({ categories: categories.rows, suppliers: suppliers.rows, today })}
        />
      ) : (
        <p class="muted">Your role can see expenses but not record or pay them.</p>
      )}
    </Page>,
    status,
  );
}

export function registerExpensePages(app: Hono<ConsoleEnv>) {
  app.get("/expenses", (c) => render(c, { notice: NOTICES[c.req.query("done") ?? ""] }));

  formAction(app, "/expenses", {
    fields: EXPENSE_FIELDS,
    run: manage((deps, principal, _id, values) => createExpense(deps, principal, parseForm(CreateExpenseBody, bodyOf(values)))),
    done: "/console/expenses?done=created",
    render,
  });

  formAction(app, "/expenses/:id/pay", {
    run: manage((deps, principal, id) => payExpense(deps, principal, id, {})),
    done: "/console/expenses?done=paid",
    render,
  });

  registerExpenseEditPages(app);
}
