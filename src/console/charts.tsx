// Charts and number formatting shared by the analytics pages. A chart is a <figure> whose data sits in a
// `data-chart` attribute (JSON, escaped by JSX); public/console/charts.js draws it with uPlot (served
// from public/vendor/uplot as a static asset). The same numbers are always in a table beside it, so the
// page reads without JavaScript and to a screen reader (ChartTable). A BarChart is server-drawn SVG (no script).
import Big from "big.js";
import { DataTable } from "./parts/data-table";

export type Unit = "BRL" | "COUNT" | "PERCENT";

/** Files a page with charts loads (same origin; the console CSP admits 'self'). */
export const CHART_ASSETS = {
  scripts: ["/vendor/uplot/uPlot.iife.min.js", "/console/charts.js"],
  styles: ["/vendor/uplot/uPlot.min.css"],
};

export interface ChartSeries {
  label: string;
  color: string;
  unit: Unit;
  /** Decimal strings (exact), null where the value is undefined; one per x. */
  values: (string | null)[];
}

/** Groups thousands of an exact decimal string without going through floating point: "1234567.8" → "1,234,567.8". */
function group(decimal: string): string {
  const negative = decimal.startsWith("-");
  const [int = "0", frac] = (negative ? decimal.slice(1) : decimal).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${grouped}${frac ? `.${frac}` : ""}`;
}

/** A metric value as people read it: "R$ 1,234.50", "12.5 %", "42"; "—" when undefined. */
export function formatMetric(value: string | null, unit: Unit): string {
  if (value === null) return "—";
  if (unit === "BRL") {
    const fixed = new Big(value).toFixed(2);
    return fixed.startsWith("-") ? `-R$ ${group(fixed.slice(1))}` : `R$ ${group(fixed)}`;
  }
  if (unit === "PERCENT") return `${new Big(value).round(2).toFixed()} %`;
  return group(new Big(value).toFixed());
}

/** A line chart: x = the periods' first days, one line per series. */
export function Chart({
  id,
  label,
  x,
  series,
  xLabel,
}: {
  id: string;
  label: string;
  x: string[];
  series: ChartSeries[];
  xLabel?: "Day" | "Month";
}) {
  const spec = JSON.stringify({
    x,
    ...(xLabel ? { xLabel } : {}),
    series: series.map((s) => ({ label: s.label, color: s.color, unit: s.unit, values: s.values })),
  });
  return (
    <figure class="chart card" id={id}>
      <figcaption class="muted">{label}</figcaption>
      <div class="chart-plot" data-chart={spec} role="img" aria-label={`${label} (the same numbers are in the table below)`} />
    </figure>
  );
}

/** A chart's numbers as a table (in a <details>, captioned) for screen readers and anyone who wants the figures. */
export function ChartTable(props: {
  /** The chart's id: the table is `data-table="<chart>"`. */
  chart: string;
  caption: string;
  /** The first column's heading (the x: "Day", "Month", "Category"). */
  head: string;
  rows: { label: string; values: (string | null)[] }[];
  columns: { label: string; unit: Unit }[];
  /** Shown unfolded (a page whose subject is the table, e.g. the metrics explorer). */
  open?: boolean;
}) {
  return (
    <details open={props.open}>
      <summary>{props.caption}: the numbers</summary>
      <DataTable
        rows={props.rows}
        empty="No data in this period."
        caption={props.caption}
        attrs={{ "data-table": props.chart }}
        columns={[
          { label: props.head, cell: (r) => r.label, rowHeader: true },
          ...props.columns.map((col, i) => ({
            label: col.label,
            cell: (r: { values: (string | null)[] }) => (
              <span data-value={r.values[i] ?? ""}>{formatMetric(r.values[i] ?? null, col.unit)}</span>
            ),
          })),
        ]}
      />
    </details>
  );
}

/** Horizontal bars drawn on the server (SVG, no script): each bar's length is its share of the largest. */
export function BarChart({
  id,
  label,
  bars,
  color,
}: {
  id: string;
  label: string;
  bars: { label: string; value: string }[];
  color: string;
}) {
  const max = bars.reduce((m, b) => (new Big(b.value).gt(m) ? new Big(b.value) : m), new Big(0));
  const width = (v: string) => (max.eq(0) ? "0" : new Big(v).div(max).times(100).round(2).toFixed());
  return (
    <figure class="chart card" id={id}>
      <figcaption class="muted">{label}</figcaption>
      {bars.length === 0 ? (
        <p class="muted">Nothing in this period.</p>
      ) : (
        <div aria-hidden="true">
          {bars.map((b) => (
            <div>
              <div class="muted">
                {b.label} · {formatMetric(b.value, "BRL")}
              </div>
              <svg width="100%" height="14" role="presentation" focusable="false">
                <rect x="0" y="0" height="14" rx="3" width={`${width(b.value)}%`} fill={color} />
              </svg>
            </div>
          ))}
        </div>
      )}
    </figure>
  );
}
