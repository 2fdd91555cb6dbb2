// Formulas: list, create, edit, delete, with live validation while typing (public/console/formulas.js
// posts the expression to /console/formulas/validate, which asks the formulas service's validate: what each
// variable refers to, or the error naming its position). Every rule lives in the formulas service; the page
// is the console's shared parts (action form, data table) over it.
import type { Hono } from "hono";
import { errorResponse } from "../http/error-handler";
import { ok } from "../http/envelope";
import { MAX_EXPRESSION_LENGTH } from "../modules/analytics/formula-engine";
import type { Reference } from "../modules/analytics/formula-references";
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
import { CHART_ASSETS, Chart, ChartTable, type Unit, formatMetric } from "./charts";
import { type ConsoleContext, type ConsoleEnv, isExpected, parseForm, shellFor } from "./context";
import { Page } from "./layout";
import { ActionForm, type FormField, type FormState, Field, bodyOf, formAction, Outcome } from "./parts/action-form";
import { DataTable } from "./parts/data-table";

const FIELDS = ["key", "name", "expression", "unit", "description"] as const;
const UNITS: Unit[] = ["BRL", "PERCENT", "COUNT"];
const PAGE_ASSETS = { scripts: [...CHART_ASSETS.scripts, "/console/formulas.js"], styles: CHART_ASSETS.styles };
const NOTICES: Record<string, string> = { created: "Formula created.", saved: "Saved.", deleted: "Formula deleted." };
const KIND_LABELS: Record<Reference["kind"], string> = { metric: "metric", expenses: "cost category", formula: "formula" };

/** The page that explains what a variable names: the metric in the explorer, the category's expenses, the formula. */
function referenceHref(r: Reference): string | undefined {
  if (r.id === null) return undefined;
  if (r.kind === "metric") return `/console/metrics?metric=${encodeURIComponent(r.id)}`;
  if (r.kind === "expenses") return `/console/expenses?costCategoryId=${encodeURIComponent(r.id)}`;
  return `/console/formulas/${r.id}`;
}

/** Each variable with the metric, cost category or formula it names (the API's `references`). */
export const References = ({ references }: { references: Reference[] }) => (
  <DataTable
    rows={references}
    empty="The expression uses no variables."
    caption="What each variable refers to"
    attrs={{ "data-references": "" }}
    columns={[
      { label: "Variable", cell: (r) => <code>{r.variable}</code>, rowHeader: true },
      { label: "Refers to", cell: (r) => KIND_LABELS[r.kind] },
      {
        label: "Name",
        cell: (r) => {
          const href = referenceHref(r);
          return href ? <a href={href}>{r.name}</a> : (r.name ?? "(unknown)");
        },
      },
    ]}
  />
);

const EXPRESSION_HELP = (
  <>
    Metric keys (<code>revenue</code>, <code>expenses</code>, <code>mrr</code>, … see <a href="/console/metrics">Metrics</a>),{" "}
    <code>expenses.&lt;category key&gt;</code>, other formulas' keys; <code>+ - * /</code>, parentheses, <code>min</code>, <code>max</code>,{" "}
    <code>abs</code>, <code>round(x, digits)</code>, <code>if(a &gt; b, x, y)</code>. Division by zero gives an empty point.
  </>
);

/** The create and edit form: the expression box validates as you type and lists what each variable names. */
function FormulaForm(props: {
  id: string;
  action: string;
  submit: string;
  title: string;
  state: FormState;
  current?: Record<string, string>;
}) {
  const value = (name: string) => props.current?.[name];
  const fields: FormField[] = [
    {
      name: "key",
      label: "Key",
      required: true,
      value: value("key"),
      hint: "Other formulas use it as a variable.",
      attrs: { pattern: "[a-z][a-z0-9_]{0,62}" },
    },
    { name: "name", label: "Name", required: true, maxlength: 120, value: value("name") },
    { name: "unit", label: "Unit", type: "select", options: UNITS, value: value("unit") },
    { name: "description", label: "Description (optional)", maxlength: 500, value: value("description") },
  ];
  const statusId = `${props.id}-expression-status`;
  const expression: FormField = {
    name: "expression",
    label: "Expression",
    type: "textarea",
    required: true,
    maxlength: MAX_EXPRESSION_LENGTH,
    value: value("expression"),
    hint: EXPRESSION_HELP,
    describedBy: statusId,
    attrs: { class: "mono", "data-validate-url": "/console/formulas/validate", "data-validate-status": statusId },
  };
  return (
    <ActionForm id={props.id} title={props.title} action={props.action} submit={props.submit} state={props.state} fields={fields}>
      <Field field={expression} formId={props.id} state={props.state} />
      <div id={statusId} aria-live="polite" data-validation />
    </ActionForm>
  );
}

const noticeOf = (c: ConsoleContext, state: FormState): FormState => ({
  ...state,
  notice: state.notice ?? NOTICES[c.req.query("done") ?? ""],
});

async function renderList(c: ConsoleContext, state: FormState = {}, status: 200 | 400 = 200) {
  const { deps, principal } = c.get("console");
  const { rows } = await listFormulas(deps, principal, { limit: 100, offset: 0 });
  return c.html(
    <Page title="Formulas" shell={shellFor(c, "/console/formulas")} {...PAGE_ASSETS}>
      <h1>Formulas</h1>
      <p class="muted">Your own metrics, computed per period from the metric catalogue with exact decimals.</p>
      <Outcome state={noticeOf(c, state)} />
      <DataTable
        rows={rows}
        empty="No formulas yet."
        attrs={{ "data-table": "formulas" }}
        columns={[
          { label: "Name", cell: (f) => f.name, href: (f) => `/console/formulas/${f.id}` },
          { label: "Key", cell: (f) => <code>{f.key}</code> },
          { label: "Expression", cell: (f) => f.expression, mono: true },
          { label: "Uses", cell: (f) => f.references.map((r) => r.name ?? r.variable).join(", ") },
          { label: "Unit", cell: (f) => f.unit },
        ]}
      />
      {principal.permissions.has("analytics.manage") ? (
        <FormulaForm id="formula" title="New formula" action="/console/formulas" submit="Create formula" state={state} />
      ) : null}
    </Page>,
    status,
  );
}

async function renderDetail(c: ConsoleContext, state: FormState = {}, status: 200 | 400 = 200) {
  const { deps, principal } = c.get("console");
  const id = c.req.param("id") ?? "";
  const f = await getFormula(deps, principal, id);
  const series = await formulaSeries(deps, principal, id, { interval: "day" });
  const values = series.points.map((p) => p.value);
  return c.html(
    <Page title={`Formula ${f.name}`} shell={shellFor(c, "/console/formulas")} {...PAGE_ASSETS}>
      <p>
        <a href="/console/formulas">← All formulas</a>
      </p>
      <h1>
        {f.name} <code class="muted">{f.key}</code>
      </h1>
      <Outcome state={noticeOf(c, state)} />
      <p class="mono">{f.expression}</p>
      <References references={f.references} />
      <p>
        Total {series.from} to {series.to}: <strong data-total>{formatMetric(series.total, series.unit)}</strong>{" "}
        <a href={`/console/metrics?metric=${encodeURIComponent(f.key)}`}>Explore</a>
      </p>
      <Chart
        id="formula-series"
        label={`${f.name} per day, last 30 days`}
        x={series.points.map((p) => p.periodStart)}
        series={[{ label: f.name, color: "#1d4ed8", unit: series.unit, values }]}
      />
      <ChartTable
        chart="formula-series"
        caption={`${f.name} per day`}
        head="Day"
        rows={series.points.map((p) => ({ label: p.periodStart, values: [p.value] }))}
        columns={[{ label: f.name, unit: series.unit }]}
      />
      {principal.permissions.has("analytics.manage") ? (
        <>
          <FormulaForm
            id="formula-edit"
            title="Edit"
            action={`/console/formulas/${f.id}`}
            submit="Save changes"
            state={state}
            current={{ key: f.key, name: f.name, expression: f.expression, unit: f.unit, description: f.description ?? "" }}
          />
          <ActionForm id="formula-delete" action={`/console/formulas/${f.id}/delete`} submit="Delete formula" submitClass="danger" bare />
        </>
      ) : null}
    </Page>,
    status,
  );
}

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
  formAction(app, "/formulas", {
    fields: FIELDS,
    run: (c, values) => createFormula(c.get("console").deps, c.get("console").principal, parseForm(CreateFormulaBody, bodyOf(values))),
    done: (_c, created) => `/console/formulas/${(created as { id: string }).id}?done=created`,
    render: renderList,
  });
  app.get("/formulas/:id", (c) => renderDetail(c));
  formAction(app, "/formulas/:id", {
    fields: FIELDS,
    // An emptied description clears it (null), unlike the other fields, where empty means "not given".
    run: (c, values, id) =>
      updateFormula(
        c.get("console").deps,
        c.get("console").principal,
        id,
        parseForm(UpdateFormulaBody, { ...bodyOf(values), description: values.description || null }),
      ),
    done: (c) => `/console/formulas/${c.req.param("id")}?done=saved`,
    render: renderDetail,
  });
  formAction(app, "/formulas/:id/delete", {
    run: (c, _values, id) => deleteFormula(c.get("console").deps, c.get("console").principal, id),
    done: "/console/formulas?done=deleted",
    render: renderDetail,
  });
}
