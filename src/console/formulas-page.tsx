// Formulas: list, create, edit, delete, with live validation while typing (public/console/formulas.js
// posts the expression to /console/formulas/validate, which asks the formulas service's validate: the
// variables used, or the error naming its position). Every rule lives in the formulas service.
import type { Hono } from "hono";
import { errorResponse } from "../http/error-handler";
import { ok } from "../http/envelope";
import { CreateFormulaBody, UpdateFormulaBody, ValidateFormulaBody } from "../modules/analytics/formula-schemas";
import {
  createFormula,
  deleteFormula,
  formulaSeries,
  getFormula,
  listFormulas,
  updateFormula,
  validateFormula,
} from "../modules/analytics/formulas-service";
import { MAX_EXPRESSION_LENGTH } from "../modules/analytics/formula-engine";
import { CHART_ASSETS, Chart, type Unit, formatMetric } from "./charts";
import { type ConsoleContext, type ConsoleEnv, isExpected, parseForm, plainError, shellFor, statusOf } from "./context";
import { Alert, Page } from "./layout";

type Formula = Awaited<ReturnType<typeof getFormula>>;
interface Values {
  key: string;
  name: string;
  expression: string;
  unit: string;
  description: string;
}
const UNITS: Unit[] = ["BRL", "PERCENT", "COUNT"];
const EMPTY: Values = { key: "", name: "", expression: "", unit: "BRL", description: "" };
const str = (form: Record<string, unknown>, name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
const valuesOf = (form: Record<string, unknown>): Values => ({
  key: str(form, "key").trim(),
  name: str(form, "name"),
  expression: str(form, "expression"),
  unit: str(form, "unit"),
  description: str(form, "description"),
});

/** The form fields shared by create and edit; the expression box validates as you type. */
function FormulaFields({ values }: { values: Values }) {
  return (
    <>
      <label for="formula-key">Key (other formulas use it as a variable)</label>
      <input id="formula-key" name="key" type="text" required pattern="[a-z][a-z0-9_]{0,62}" value={values.key} />
      <label for="formula-name">Name</label>
      <input id="formula-name" name="name" type="text" required maxlength={120} value={values.name} />
      <label for="formula-expression">Expression</label>
      <textarea
        id="formula-expression"
        name="expression"
        rows={3}
        required
        maxlength={MAX_EXPRESSION_LENGTH}
        class="mono"
        data-validate-url="/console/formulas/validate"
        data-validate-status="formula-expression-status"
        aria-describedby="formula-expression-help formula-expression-status"
      >
        {values.expression}
      </textarea>
      <p id="formula-expression-help" class="muted">
        Metric keys (<code>revenue</code>, <code>expenses</code>, <code>mrr</code>, … see <a href="/console/metrics">Metrics</a>),{" "}
        <code>expenses.&lt;category key&gt;</code>, other formulas' keys; <code>+ - * /</code>, parentheses, <code>min</code>,{" "}
        <code>max</code>, <code>abs</code>, <code>round(x, digits)</code>, <code>if(a &gt; b, x, y)</code>. Division by zero gives an empty
        point.
      </p>
      <div id="formula-expression-status" aria-live="polite" data-validation />
      <label for="formula-unit">Unit</label>
      <select id="formula-unit" name="unit">
        {UNITS.map((u) => (
          <option value={u} selected={u === values.unit}>
            {u}
          </option>
        ))}
      </select>
      <label for="formula-description">Description (optional)</label>
      <input id="formula-description" name="description" type="text" maxlength={500} value={values.description} />
    </>
  );
}

const PAGE_ASSETS = { scripts: [...CHART_ASSETS.scripts, "/console/formulas.js"], styles: CHART_ASSETS.styles };

async function renderList(c: ConsoleContext, state: { error?: string; notice?: string; values?: Values } = {}, status = 200) {
  const { deps, principal } = c.get("console");
  const { rows } = await listFormulas(deps, principal, { limit: 100, offset: 0 });
  const canManage = principal.permissions.has("analytics.manage");
  return c.html(
    <Page title="Formulas" shell={shellFor(c, "/console/formulas")} {...PAGE_ASSETS}>
      <h1>Formulas</h1>
      <p class="muted">Your own metrics, computed per period from the metric catalogue with exact decimals.</p>
      {state.error ? <Alert kind="error">{state.error}</Alert> : null}
      {state.notice ? <Alert kind="success">{state.notice}</Alert> : null}
      {rows.length === 0 ? (
        <p class="muted">No formulas yet.</p>
      ) : (
        <table data-table="formulas">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Expression</th>
              <th scope="col">Unit</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((f) => (
              <tr>
                <td>
                  <a href={`/console/formulas/${f.id}`}>{f.name}</a>
                </td>
                <td>
                  <code>{f.key}</code>
                </td>
                <td class="mono">{f.expression}</td>
                <td>{f.unit}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canManage ? (
        <div class="card">
          <h2>New formula</h2>
          <form method="post" action="/console/formulas">
            <FormulaFields values={state.values ?? EMPTY} />
            <div class="actions">
              <button type="submit">Create formula</button>
            </div>
          </form>
        </div>
      ) : null}
    </Page>,
    status as 200,
  );
}

async function renderDetail(c: ConsoleContext, id: string, state: { error?: string; notice?: string; values?: Values } = {}, status = 200) {
  const { deps, principal } = c.get("console");
  const f: Formula = await getFormula(deps, principal, id);
  const series = await formulaSeries(deps, principal, id, { interval: "day" });
  const canManage = principal.permissions.has("analytics.manage");
  const values = state.values ?? { ...f, description: f.description ?? "" };
  return c.html(
    <Page title={`Formula ${f.name}`} shell={shellFor(c, "/console/formulas")} {...PAGE_ASSETS}>
      <p>
        <a href="/console/formulas">← All formulas</a>
      </p>
      <h1>
        {f.name} <code class="muted">{f.key}</code>
      </h1>
      {state.error ? <Alert kind="error">{state.error}</Alert> : null}
      {state.notice ? <Alert kind="success">{state.notice}</Alert> : null}
      <p class="mono">{f.expression}</p>
      {f.references.length > 0 ? (
        <ul aria-label="Variables" data-references>
          {f.references.map((r) => (
            <li>
              <code>{r.variable}</code> — {r.kind === "expenses" ? "cost category" : r.kind} {r.name ?? "(unknown)"}
            </li>
          ))}
        </ul>
      ) : null}
      <p>
        Total {series.from} to {series.to}: <strong data-total>{formatMetric(series.total, series.unit)}</strong>{" "}
        <a href={`/console/metrics?metric=${encodeURIComponent(f.key)}`}>Explore</a>
      </p>
      <Chart
        id="formula-series"
        label={`${f.name} per day, last 30 days`}
        x={series.points.map((p) => p.periodStart)}
        series={[{ label: f.name, color: "#1d4ed8", unit: series.unit, values: series.points.map((p) => p.value) }]}
      />
      {canManage ? (
        <>
          <div class="card">
            <h2>Edit</h2>
            <form method="post" action={`/console/formulas/${f.id}`}>
              <FormulaFields values={values} />
              <div class="actions">
                <button type="submit">Save changes</button>
              </div>
            </form>
          </div>
          <form method="post" action={`/console/formulas/${f.id}/delete`}>
            <button type="submit" class="danger">
              Delete formula
            </button>
          </form>
        </>
      ) : null}
    </Page>,
    status as 200,
  );
}

const bodyOf = (v: Values) => ({
  key: v.key,
  name: v.name,
  expression: v.expression,
  unit: v.unit,
  description: v.description.trim() || null,
});

export function registerFormulaPages(app: Hono<ConsoleEnv>) {
  // Live validation (JSON in and out; the session's same-origin check applies). The service's verdict on the
  // expression is the answer, so an invalid one is a 200 `{valid: false, error: {message, position}}`: a
  // browser logs every 4xx fetch as a console error, and a half-typed expression is not a failed request.
  // Anything else (no permission, a body without `expression`) keeps the API's error envelope and status.
  app.post("/formulas/validate", async (c) => {
    const { deps, principal } = c.get("console");
    const type = c.req.header("content-type") ?? "";
    const raw = type.includes("application/json") ? await c.req.json().catch(() => ({})) : await c.req.parseBody();
    try {
      const input = parseForm(ValidateFormulaBody, { expression: (raw as Record<string, unknown>).expression });
      try {
        return ok(c, await validateFormula(deps, principal, input.expression), 200);
      } catch (err) {
        if (!isExpected(err) || typeof err.details.position !== "number") throw err;
        return ok(c, { valid: false, error: { code: err.code, message: err.message, position: err.details.position } }, 200);
      }
    } catch (err) {
      if (!isExpected(err)) throw err;
      return errorResponse(c, err.code, err.message, err.details);
    }
  });

  app.get("/formulas", (c) => renderList(c));
  app.post("/formulas", async (c) => {
    const values = valuesOf(await c.req.parseBody());
    const { deps, principal } = c.get("console");
    try {
      const created = await createFormula(deps, principal, parseForm(CreateFormulaBody, bodyOf(values)));
      return c.redirect(`/console/formulas/${created.id}?created=1`, 303);
    } catch (err) {
      if (!isExpected(err)) throw err;
      return renderList(c, { error: plainError(err), values }, statusOf(err));
    }
  });
  app.get("/formulas/:id", (c) => renderDetail(c, c.req.param("id"), c.req.query("created") ? { notice: "Formula created." } : {}));
  app.post("/formulas/:id", async (c) => {
    const id = c.req.param("id");
    const values = valuesOf(await c.req.parseBody());
    const { deps, principal } = c.get("console");
    try {
      await updateFormula(deps, principal, id, parseForm(UpdateFormulaBody, bodyOf(values)));
      return renderDetail(c, id, { notice: "Saved." });
    } catch (err) {
      if (!isExpected(err)) throw err;
      return renderDetail(c, id, { error: plainError(err), values }, statusOf(err));
    }
  });
  app.post("/formulas/:id/delete", async (c) => {
    const id = c.req.param("id");
    const { deps, principal } = c.get("console");
    try {
      await deleteFormula(deps, principal, id);
      return renderList(c, { notice: "Formula deleted." });
    } catch (err) {
      if (!isExpected(err)) throw err;
      return renderDetail(c, id, { error: plainError(err) }, statusOf(err));
    }
  });
}
