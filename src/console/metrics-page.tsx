// Metrics explorer: pick a catalogue metric or one of the workspace's formulas, a range and an interval;
// see the series as a chart and a table, with its total. The same series GET /api/v1/metrics/{key} answers.
import type { Hono } from "hono";
import { formulaSeriesByKey, listFormulas } from "../modules/analytics/formulas-service";
import { METRIC_KEYS } from "../modules/analytics/metric-catalogue";
import { SeriesQuery, type SeriesResult, listMetrics, metricSeries } from "../modules/analytics/metrics-service";
import { CHART_ASSETS, Chart, formatMetric } from "./charts";
import { type ConsoleEnv, isExpected, parseForm, plainError, shellFor, statusOf } from "./context";
import { Alert, Page } from "./layout";

const INTERVALS = ["day", "week", "month"] as const;

export function registerMetricsPage(app: Hono<ConsoleEnv>) {
  app.get("/metrics", async (c) => {
    const { deps, principal } = c.get("console");
    const catalogue = listMetrics(principal);
    const { rows: formulas } = await listFormulas(deps, principal, { limit: 100, offset: 0 });
    const asked = {
      metric: c.req.query("metric") || "revenue",
      from: c.req.query("from") ?? "",
      to: c.req.query("to") ?? "",
      interval: c.req.query("interval") || "day",
    };
    let series: SeriesResult | null = null;
    let error: string | null = null;
    let status = 200;
    try {
      const query = parseForm(SeriesQuery, {
        from: asked.from || undefined,
        to: asked.to || undefined,
        interval: asked.interval,
      });
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
    return c.html(
      <Page title="Metrics" shell={shellFor(c, "/console/metrics")} {...CHART_ASSETS}>
        <h1>Metrics</h1>
        <form method="get" action="/console/metrics" class="card">
          <div class="grid">
            <div>
              <label for="metric">Metric</label>
              <select id="metric" name="metric">
                <optgroup label="Catalogue">
                  {catalogue.map((m) => (
                    <option value={m.key} selected={m.key === asked.metric}>
                      {m.name} ({m.unit})
                    </option>
                  ))}
                </optgroup>
                {formulas.length > 0 ? (
                  <optgroup label="Your formulas">
                    {formulas.map((f) => (
                      <option value={f.key} selected={f.key === asked.metric}>
                        {f.name} ({f.unit})
                      </option>
                    ))}
                  </optgroup>
                ) : null}
              </select>
            </div>
            <div>
              <label for="from">From</label>
              <input id="from" name="from" type="date" value={series?.from ?? asked.from} />
            </div>
            <div>
              <label for="to">To</label>
              <input id="to" name="to" type="date" value={series?.to ?? asked.to} />
            </div>
            <div>
              <label for="interval">Interval</label>
              <select id="interval" name="interval">
                {INTERVALS.map((i) => (
                  <option value={i} selected={i === asked.interval}>
                    {i}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div class="actions">
            <button type="submit">Show</button>
          </div>
        </form>
        {error ? <Alert kind="error">{error}</Alert> : null}
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
            <table data-table="series">
              <thead>
                <tr>
                  <th scope="col">Period from</th>
                  <th scope="col">{series.name}</th>
                </tr>
              </thead>
              <tbody>
                {series.points.map((p) => (
                  <tr>
                    <td>{p.periodStart}</td>
                    <td data-value={p.value ?? ""}>{formatMetric(p.value, series.unit)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        ) : null}
      </Page>,
      status as 200,
    );
  });
}
