// One expense: edit it, cancel a pending one, mark a paid one unpaid, delete it (each a form posting to a
// console route that calls the expenses service, as PATCH/DELETE /api/v1/expenses/{id} do). An imported (AWS)
// expense can only be re-filed; status moves and delete ask for a ticked confirmation box.
import type { Hono } from "hono";
import { listCostCategories } from "../../modules/cost-categories/service";
import { UpdateExpenseBody } from "../../modules/expenses/rows";
import { deleteExpense, getExpense, updateExpense } from "../../modules/expenses/service";
import { listSuppliers } from "../../modules/suppliers/service";
import { type ConsoleContext, type ConsoleEnv, parseForm } from "../context";
import { type FormState, formAction } from "../parts/action-form";
import { ConfirmForm, confirmed } from "../parts/confirm";
import { EXPENSE_FIELDS, expenseFields, shownExpense } from "./expense-form";
import { DeleteForm, deleteAction, editAction, manage, RecordPage } from "./record-actions";

const LIST = "/console/expenses";

/** The status moves the page offers: each from one status, a confirmed form posting to `<expense>/<action>`. */
const STATUS_MOVES = [
  {
    action: "cancel",
    from: "PENDING",
    to: "CANCELED",
    confirm: "confirmCancel",
    title: "Cancel this expense",
    explain: "A canceled expense stays on record but leaves the totals and reports.",
    label: "Yes, cancel this expense",
    submit: "Cancel expense",
    done: "canceled",
  },
  {
    action: "reopen",
    from: "PAID",
    to: "PENDING",
    confirm: "confirmReopen",
    title: "Mark this expense unpaid",
    explain: "For a payment recorded by mistake: the expense goes back to PENDING (a paid expense cannot be canceled).",
    label: "Yes, mark this expense unpaid",
    submit: "Mark unpaid",
    done: "reopened",
  },
] as const;

async function render(c: ConsoleContext, state: FormState, status: 200 | 400 | 403 | 404 | 409 | 500 = 200) {
  const { deps, principal } = c.get("console");
  const [expense, categories, suppliers] = await Promise.all([
    getExpense(deps, principal, c.req.param("id") ?? ""),
    listCostCategories(deps, principal, { limit: 100, offset: 0 }, {}),
    listSuppliers(deps, principal, { limit: 100, offset: 0 }, {}),
  ]);
  const imported = expense.source === "AWS";
  const base = `${LIST}/${expense.id}`;
  return c.html(
    <RecordPage
      c={c}
      list={LIST}
      listLabel="Expenses"
      title={expense.description}
      about={
        <>
          {expense.currency} {expense.amount} (R$ {expense.amountBrl}) incurred on {expense.incurredOn} ·{" "}
          <span data-expense-status={expense.status}>{expense.status.toLowerCase()}</span>
          {expense.source !== "MANUAL" ? ` · ${expense.source.toLowerCase()}` : ""}
        </>
      }
      note={
        imported ? "Imported from AWS: only its category can change, and it cannot be deleted (a re-sync would bring it back)." : undefined
      }
      base={base}
      fields={expenseFields({ categories: categories.rows, suppliers: suppliers.rows, today: expense.incurredOn, expense })}
      state={state}
    >
      {imported
        ? null
        : STATUS_MOVES.filter((move) => move.from === expense.status).map((move) => (
            <ConfirmForm
              id={move.action}
              action={`${base}/${move.action}`}
              name={move.confirm}
              title={move.title}
              explain={move.explain}
              label={move.label}
              submit={move.submit}
              state={state}
            />
          ))}
      {!imported ? (
        <DeleteForm base={base} noun="expense" explain="Deleting removes it for good, from the list and from every report." state={state} />
      ) : null}
    </RecordPage>,
    status,
  );
}

export function registerExpenseEditPages(app: Hono<ConsoleEnv>) {
  app.get("/expenses/:id/edit", (c) => render(c, {}));

  editAction(app, "/expenses", {
    fields: EXPENSE_FIELDS,
    nullable: ["exchangeRate", "dueDate", "supplierId"],
    read: getExpense,
    shown: shownExpense,
    update: (deps, principal, id, body) => updateExpense(deps, principal, id, parseForm(UpdateExpenseBody, body)),
    done: `${LIST}?done=updated`,
    render,
  });

  for (const move of STATUS_MOVES)
    formAction(app, `/expenses/:id/${move.action}`, {
      fields: [move.confirm],
      run: confirmed(
        move.confirm,
        manage((deps, principal, id) => updateExpense(deps, principal, id, { status: move.to })),
      ),
      done: `${LIST}?done=${move.done}`,
      render,
    });

  deleteAction(app, "/expenses", deleteExpense, `${LIST}?done=deleted`, render);
}
