// Dashboard: the first page after sign-in (PLATFORM.md "dashboard"). Cards with the previous equal period
// and the change, a daily revenue-vs-expenses chart, the top customers and plans, the next charges due.
// All data comes from `loadDashboard`, i.e. the analytics dashboard service (GET /api/v1/dashboard's).
import type { Hono } from "hono";
import type { Principal } from "../access/principal";
import type { Deps } from "../deps";
import { dashboard } from "../modules/analytics/dashboard";
import { CHART_ASSETS, Chart, type Unit, formatMetric } from "./charts";
import { type ConsoleEnv, shellFor } from "./context";
import { Page } from "./layout";

export const DASHBOARD_PERIODS = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  mtd: "Month to date",
  qtd: "Quarter to date",
  ytd: "Year to date",
} as const;
export type DashboardPeriod = keyof typeof DASHBOARD_PERIODS;
const isPeriod = (v: string | undefined): v is DashboardPeriod => v !== undefined && v in DASHBOARD_PERIODS;

export type DashboardView = Awaited<ReturnType<typeof dashboard>>;
type DashboardCard = DashboardView["cards"][number];

/** Everything the Dashboard page shows, in one call of the dashboard service (the page never reads elsewhere). */
export function loadDashboard(deps: Deps, principal: Principal, period: DashboardPeriod): Promise<DashboardView> {
  // The page's tables are titled "by MRR"; ranking them by revenue (the API's default) is the console's part of issue 27 #4.
  return dashboard(deps, principal, { period, rankBy: "mrr" });
}

/** Whether a rise is good news (a falling churn rate or expense line is). */
const RISE_IS_GOOD: Record<string, boolean> = { churn_rate: false, expenses: false, pending_amount: false, overdue_amount: false };

function Change({ card }: { card: DashboardCard }) {
  if (card.changePercent === null) return <span class="muted">no comparison</span>;
  const n = Number(card.changePercent);
  const good = n === 0 ? null : n > 0 === (RISE_IS_GOOD[card.key] ?? true);
  const sign = n > 0 ? "+" : "";
  return (
    <span class={`badge ${good === null ? "" : good ? "ok" : "bad"}`} data-change>
      {`${sign}${card.changePercent} %`}
    </span>
  );
}

const Top = ({ title, rows, kind }: { title: string; rows: DashboardView["topCustomers"]; kind: string }) => (
  <div>
    <h2>{title}</h2>
    {rows.length === 0 ? (
      <p class="muted">No active subscriptions yet.</p>
    ) : (
      <table data-table={kind}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">MRR</th>
            <th scope="col">Active subscriptions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr>
              <td>{r.name ?? <code>{r.id}</code>}</td>
              <td>{formatMetric(r.mrr, "BRL")}</td>
              <td>{r.activeSubscriptions}</td>
            </tr>
          ))}
        </tbody>
      </table>
    )}
  </div>
);

function DashboardPage({ view }: { view: DashboardView }) {
  return (
    <>
      <h1>Dashboard</h1>
      <form method="get" action="/console/dashboard" class="inline">
        <label for="dashboard-period">Period</label>
        <select id="dashboard-period" name="period">
          {Object.entries(DASHBOARD_PERIODS).map(([value, label]) => (
            <option value={value} selected={value === view.period}>
              {label}
            </option>
          ))}
        </select>
        <button type="submit" class="secondary">
          Show
        </button>
      </form>
      <p class="muted">
        {view.from} to {view.to}, compared with {view.previous.from} to {view.previous.to} ({view.timeZone}).
      </p>
      <div class="grid">
        {view.cards.map((card) => (
          <div class="card" data-card={card.key}>
            <div class="muted">{card.name}</div>
            <div class="stat" data-value>
              {formatMetric(card.value, card.unit as Unit)}
            </div>
            <div>
              <Change card={card} /> <span class="muted">previous: {formatMetric(card.previous, card.unit as Unit)}</span>
            </div>
          </div>
        ))}
      </div>
      <h2>Revenue vs expenses</h2>
      <Chart
        id="revenue-vs-expenses"
        label="Revenue and expenses per day (BRL)"
        x={view.series.map((p) => p.day)}
        series={[
          { label: "Revenue", color: "#1d4ed8", unit: "BRL", values: view.series.map((p) => p.revenue) },
          { label: "Expenses", color: "#b91c1c", unit: "BRL", values: view.series.map((p) => p.expenses) },
        ]}
      />
      <details>
        <summary>The numbers per day</summary>
        <table data-table="revenue-vs-expenses">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Revenue</th>
              <th scope="col">Expenses</th>
            </tr>
          </thead>
          <tbody>
            {view.series.map((p) => (
              <tr>
                <td>{p.day}</td>
                <td>{formatMetric(p.revenue, "BRL")}</td>
                <td>{formatMetric(p.expenses, "BRL")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <div class="grid">
        <Top title="Top customers by MRR" rows={view.topCustomers} kind="top-customers" />
        <Top title="Top plans by MRR" rows={view.topPlans} kind="top-plans" />
      </div>
      <h2>Next charges due</h2>
      {view.nextChargesDue.length === 0 ? (
        <p class="muted">No pending charges due.</p>
      ) : (
        <table data-table="next-charges">
          <thead>
            <tr>
              <th scope="col">Due</th>
              <th scope="col">Customer</th>
              <th scope="col">Value</th>
              <th scope="col">Billing type</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {view.nextChargesDue.map((d) => (
              <tr>
                <td>{d.dueDate}</td>
                <td>{d.customerName ?? <code>{d.customerId}</code>}</td>
                <td>{formatMetric(d.value, "BRL")}</td>
                <td>{d.billingType}</td>
                <td>{d.description ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function registerDashboardPage(app: Hono<ConsoleEnv>) {
  app.get("/dashboard", async (c) => {
    const { deps, principal } = c.get("console");
    const asked = c.req.query("period");
    const view = await loadDashboard(deps, principal, isPeriod(asked) ? asked : "30d");
    return c.html(
      <Page title="Dashboard" shell={shellFor(c, "/console/dashboard")} {...CHART_ASSETS}>
        <DashboardPage view={view} />
      </Page>,
    );
  });
}
