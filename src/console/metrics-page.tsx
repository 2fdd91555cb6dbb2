// Metrics explorer: pick a catalogue metric or one of the workspace's formulas, a range and an interval;
// see the series as a chart and a table, with its total. The same series GET /api/v1/metrics/{key} answers.
import type { Hono } from "hono";
import { formulaSeriesByKey, listFormulas } from "../modules/analytics/formulas-service";
import { METRIC_KEYS } from "../modules/analytics/metric-catalogue";
import { SeriesQuery, type SeriesResult, listMetrics, metricSeries } from "../modules/analytics/metrics-service";
import { CHART_ASSETS, Chart, ChartTable, formatMetric } from "./charts";
import { type ConsoleEnv, isExpected, parseForm, plainError, shellFor, statusOf } from "./context";
import { Page } from "./layout";
import { Outcome } from "./parts/action-form";
import { FilterBar } from "./parts/filter-bar";

const INTERVALS = ["day", "week", "month"] as const;

export function registerMetricsPage(app: Hono<ConsoleEnv>) {
  app.get("/metrics", async (c) => {
    const { deps, principal } = c.get("console");
    const catalogue = listMetrics(principal);
    const { rows: formulas } = await listFormulas(deps, principal, { limit: 100, offset: 0 });
    const asked = {
      metric: c.req.query("metric") || "revenue",
      from: c.req.query("from") || undefined,
      to: c.req.query("to") || undefined,
      interval: c.req.query("interval") || "day",
    };
    let series: SeriesResult | null = null;
    let error: string | undefined;
    let status = 200;
    try {
      const query = parseForm(SeriesQuery, { from: asked.from, to: asked.to, interval: asked.interval });
      series = METRIC_KEYS.has(asked.metric)
        ? await metricSeries(deps, principal, asked.metric, query)
        : await formulaSeriesByKey(deps, principal, asked.metric, query);
    } catch (err) {
      if (!isExpected(err)) throw err;
      error = plainError(err).replace(/\bquery\./g, "");
      status = statusOf(err);
    }
    const description =
      catalogue.find((m) => m.key === asked.metric)?.description ?? formulas.find((f) => f.key === asked.metric)?.expression;
    const options = [
      ...catalogue.map((m) => ({ value: m.key, label: `${m.name} (${m.unit})` })),
      ...formulas.map((f) => ({ value: f.key, label: `Formula: ${f.name} (${f.unit})` })),
    ];
    return c.html(
      <Page title="Metrics" shell={shellFor(c, "/console/metrics")} {...CHART_ASSETS}>
        <h1>Metrics</h1>
        <FilterBar
          c={c}
          path="/console/metrics"
          label="Choose a metric and a range"
          submit="Show"
          fields={[
            { name: "metric", label: "Metric", options, any: false, value: asked.metric },
            { name: "from", label: "From", type: "date", value: series?.from },
            { name: "to", label: "To", type: "date", value: series?.to },
            { name: "interval", label: "Interval", options: INTERVALS, any: false, value: asked.interval },
          ]}
        />
        <Outcome state={{ error }} />
        {series ? (
          <>
            <h2>
              {series.name} <span class="muted">by {series.interval}</span>
            </h2>
            {description ? <p class="muted">{description}</p> : null}
            <p>
              {series.from} to {series.to} ({series.timeZone}). Total:{" "}
              <strong data-total>
                {series.total === null ? "— (a level: see each period's end)" : formatMetric(series.total, series.unit)}
              </strong>
            </p>
            <Chart
              id="metric-series"
              label={`${series.name} by ${series.interval}`}
              x={series.points.map((p) => p.periodStart)}
              series={[{ label: series.name, color: "#1d4ed8", unit: series.unit, values: series.points.map((p) => p.value) }]}
            />
            <ChartTable
              chart="series"
              caption={`${series.name} by ${series.interval}`}
              head="Period from"
              rows={series.points.map((p) => ({ label: p.periodStart, values: [p.value] }))}
              columns={[{ label: series.name, unit: series.unit }]}
              open
            />
          </>
        ) : null}
      </Page>,
      status as 200,
    );
  });
}
