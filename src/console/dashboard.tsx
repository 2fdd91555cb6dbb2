// Dashboard: the first page after sign-in (PLATFORM.md "dashboard"). Cards with the previous equal period
// and the change, and a daily revenue-vs-expenses chart. All data comes from `loadDashboard`, which reads
// the metrics service's daily rollups once for both periods (its cost depends on days, not on charges).
import type { Hono } from "hono";
import { type Principal, requirePermission, tenantOf } from "../access/principal";
import type { Deps } from "../deps";
import { localDay, addDays } from "../lib/time-zones";
import { formatValue } from "../modules/analytics/formula-engine";
import { metricDefinition, metricValue } from "../modules/analytics/metric-catalogue";
import { loadDaily, organizationTimeZone, periodsOf } from "../modules/analytics/metrics-service";
import { CHART_ASSETS, Chart, type Unit, changePercent, formatMetric } from "./charts";
import { type ConsoleEnv, shellFor } from "./context";
import { Page } from "./layout";

export const DASHBOARD_PERIODS = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  mtd: "Month to date",
  ytd: "Year to date",
} as const;
export type DashboardPeriod = keyof typeof DASHBOARD_PERIODS;
const isPeriod = (v: string | undefined): v is DashboardPeriod => v !== undefined && v in DASHBOARD_PERIODS;

/** The cards, in order: flows are summed over the period, levels (MRR, active) taken at its last day. */
const CARDS = ["revenue", "mrr", "active_subscriptions", "churn_rate", "expenses", "gross_profit"] as const;

export interface DashboardCard {
  key: string;
  name: string;
  unit: Unit;
  value: string | null;
  previous: string | null;
  /** Percent change from the previous period, one decimal; null when the previous value is 0 or undefined. */
  changePercent: string | null;
}

export interface DashboardView {
  period: DashboardPeriod;
  timeZone: string;
  current: { from: string; to: string };
  previous: { from: string; to: string };
  cards: DashboardCard[];
  revenueVsExpenses: { day: string; revenue: string | null; expenses: string | null }[];
}

/** [from, to] of a period ending today (in the organization's time zone), and the equal period just before it. */
export function dashboardRanges(period: DashboardPeriod, today: string) {
  const days = { "7d": 7, "30d": 30, "90d": 90 } as Record<string, number>;
  const from =
    period === "mtd"
      ? `${today.slice(0, 8)}01`
      : period === "ytd"
        ? `${today.slice(0, 5)}01-01`
        : addDays(today, -((days[period] ?? 30) - 1));
  const length = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  return { current: { from, to: today }, previous: { from: addDays(from, -length), to: addDays(from, -1) } };
}

/**
 * Everything the Dashboard page shows, in one function so its source can change (a dashboard service)
 * without touching the page: one read of the daily rollups over both periods.
 */
export async function loadDashboard(deps: Deps, principal: Principal, period: DashboardPeriod): Promise<DashboardView> {
  requirePermission(principal, "analytics.read");
  const tenant = tenantOf(principal);
  const timeZone = await organizationTimeZone(deps, tenant);
  const { current, previous } = dashboardRanges(period, localDay(deps.now(), timeZone));
  const definitions = CARDS.map((key) => {
    const d = metricDefinition(key);
    if (!d) throw new Error(`metric ${key} is not in the catalogue`);
    return d;
  });
  const reads = [...new Set(definitions.flatMap((d) => d.reads))];
  const data = await loadDaily(deps, tenant, reads, previous.from, current.to);
  const at = (key: string, unit: Unit, range: { from: string; to: string }) =>
    formatValue(metricValue(key, data, { start: range.from, end: range.to }), unit);
  const cards = definitions.map((d) => {
    const value = at(d.key, d.unit, current);
    const before = at(d.key, d.unit, previous);
    return { key: d.key, name: d.name, unit: d.unit, value, previous: before, changePercent: changePercent(value, before) };
  });
  const revenueVsExpenses = periodsOf(current.from, current.to, "day").map((p) => ({
    day: p.start,
    revenue: at("revenue", "BRL", { from: p.start, to: p.end }),
    expenses: at("expenses", "BRL", { from: p.start, to: p.end }),
  }));
  return { period, timeZone, current, previous, cards, revenueVsExpenses };
}

/** Whether a rise is good news (a falling churn rate or expense line is). */
const RISE_IS_GOOD: Record<string, boolean> = { churn_rate: false, expenses: false };

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
        {view.current.from} to {view.current.to}, compared with {view.previous.from} to {view.previous.to} ({view.timeZone}).
      </p>
      <div class="grid">
        {view.cards.map((card) => (
          <div class="card" data-card={card.key}>
            <div class="muted">{card.name}</div>
            <div class="stat" data-value>
              {formatMetric(card.value, card.unit)}
            </div>
            <div>
              <Change card={card} /> <span class="muted">previous: {formatMetric(card.previous, card.unit)}</span>
            </div>
          </div>
        ))}
      </div>
      <h2>Revenue vs expenses</h2>
      <Chart
        id="revenue-vs-expenses"
        label="Revenue and expenses per day (BRL)"
        x={view.revenueVsExpenses.map((p) => p.day)}
        series={[
          { label: "Revenue", color: "#1d4ed8", unit: "BRL", values: view.revenueVsExpenses.map((p) => p.revenue) },
          { label: "Expenses", color: "#b91c1c", unit: "BRL", values: view.revenueVsExpenses.map((p) => p.expenses) },
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
            {view.revenueVsExpenses.map((p) => (
              <tr>
                <td>{p.day}</td>
                <td>{formatMetric(p.revenue, "BRL")}</td>
                <td>{formatMetric(p.expenses, "BRL")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
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
