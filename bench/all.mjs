#!/usr/bin/env node
// `npm run bench`: every benchmark RUNS times (default 3), one after another, each run a fresh process;
// the median and the spread (min–max) of every figure of each benchmark's last JSON line; issue 29's bars
// checked against the medians. Writes bench/results/figures.json and the figures table in docs/benchmarks.md
// (between the `bench:figures` markers), and ends with one JSON line. `--strict` exits 1 when a bar is missed.
//   npm run bench                 (RUNS=5 npm run bench for more runs; ONLY=auth,js for some)
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../scripts/lib/local.mjs";
import { envNumber, loadAverage, printSummary } from "./lib/harness.mjs";

const RUNS = envNumber("RUNS", 3);
const BENCHES = ["auth", "passthrough", "charges", "webhooks", "startup", "js", "metrics"];
const only = process.env.ONLY?.split(",").filter(Boolean);
const FILES = {
  auth: "auth-read",
  passthrough: "passthrough",
  charges: "charges",
  webhooks: "webhooks",
  startup: "startup",
  js: "js-cost",
  metrics: "metrics",
};

/**
 * Issue 29's bars: a figure of a benchmark's summary line, how it compares, and the bar. `beside`: a reading shown
 * beside one of the issue's bars (the same bar applied to a narrower measure), counted apart from the issue's bars.
 */
const BARS = [
  { bench: "auth", field: "healthRatio", label: "/health vs bare worker (throughput)", atLeast: 0.9 },
  { bench: "auth", field: "throughputRatio", label: "authenticated read vs bare D1 read (throughput)", atLeast: 0.9 },
  { bench: "passthrough", field: "throughputRatio", label: "passthrough vs bare forwarder (throughput)", atLeast: 0.9 },
  { bench: "passthrough", field: "addedP50Ms", label: "passthrough added p50 over the bare forwarder (ms)", atMost: 0.3 },
  { bench: "charges", field: "throughputRatio", label: "PIX create vs bare safe create (throughput)", atLeast: 0.8 },
  // The same create without an Idempotency-Key: the baseline's own I/O (no key claimed, no answer stored).
  {
    bench: "charges",
    field: "throughputRatioWithoutIdempotencyKey",
    label: "PIX create without Idempotency-Key vs bare safe create (throughput)",
    atLeast: 0.8,
    beside: true,
  },
  { bench: "charges", field: "d1RoundTrips", label: "PIX create: D1 round trips on the request path", atMost: 2 },
  { bench: "webhooks", field: "deliveriesPerSecond", label: "webhook deliveries per second", atLeast: 1000 },
  { bench: "webhooks", field: "createToReceiptP50Ms", label: "webhook create → receipt p50 (ms)", atMost: 50 },
  { bench: "webhooks", field: "lost", label: "webhook deliveries lost", atMost: 0 },
  { bench: "webhooks", field: "duplicates", label: "webhook deliveries duplicated", atMost: 0 },
  { bench: "startup", field: "startupCpuMs", label: "start-up CPU (ms)", atMost: 10 },
  { bench: "startup", field: "firstRequestMs", label: "busiest segment's first request (ms)", atMost: 10 },
  { bench: "js", field: "authReadMicros", label: "Ponte's JS per authenticated read (µs, in Node, wall)", atMost: 50 },
  // The same read's CPU over a bare handler's in the same Node (its Request/Response plumbing, native in workerd).
  {
    bench: "js",
    field: "authReadOwnMicros",
    label: "Ponte's own code per authenticated read (µs CPU over bare)",
    atMost: 50,
    beside: true,
  },
];

const lastJsonLine = (output) => {
  const line = output
    .trim()
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("{") && l.endsWith("}"));
  if (!line) throw new Error("no summary line");
  return JSON.parse(line);
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const started = new Date();
const loadBefore = loadAverage();
const runs = {};
for (const bench of BENCHES.filter((b) => !only || only.includes(b))) {
  runs[bench] = [];
  for (let i = 1; i <= RUNS; i++) {
    process.stdout.write(`bench:${bench} run ${i}/${RUNS} … `);
    const out = execFileSync(process.execPath, [join(ROOT, "bench", `${FILES[bench]}.mjs`)], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 64 * 1024 * 1024,
    });
    const summary = lastJsonLine(out);
    runs[bench].push(summary);
    console.log(JSON.stringify(summary));
  }
}

/** Every numeric field of a benchmark's summaries: median, min, max over the runs. */
const figures = Object.fromEntries(
  Object.entries(runs).map(([bench, list]) => {
    const fields = Object.keys(list[0]).filter((k) => typeof list[0][k] === "number");
    return [
      bench,
      Object.fromEntries(
        fields.map((f) => {
          const xs = list.map((s) => s[f]).filter((x) => typeof x === "number");
          return [f, { median: +median(xs).toFixed(3), min: Math.min(...xs), max: Math.max(...xs) }];
        }),
      ),
    ];
  }),
);

const checked = BARS.filter((b) => figures[b.bench]?.[b.field]).map((b) => {
  const { median: m, min, max } = figures[b.bench][b.field];
  const met = b.atLeast !== undefined ? m >= b.atLeast : m <= b.atMost;
  return { ...b, median: m, min, max, met };
});

const at = {
  from: started.toISOString(),
  to: new Date().toISOString(),
  runs: RUNS,
  loadAverageBefore: loadBefore,
  loadAverageAfter: loadAverage(),
};
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/figures.json"), `${JSON.stringify({ at, figures, bars: checked, runs }, null, 2)}\n`);

const issueBars = checked.filter((b) => !b.beside);
const table = [
  `Generated by \`npm run bench\` (${RUNS} runs of each benchmark, ${at.from.slice(0, 16)}–${at.to.slice(11, 16)} UTC, load average ${loadBefore.join(" / ")} before): the median, with the spread (min–max) of the runs.`,
  "",
  "| figure | median | spread | bar | met |",
  "|---|---|---|---|---|",
  ...checked.map(
    (b) =>
      `| ${b.beside ? "↳ beside the bar above: " : ""}${b.label} (\`bench:${b.bench}\` ${b.field}) | ${b.median} | ${b.min}–${b.max} | ${b.atLeast !== undefined ? `≥ ${b.atLeast}` : `≤ ${b.atMost}`} | ${b.met ? "yes" : "**no**"} |`,
  ),
  "",
  `Issue 29's bars met: ${issueBars.filter((b) => b.met).length} of ${issueBars.length}; the rows marked ↳ are readings beside a bar (the same bar on a narrower measure), not counted among them.`,
].join("\n");
const figuresDocPath = join(ROOT, "docs/benchmarks.md");
const figuresDoc = readFileSync(figuresDocPath, "utf8");
const [open, close] = ["<!-- bench:figures:start -->", "<!-- bench:figures:end -->"];
if (!only && figuresDoc.includes(open) && figuresDoc.includes(close)) {
  writeFileSync(figuresDocPath, figuresDoc.replace(new RegExp(`${open}[\\s\\S]*?${close}`), `${open}\n${table}\n${close}`));
  console.log("docs/benchmarks.md figures table regenerated.");
}
console.log(`\n${table}\n`);
const missed = issueBars.filter((b) => !b.met);
printSummary({
  bench: "all",
  runs: RUNS,
  bars: issueBars.length,
  met: issueBars.length - missed.length,
  missed: missed.map((b) => `${b.bench}.${b.field}`),
  beside: Object.fromEntries(checked.filter((b) => b.beside).map((b) => [`${b.bench}.${b.field}`, b.met])),
});
if (missed.length > 0 && process.argv.includes("--strict")) process.exitCode = 1;
