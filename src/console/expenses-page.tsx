// Expenses: filters (dates, category, supplier, status, source), the list with its BRL total, "mark
// paid" on a pending one, and a form to record one (BRL, or USD with its rate; monthly/yearly).
// All through the expenses service.
import type { Hono } from "hono";
import { formatMoney, parseMoney } from "../lib/money";
import { listCostCategories } from "../modules/cost-categories/service";
import { CreateExpenseBody, EXPENSE_SOURCES, EXPENSE_STATUSES, ExpenseListQuery, type ExpenseFilters } from "../modules/expenses/rows";
import { createExpense, listExpenses, payExpense } from "../modules/expenses/service";
import { listSuppliers } from "../modules/suppliers/service";
import { type ConsoleContext, type ConsoleEnv, isExpected, parseForm, plainError, redirectingAction, shellFor, statusOf } from "./context";
import { Alert, Page } from "./layout";

interface PageState {
  error?: string | undefined;
  notice?: string | undefined;
  values?: Record<string, string> | undefined;
}

const FILTERS = ["from", "to", "status", "costCategoryId", "supplierId", "source"] as const;
const STATUS_BADGE: Record<string, string> = { PAID: "ok", PENDING: "warn", CANCELED: "" };
const NOTICES: Record<string, string> = { created: "Expense recorded.", paid: "Expense marked paid." };

/** The page's query as the API's list filters (empty fields dropped); a bad value is the API's 400. */
function filtersOf(c: ConsoleContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of FILTERS) {
    const v = c.req.query(k)?.trim();
    if (v) out[k] = v;
  }
  return out;
}

async function render(c: ConsoleContext, state: PageState, status: 200 | 400 | 403 | 404 | 409 | 500 = 200) {
  const { deps, principal } = c.get("console");
  const q = filtersOf(c);
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
  const v = state.values ?? {};
  const today = deps.now().toISOString().slice(0, 10);
  return c.html(
    <Page title="Expenses" shell={shellFor(c, "/console/expenses")}>
      <h1>Expenses</h1>
      {error ? <Alert kind="error">{error}</Alert> : null}
      {state.notice ? <Alert kind="success">{state.notice}</Alert> : null}
      <form method="get" action="/console/expenses" class="card" aria-label="Filter expenses">
        <div class="grid">
          <div>
            <label for="f-from">Incurred from</label>
            <input id="f-from" name="from" type="date" value={q.from ?? ""} />
          </div>
          <div>
            <label for="f-to">Incurred to</label>
            <input id="f-to" name="to" type="date" value={q.to ?? ""} />
          </div>
          <div>
            <label for="f-status">Status</label>
            <select id="f-status" name="status">
              <option value="">Any status</option>
              {EXPENSE_STATUSES.map((s) => (
                <option value={s} selected={q.status === s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="f-category">Category</label>
            <select id="f-category" name="costCategoryId">
              <option value="">Any category</option>
              {categories.rows.map((k) => (
                <option value={k.id} selected={q.costCategoryId === k.id}>
                  {k.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="f-supplier">Supplier</label>
            <select id="f-supplier" name="supplierId">
              <option value="">Any supplier</option>
              {suppliers.rows.map((s) => (
                <option value={s.id} selected={q.supplierId === s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="f-source">Source</label>
            <select id="f-source" name="source">
              <option value="">Any source</option>
              {EXPENSE_SOURCES.map((s) => (
                <option value={s} selected={q.source === s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div class="actions">
          <button type="submit" class="secondary">
            Filter
          </button>
          <a href="/console/expenses">Clear</a>
        </div>
      </form>
      <p>
        {expenses.totalCount} expense{expenses.totalCount === 1 ? "" : "s"}; shown total (not canceled):{" "}
        <strong>R$ {formatMoney(total)}</strong>
      </p>
      {expenses.rows.length === 0 ? (
        <p class="muted">No expenses match.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Incurred</th>
              <th scope="col">Description</th>
              <th scope="col">Category</th>
              <th scope="col">Supplier</th>
              <th scope="col">Amount</th>
              <th scope="col">BRL</th>
              <th scope="col">Due</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="muted">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {expenses.rows.map((e) => (
              <tr>
                <td>{e.incurredOn}</td>
                <td>
                  {e.description}
                  {e.source !== "MANUAL" ? <span class="muted"> ({e.source.toLowerCase()})</span> : null}
                  {e.recurrence !== "NONE" ? <span class="muted"> ({e.recurrence.toLowerCase()})</span> : null}
                </td>
                <td>{categoryName.get(e.costCategoryId) ?? "—"}</td>
                <td>{e.supplierId ? (supplierName.get(e.supplierId) ?? "—") : "—"}</td>
                <td class="mono">
                  {e.currency} {e.amount}
                  {e.exchangeRate ? <span class="muted"> × {e.exchangeRate}</span> : null}
                </td>
                <td class="mono">{e.amountBrl}</td>
                <td>{e.dueDate ?? "—"}</td>
                <td>
                  <span class={`badge ${STATUS_BADGE[e.status] ?? ""}`}>{e.status.toLowerCase()}</span>
                  {e.paidAt ? <span class="muted"> {e.paidAt.slice(0, 10)}</span> : null}
                </td>
                <td>
                  {canManage && e.status === "PENDING" && e.source !== "AWS" ? (
                    <form method="post" action={`/console/expenses/${e.id}/pay`}>
                      <button type="submit" class="secondary" aria-label={`Mark paid: “${e.description}” of ${e.incurredOn}`}>
                        Mark paid
                      </button>
                    </form>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canManage ? (
        <div class="card">
          <h2>Record an expense</h2>
          <form method="post" action="/console/expenses">
            <div class="grid">
              <div>
                <label for="e-description">Description</label>
                <input id="e-description" name="description" type="text" required maxlength={500} value={v.description ?? ""} />
              </div>
              <div>
                <label for="e-amount">Amount</label>
                <input id="e-amount" name="amount" type="text" inputmode="decimal" required placeholder="129.90" value={v.amount ?? ""} />
              </div>
              <div>
                <label for="e-currency">Currency</label>
                <select id="e-currency" name="currency">
                  {["BRL", "USD"].map((cur) => (
                    <option value={cur} selected={(v.currency ?? "BRL") === cur}>
                      {cur}
                    </option>
                  ))}
                </select>
              </div>
              <div>
                <label for="e-rate">Exchange rate (BRL per USD)</label>
                <input id="e-rate" name="exchangeRate" type="text" inputmode="decimal" placeholder="5.4321" value={v.exchangeRate ?? ""} />
              </div>
              <div>
                <label for="e-incurred">Incurred on</label>
                <input id="e-incurred" name="incurredOn" type="date" required value={v.incurredOn ?? today} />
              </div>
              <div>
                <label for="e-due">Due date</label>
                <input id="e-due" name="dueDate" type="date" value={v.dueDate ?? ""} />
              </div>
              <div>
                <label for="e-category">Category</label>
                <select id="e-category" name="costCategoryId">
                  <option value="">The supplier's default</option>
                  {categories.rows
                    .filter((k) => !k.archived)
                    .map((k) => (
                      <option value={k.id} selected={v.costCategoryId === k.id}>
                        {k.name}
                      </option>
                    ))}
                </select>
              </div>
              <div>
                <label for="e-supplier">Supplier</label>
                <select id="e-supplier" name="supplierId">
                  <option value="">None</option>
                  {suppliers.rows
                    .filter((s) => !s.archived)
                    .map((s) => (
                      <option value={s.id} selected={v.supplierId === s.id}>
                        {s.name}
                      </option>
                    ))}
                </select>
              </div>
              <div>
                <label for="e-recurrence">Repeats</label>
                <select id="e-recurrence" name="recurrence">
                  {["NONE", "MONTHLY", "YEARLY"].map((r) => (
                    <option value={r} selected={(v.recurrence ?? "NONE") === r}>
                      {r === "NONE" ? "Does not repeat" : r.toLowerCase()}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <div class="actions">
              <button type="submit">Record expense</button>
            </div>
          </form>
        </div>
      ) : (
        <p class="muted">Your role can see expenses but not record or pay them.</p>
      )}
    </Page>,
    status,
  );
}

const FIELDS = ["description", "amount", "currency", "exchangeRate", "incurredOn", "dueDate", "costCategoryId", "supplierId", "recurrence"];

export function registerExpensePages(app: Hono<ConsoleEnv>) {
  app.get("/expenses", (c) => render(c, { notice: NOTICES[c.req.query("done") ?? ""] }));

  app.post("/expenses", async (c) => {
    const form = await c.req.parseBody();
    const values = Object.fromEntries(FIELDS.map((k) => [k, typeof form[k] === "string" ? form[k].trim() : ""]));
    const { deps, principal } = c.get("console");
    try {
      const body = Object.fromEntries(Object.entries(values).filter(([, x]) => x !== ""));
      await createExpense(deps, principal, parseForm(CreateExpenseBody, body));
      return c.redirect("/console/expenses?done=created", 303);
    } catch (err) {
      if (!isExpected(err)) throw err;
      return render(c, { error: plainError(err), values }, statusOf(err) as 400);
    }
  });

  redirectingAction(
    app,
    "/expenses/:id/pay",
    "/console/expenses?done=paid",
    (c, id) => payExpense(c.get("console").deps, c.get("console").principal, id, {}),
    render,
  );
}
