// One expense: edit it, cancel it, delete it (each a form posting to a console route that calls the
// expenses service, as PATCH/DELETE /api/v1/expenses/{id} do). An imported (AWS) expense can only be
// re-filed; cancel and delete ask for a ticked confirmation box.
import type { Hono } from "hono";
import { listCostCategories } from "../../modules/cost-categories/service";
import { UpdateExpenseBody } from "../../modules/expenses/rows";
import { deleteExpense, getExpense, updateExpense } from "../../modules/expenses/service";
import { listSuppliers } from "../../modules/suppliers/service";
import { type ConsoleContext, type ConsoleEnv, parseForm, shellFor } from "../context";
import { Page } from "../layout";
import { ActionForm, type FormState, formAction, Outcome } from "../parts/action-form";
import { ConfirmForm, confirmed } from "../parts/confirm";
import { changedBody, managing } from "./form-body";
import { EXPENSE_FIELDS, expenseFields, shownExpense } from "./expense-form";

const session = (c: ConsoleContext) => c.get("console");

async function render(c: ConsoleContext, state: FormState, status: 200 | 400 | 403 | 404 | 409 | 500 = 200) {
  const { deps, principal } = session(c);
  const id = c.req.param("id") ?? "";
  const [expense, categories, suppliers] = await Promise.all([
    getExpense(deps, principal, id),
    listCostCategories(deps, principal, { limit: 100, offset: 0 }, {}),
    listSuppliers(deps, principal, { limit: 100, offset: 0 }, {}),
  ]);
  const canManage = principal.permissions.has("finance.manage");
  const imported = expense.source === "AWS";
  const base = `/console/expenses/${expense.id}`;
  return c.html(
    <Page title={`Expense: ${expense.description}`} shell={shellFor(c, "/console/expenses")}>
      <p>
        <a href="/console/expenses">← Expenses</a>
      </p>
      <h1>{expense.description}</h1>
      <p class="muted">
        {expense.currency} {expense.amount} (R$ {expense.amountBrl}) incurred on {expense.incurredOn} ·{" "}
        <span data-expense-status={expense.status}>{expense.status.toLowerCase()}</span>
        {expense.source !== "MANUAL" ? ` · ${expense.source.toLowerCase()}` : ""}
      </p>
      <Outcome state={state} />
      {!canManage ? (
        <p class="muted">Your role can see expenses but not change them.</p>
      ) : (
        <>
          {imported ? (
            <p class="muted">Imported from AWS: only its category can change, and it cannot be deleted (a re-sync would bring it back).</p>
          ) : null}
          <ActionForm
            id="edit"
            title="Edit"
            action={base}
            submit="Save changes"
            state={state}
            fields={expenseFields({ categories: categories.rows, suppliers: suppliers.rows, today: expense.incurredOn, expense })}
          />
          {!imported && expense.status !== "CANCELED" ? (
            <ConfirmForm
              id="cancel"
              action={`${base}/cancel`}
              name="confirmCancel"
              title="Cancel this expense"
              explain="A canceled expense stays on record but leaves the totals and reports."
              label="Yes, cancel this expense"
              submit="Cancel expense"
              state={state}
            />
          ) : null}
          {!imported ? (
            <ConfirmForm
              id="delete"
              action={`${base}/delete`}
              name="confirmDelete"
              title="Delete this expense"
              explain="Deleting removes it for good, from the list and from every report."
              label="Yes, delete this expense"
              submit="Delete expense"
              state={state}
            />
          ) : null}
        </>
      )}
    </Page>,
    status,
  );
}

export function registerExpenseEditPages(app: Hono<ConsoleEnv>) {
  app.get("/expenses/:id/edit", (c) => render(c, {}));

  formAction(app, "/expenses/:id", {
    fields: EXPENSE_FIELDS,
    run: async (c, values, id) => {
      const { deps, principal } = managing(c);
      const current = await getExpense(deps, principal, id);
      const posted = current.source === "AWS" ? { costCategoryId: values.costCategoryId ?? "" } : values;
      const body = changedBody(posted, shownExpense(current), ["exchangeRate", "dueDate", "supplierId"]);
      return updateExpense(deps, principal, id, parseForm(UpdateExpenseBody, body));
    },
    done: "/console/expenses?done=updated",
    render,
  });

  formAction(app, "/expenses/:id/cancel", {
    fields: ["confirmCancel"],
    run: confirmed("confirmCancel", (c, _v, id) => updateExpense(managing(c).deps, managing(c).principal, id, { status: "CANCELED" })),
    done: "/console/expenses?done=canceled",
    render,
  });

  formAction(app, "/expenses/:id/delete", {
    fields: ["confirmDelete"],
    run: confirmed("confirmDelete", (c, _v, id) => deleteExpense(managing(c).deps, managing(c).principal, id)),
    done: "/console/expenses?done=deleted",
    render,
  });
}
