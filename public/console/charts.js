// Draws every [data-chart] element of a console page with uPlot (public/vendor/uplot, loaded before
// this file). The data attribute holds {x: ["YYYY-MM-DD", …], xLabel?, series: [{label, color, values}]}; values
// are exact decimal strings, turned into numbers here only to place pixels. No network, no inline code.
(() => {
  const charts = [];
  const day = (d) => Date.parse(`${d}T00:00:00Z`) / 1000;
  const money = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const plain = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
  const formatter = (unit) =>
    unit === "BRL" ? (n) => money.format(n) : unit === "PERCENT" ? (n) => `${plain.format(n)} %` : (n) => plain.format(n);

  function draw(el) {
    let spec;
    try {
      spec = JSON.parse(el.getAttribute("data-chart"));
    } catch {
      return;
    }
    const format = formatter(spec.series[0]?.unit);
    const xLabel = spec.xLabel ?? "Day";
    const data = [spec.x.map(day), ...spec.series.map((s) => s.values.map((v) => (v === null ? null : Number(v))))];
    const opts = {
      width: Math.max(el.clientWidth, 300),
      height: 280,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
      scales: { x: { time: true } },
      // The y axis as wide as its longest label (R$ 30,000.00 does not fit a fixed width).
      axes: [
        {},
        {
          size: (_u, labels) => 16 + 7.5 * Math.max(5, ...(labels ?? []).map((l) => String(l).length)),
          values: (_u, ticks) => ticks.map(format),
        },
      ],
      series: [
        { label: xLabel, value: (_u, ts) => (ts == null ? "—" : new Date(ts * 1000).toISOString().slice(0, xLabel === "Month" ? 7 : 10)) },
        ...spec.series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          points: { show: spec.x.length <= 62 },
          value: (_u, v) => (v == null ? "—" : format(v)),
        })),
      ],
    };
    charts.push({ el, plot: new uPlot(opts, data, el) });
  }

  for (const el of document.querySelectorAll("[data-chart]")) draw(el);
  let pending = 0;
  window.addEventListener("resize", () => {
    clearTimeout(pending);
    pending = setTimeout(() => {
      for (const c of charts) c.plot.setSize({ width: Math.max(c.el.clientWidth, 300), height: 280 });
    }, 150);
  });
})();
