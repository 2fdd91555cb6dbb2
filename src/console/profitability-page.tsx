// Profitability: revenue, refunds, fees, direct and shared costs, gross profit and margin by month, plan,
// customer or cost category, with totals; the same report GET /api/v1/profitability answers (its service).
import type { Hono } from "hono";
import { GROUPINGS, ProfitabilityQuery, SHARED_COST_RULE, profitability } from "../modules/analytics/profitability";
import { formatMetric } from "./charts";
import { type ConsoleEnv, isExpected, parseForm, plainError, shellFor, statusOf } from "./context";
import { Alert, Page } from "./layout";
import { Pager, pageOf } from "./parts/data-table";

type Answer = Awaited<ReturnType<typeof profitability>>;
type Report = Answer["report"];
type Amounts = Report["totals"];
const LABELS: Record<(typeof GROUPINGS)[number], string> = {
  month: "Month",
  plan: "Plan",
  customer: "Customer",
  costCategory: "Cost category",
};

const Cells = ({ a }: { a: Amounts }) => (
  <>
    <td>{formatMetric(a.revenue, "BRL")}</td>
    <td>{formatMetric(a.refunds, "BRL")}</td>
    <td>{formatMetric(a.paymentFees, "BRL")}</td>
    <td>{formatMetric(a.netRevenue, "BRL")}</td>
    <td>{formatMetric(a.directCosts, "BRL")}</td>
    <td>{formatMetric(a.sharedCosts, "BRL")}</td>
    <td>{formatMetric(a.grossProfit, "BRL")}</td>
    <td>{formatMetric(a.margin, "PERCENT")}</td>
  </>
);

export function registerProfitabilityPage(app: Hono<ConsoleEnv>) {
  app.get("/profitability", async (c) => {
    const { deps, principal } = c.get("console");
    const asked = { groupBy: c.req.query("groupBy") || "month", from: c.req.query("from") ?? "", to: c.req.query("to") ?? "" };
    const { page, request } = pageOf(c);
    let answer: Answer | null = null;
    let error: string | null = null;
    let status = 200;
    try {
      const query = parseForm(ProfitabilityQuery, {
        groupBy: asked.groupBy,
        from: asked.from || undefined,
        to: asked.to || undefined,
        ...request,
      });
      answer = await profitability(deps, principal, query);
    } catch (err) {
      if (!isExpected(err)) throw err;
      error = plainError(err);
      status = statusOf(err);
    }
    const report = answer?.report ?? null;
    return c.html(
      <Page title="Profitability" shell={shellFor(c, "/console/profitability")}>
        <h1>Profitability</h1>
        <form method="get" action="/console/profitability" class="card">
          <div class="grid">
            <div>
              <label for="groupBy">Rows by</label>
              <select id="groupBy" name="groupBy">
                {GROUPINGS.map((g) => (
                  <option value={g} selected={g === asked.groupBy}>
                    {LABELS[g]}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label for="from">From</label>
              <input id="from" name="from" type="date" value={report?.from ?? asked.from} />
            </div>
            <div>
              <label for="to">To</label>
              <input id="to" name="to" type="date" value={report?.to ?? asked.to} />
            </div>
          </div>
          <div class="actions">
            <button type="submit">Show</button>
          </div>
        </form>
        {error ? <Alert kind="error">{error}</Alert> : null}
        {report ? (
          <>
            <p class="muted">
              {report.from} to {report.to} ({report.timeZone}). {SHARED_COST_RULE}
            </p>
            <table data-table="profitability">
              <thead>
                <tr>
                  <th scope="col">{LABELS[report.groupBy]}</th>
                  <th scope="col">Revenue</th>
                  <th scope="col">Refunds</th>
                  <th scope="col">Payment fees</th>
                  <th scope="col">Net revenue</th>
                  <th scope="col">Direct costs</th>
                  <th scope="col">Shared costs</th>
                  <th scope="col">Gross profit</th>
                  <th scope="col">Margin</th>
                </tr>
              </thead>
              <tbody>
                {report.rows.map((r) => (
                  <tr>
                    <th scope="row">{r.key === null ? <span class="muted">Not attributed</span> : (r.name ?? r.key)}</th>
                    <Cells a={r} />
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr data-totals>
                  <th scope="row">Total</th>
                  <Cells a={report.totals} />
                </tr>
              </tfoot>
            </table>
            <Pager c={c} path="/console/profitability" page={page} total={answer?.pagination.totalCount ?? 0} />
          </>
        ) : null}
      </Page>,
      status as 200,
    );
  });
}
