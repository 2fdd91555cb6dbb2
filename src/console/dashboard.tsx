// Dashboard: the first page after sign-in (PLATFORM.md "dashboard"). Cards with the previous equal period
// and the change, each linking to the page that explains its number; three charts (revenue vs expenses per
// day, MRR over the last 12 months, the period's expenses by cost category), each with its numbers in a
// table; the top customers and plans by revenue or by MRR (`rankBy`); the next charges due.
// All data comes from `loadDashboard`, i.e. the analytics dashboard service (GET /api/v1/dashboard's).
import type { Hono } from "hono";
import type { Principal } from "../access/principal";
import type { Deps } from "../deps";
import { dashboard } from "../modules/analytics/dashboard";
import { RANKINGS, type Ranking } from "../modules/analytics/dashboard-rankings";
import { BarChart, CHART_ASSETS, Chart, ChartTable, type Unit, formatMetric } from "./charts";
import { type ConsoleContext, type ConsoleEnv, shellFor } from "./context";
import { Page } from "./layout";
import { DataTable } from "./parts/data-table";
import { FilterBar } from "./parts/filter-bar";

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
const isRanking = (v: string | undefined): v is Ranking => (RANKINGS as readonly (string | undefined)[]).includes(v);
const RANKING_LABELS: Record<Ranking, string> = { revenue: "revenue", mrr: "MRR" };

export type DashboardView = Awaited<ReturnType<typeof dashboard>>;
type DashboardCard = DashboardView["cards"][number];
type TopEntry = DashboardView["topCustomers"][number];

/** Everything the Dashboard page shows, in one call of the dashboard service (the page never reads elsewhere). */
export function loadDashboard(
  deps: Deps,
  principal: Principal,
  period: DashboardPeriod,
  rankBy: Ranking = "revenue",
): Promise<DashboardView> {
  return dashboard(deps, principal, { period, rankBy });
}

/** Whether a rise is good news (a falling churn rate or expense line is). */
const RISE_IS_GOOD: Record<string, boolean> = { churn_rate: false, expenses: false, pending_amount: false, overdue_amount: false };

/** The page that explains a card's number: the list behind it, or the metric's series over the same days. */
export function cardHref(key: string, view: Pick<DashboardView, "from" | "to">): string {
  const range = `from=${view.from}&to=${view.to}`;
  switch (key) {
    case "margin":
      return `/console/profitability?groupBy=month&${range}`;
    case "expenses":
      return `/console/expenses?${range}`;
    case "pending_amount":
      return "/console/payments?status=PENDING";
    case "overdue_amount":
      return "/console/payments?status=OVERDUE";
    case "active_subscriptions":
      return "/console/subscriptions?status=ACTIVE";
    default:
      return `/console/metrics?metric=${key}&${range}&interval=day`;
  }
}

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

const Cards = ({ view }: { view: DashboardView }) => (
  <div class="grid">
    {view.cards.map((card) => (
      <div class="card" data-card={card.key}>
        <div class="muted">
          <a href={cardHref(card.key, view)}>{card.name}</a>
        </div>
        <div class="stat" data-value>
          {formatMetric(card.value, card.unit as Unit)}
        </div>
        <div>
          <Change card={card} /> <span class="muted">previous: {formatMetric(card.previous, card.unit as Unit)}</span>
        </div>
      </div>
    ))}
  </div>
);

/** The top five of a party, ranked by `view.rankBy`; each name links to its payments or subscriptions. */
function Top({ title, rows, kind, view }: { title: string; rows: TopEntry[]; kind: "customers" | "plans"; view: DashboardView }) {
  const revenue = { key: "revenue" as const, label: "Revenue in the period" };
  const mrr = { key: "mrr" as const, label: "MRR" };
  const figures = view.rankBy === "mrr" ? [mrr, revenue] : [revenue, mrr];
  return (
    <div>
      <h2>
        {title} by {RANKING_LABELS[view.rankBy]}
      </h2>
      <DataTable
        rows={rows}
        empty={view.rankBy === "mrr" ? "No active subscriptions yet." : "Nothing received in this period."}
        attrs={{ "data-table": `top-${kind}` }}
        rowAttrs={(r) => ({ "data-id": r.id })}
        columns={[
          {
            label: "Name",
            cell: (r) => r.name ?? r.id,
            href: (r) => (kind === "customers" ? `/console/payments?customer=${r.id}` : `/console/subscriptions?plan=${r.id}`),
            rowHeader: true,
          },
          ...figures.map((f) => ({ label: f.label, cell: (r: TopEntry) => formatMetric(r[f.key], "BRL") })),
          { label: "Active subscriptions", cell: (r) => r.activeSubscriptions },
        ]}
      />
    </div>
  );
}

/** Links that re-rank the top lists (the same period): revenue received in it, or MRR now. */
const RankToggle = ({ view }: { view: DashboardView }) => (
  <nav aria-label="Rank the top customers and plans" class="actions" data-rank-toggle>
    <span class="muted">Rank by:</span>
    {RANKINGS.map((r) => (
      <a href={`/console/dashboard?period=${view.period}&rankBy=${r}`} aria-current={r === view.rankBy ? "true" : undefined}>
        {r === view.rankBy ? <strong>{RANKING_LABELS[r]}</strong> : RANKING_LABELS[r]}
      </a>
    ))}
  </nav>
);

function Charts({ view }: { view: DashboardView }) {
  const months = view.mrrHistory.map((m) => `${m.month}-01`);
  return (
    <>
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
      <ChartTable
        chart="revenue-vs-expenses"
        caption="Revenue and expenses per day"
        head="Day"
        rows={view.series.map((p) => ({ label: p.day, values: [p.revenue, p.expenses] }))}
        columns={[
          { label: "Revenue", unit: "BRL" },
          { label: "Expenses", unit: "BRL" },
        ]}
      />
      <h2>
        <a href={`/console/metrics?metric=mrr&from=${months[0]}&to=${view.to}&interval=month`}>MRR, last 12 months</a>
      </h2>
      <Chart
        id="mrr-history"
        label="MRR at the end of each month (BRL)"
        x={months}
        xLabel="Month"
        series={[{ label: "MRR", color: "#047857", unit: "BRL", values: view.mrrHistory.map((m) => m.mrr) }]}
      />
      <ChartTable
        chart="mrr-history"
        caption="MRR at the end of each month"
        head="Month"
        rows={view.mrrHistory.map((m) => ({ label: m.month, values: [m.mrr] }))}
        columns={[{ label: "MRR", unit: "BRL" }]}
      />
      <h2>
        <a href={`/console/expenses?from=${view.from}&to=${view.to}`}>Expenses by category</a>
      </h2>
      <BarChart
        id="expenses-by-category"
        label={`Expenses by cost category, ${view.from} to ${view.to} (BRL)`}
        color="#b45309"
        bars={view.expensesByCategory.map((e) => ({ label: e.name, value: e.amount }))}
      />
      <ChartTable
        chart="expenses-by-category"
        caption="Expenses by cost category"
        head="Category"
        rows={view.expensesByCategory.map((e) => ({ label: e.name, values: [e.amount] }))}
        columns={[{ label: "Expenses", unit: "BRL" }]}
      />
    </>
  );
}

function DashboardPage({ c, view }: { c: ConsoleContext; view: DashboardView }) {
  const today = view.to;
  return (
    <>
      <h1>Dashboard</h1>
      <FilterBar
        c={c}
        path="/console/dashboard"
        label="Dashboard period"
        submit="Show"
        fields={[
          {
            name: "period",
            label: "Period",
            any: false,
            value: view.period,
            options: Object.entries(DASHBOARD_PERIODS).map(([value, label]) => ({ value, label })),
          },
          {
            name: "rankBy",
            label: "Top lists by",
            any: false,
            value: view.rankBy,
            options: RANKINGS.map((r) => ({ value: r, label: RANKING_LABELS[r] })),
          },
        ]}
      />
      <p class="muted">
        {view.from} to {view.to}, compared with {view.previous.from} to {view.previous.to} ({view.timeZone}).
      </p>
      <Cards view={view} />
      <Charts view={view} />
      <RankToggle view={view} />
      <Top title="Top customers" rows={view.topCustomers} kind="customers" view={view} />
      <Top title="Top plans" rows={view.topPlans} kind="plans" view={view} />
      <h2>
        <a href={`/console/payments?status=PENDING&${encodeURIComponent("dueDate[ge]")}=${today}`}>Next charges due</a>
      </h2>
      <DataTable
        rows={view.nextChargesDue}
        empty="No pending charges due."
        attrs={{ "data-table": "next-charges" }}
        columns={[
          { label: "Due", cell: (d) => d.dueDate, href: (d) => `/console/payments/${d.id}` },
          { label: "Customer", cell: (d) => d.customerName ?? d.customerId },
          { label: "Value", cell: (d) => formatMetric(d.value, "BRL") },
          { label: "Billing type", cell: (d) => d.billingType },
          { label: "Description", cell: (d) => d.description ?? "" },
        ]}
      />
    </>
  );
}

export function registerDashboardPage(app: Hono<ConsoleEnv>) {
  app.get("/dashboard", async (c) => {
    const { deps, principal } = c.get("console");
    const [period, rankBy] = [c.req.query("period"), c.req.query("rankBy")];
    const view = await loadDashboard(deps, principal, isPeriod(period) ? period : "30d", isRanking(rankBy) ? rankBy : "revenue");
    return c.html(
      <Page title="Dashboard" shell={shellFor(c, "/console/dashboard")} {...CHART_ASSETS}>
        <DashboardPage c={c} view={view} />
      </Page>,
    );
  });
}
