// Profitability: revenue, refunds, fees, direct and shared costs, gross profit and margin by month, plan,
// customer or cost category, with totals; the same report GET /api/v1/profitability answers (its service).
import type { Hono } from "hono";
import { GROUPINGS, ProfitabilityQuery, SHARED_COST_RULE, profitability } from "../modules/analytics/profitability";
import { type Unit, formatMetric } from "./charts";
import { type ConsoleEnv, isExpected, parseForm, plainError, shellFor, statusOf } from "./context";
import { Page } from "./layout";
import { Outcome } from "./parts/action-form";
import { DataTable, Pager, pageOf } from "./parts/data-table";
import { FilterBar } from "./parts/filter-bar";

type Answer = Awaited<ReturnType<typeof profitability>>;
type Report = Answer["report"];
type Amounts = Report["totals"];
const LABELS: Record<(typeof GROUPINGS)[number], string> = {
  month: "Month",
  plan: "Plan",
  customer: "Customer",
  costCategory: "Cost category",
};
const FIGURES: [label: string, key: keyof Amounts, unit: Unit][] = [
  ["Revenue", "revenue", "BRL"],
  ["Refunds", "refunds", "BRL"],
  ["Payment fees", "paymentFees", "BRL"],
  ["Net revenue", "netRevenue", "BRL"],
  ["Direct costs", "directCosts", "BRL"],
  ["Shared costs", "sharedCosts", "BRL"],
  ["Gross profit", "grossProfit", "BRL"],
  ["Margin", "margin", "PERCENT"],
];
const amount = (a: Amounts, key: keyof Amounts, unit: Unit) => formatMetric(a[key] as string | null, unit);

export function registerProfitabilityPage(app: Hono<ConsoleEnv>) {
  app.get("/profitability", async (c) => {
    const { deps, principal } = c.get("console");
    const groupBy = c.req.query("groupBy") || "month";
    const { page, request } = pageOf(c);
    let answer: Answer | null = null;
    let error: string | undefined;
    let status = 200;
    try {
      const query = parseForm(ProfitabilityQuery, {
        groupBy,
        from: c.req.query("from") || undefined,
        to: c.req.query("to") || undefined,
        ...request,
      });
      answer = await profitability(deps, principal, query);
    } catch (err) {
      if (!isExpected(err)) throw err;
      error = plainError(err);
      status = statusOf(err);
    }
    const report: Report | null = answer?.report ?? null;
    return c.html(
      <Page title="Profitability" shell={shellFor(c, "/console/profitability")}>
        <h1>Profitability</h1>
        <FilterBar
          c={c}
          path="/console/profitability"
          label="Choose the rows and the range"
          submit="Show"
          fields={[
            {
              name: "groupBy",
              label: "Rows by",
              any: false,
              value: groupBy,
              options: GROUPINGS.map((g) => ({ value: g, label: LABELS[g] })),
            },
            { name: "from", label: "From", type: "date", value: report?.from },
            { name: "to", label: "To", type: "date", value: report?.to },
          ]}
        />
        <Outcome state={{ error }} />
        {report ? (
          <>
            <p class="muted">
              {report.from} to {report.to} ({report.timeZone}). {SHARED_COST_RULE}
            </p>
            <DataTable
              rows={report.rows}
              empty="Nothing in this range."
              attrs={{ "data-table": "profitability" }}
              columns={[
                {
                  label: LABELS[report.groupBy],
                  cell: (r) => (r.key === null ? <span class="muted">Not attributed</span> : (r.name ?? r.key)),
                  rowHeader: true,
                },
                ...FIGURES.map(([label, key, unit]) => ({ label, cell: (r: Amounts) => amount(r, key, unit) })),
              ]}
              footer={
                <tr data-totals>
                  <th scope="row">Total</th>
                  {FIGURES.map(([, key, unit]) => (
                    <td>{amount(report.totals, key, unit)}</td>
                  ))}
                </tr>
              }
            />
            <Pager c={c} path="/console/profitability" page={page} total={answer?.pagination.totalCount ?? 0} />
          </>
        ) : null}
      </Page>,
      status as 200,
    );
  });
}
