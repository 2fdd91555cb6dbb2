// Charts and number formatting shared by the analytics pages. A chart is a <figure> whose data sits in a
// `data-chart` attribute (JSON, escaped by JSX); public/console/charts.js draws it with uPlot (served
// from public/vendor/uplot as a static asset). The same numbers are always in a table beside it, so the
// page reads without JavaScript and to a screen reader.
import Big from "big.js";

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

/** Change from `previous` to `current` in percent (one decimal), null when either is undefined or previous is 0. */
export function changePercent(current: string | null, previous: string | null): string | null {
  if (current === null || previous === null) return null;
  const prev = new Big(previous);
  if (prev.eq(0)) return null;
  return new Big(current).minus(prev).div(prev.abs()).times(100).round(1).toFixed(1);
}

/** A line chart: x = the periods' first days, one line per series. */
export function Chart({ id, label, x, series }: { id: string; label: string; x: string[]; series: ChartSeries[] }) {
  const spec = JSON.stringify({ x, series: series.map((s) => ({ label: s.label, color: s.color, unit: s.unit, values: s.values })) });
  return (
    <figure class="chart card" id={id}>
      <figcaption class="muted">{label}</figcaption>
      <div class="chart-plot" data-chart={spec} role="img" aria-label={`${label} (the same numbers are in the table below)`} />
    </figure>
  );
}
