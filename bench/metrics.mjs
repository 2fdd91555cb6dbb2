#!/usr/bin/env node
// Issue 14 benchmark: a metric series (a year of daily revenue) and the dashboard over a workspace with
// 1,000 charges and one with 100,000, in the same D1 (the same 200 customers, 4 plans and 200
// subscriptions each; the charges spread over the last year, most received, some pending ahead). The
// records are bulk-inserted from one SQL file, the rollups rebuilt through POST /metrics/rebuild, then
// the four requests are timed round-robin (warm isolate). Prints p50/p99 and, last, one JSON line:
// {"bench":"metrics","charges1k":{"seriesP50Ms","dashboardP50Ms"},"charges100k":{…},"growth"}
// where growth = 100k/1k dashboard p50 (goal ≤ 1.5).
//   npm run bench:metrics            (REQUESTS=60 to change the sample; CHARGES_LARGE=100000)
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { addDays, insertAll, localDay, prng } from "../scripts/lib/demo-data.mjs";
import { DEMO, executeSql, sqlString } from "../scripts/lib/local.mjs";
import {
  benchStateDir,
  compareAll,
  envNumber,
  fmt,
  loadAverage,
  loadOptions,
  printSummary,
  startWrangler,
  summary,
} from "./lib/harness.mjs";

// Building 100,000 charges and their rollups takes a while on a busy machine: a longer default deadline.
process.env.DEADLINE_SECONDS ??= "1800";
const step = (what) => console.error(`bench:metrics: ${what} (${new Date().toISOString().slice(11, 19)})`);
const load = loadOptions({ requests: 60, concurrency: 1, seconds: 0 });
const LARGE = envNumber("CHARGES_LARGE", 100_000);
const SIZES = { charges1k: 1_000, charges100k: LARGE };

const tmp = benchStateDir("ponte-bench-metrics");
const state = join(tmp, "ponte");
mkdirSync(state);
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));
process.env.PONTE_PERSIST_DIR = state;
const loadBefore = loadAverage();

/** One workspace of the demo organization with `charges` charges over the last year (SQL). */
function workspaceSql(workspaceId, tag, charges, today) {
  const rand = prng(0xbe9c + charges);
  const tenant = { organizationId: DEMO.organizationId, workspaceId };
  const at = (day) => `${day}T15:00:00.000Z`;
  const start = addDays(today, -364);
  const id = (kind, n) => `01900000-0000-7000-9${tag}${kind}0-${n.toString(16).padStart(12, "0")}`;
  const plans = [4990, 14990, 49900, 149900].map((valueCents, i) => ({
    id: id(2, i + 1),
    ...tenant,
    name: `Plan ${i + 1}`,
    valueCents,
    cycle: i === 3 ? "YEARLY" : "MONTHLY",
    status: "active",
    createdAt: at(start),
    updatedAt: at(start),
  }));
  const customers = [];
  const subscriptions = [];
  for (let n = 1; n <= 200; n++) {
    const day = addDays(start, Math.floor(rand() * 300));
    customers.push({
      id: id(1, n),
      ...tenant,
      upstreamId: `cus_b${tag}${n}`,
      syncStatus: "synced",
      name: `Cliente ${n}`,
      cpfCnpj: "52998224725",
      personType: "FISICA",
      createdAt: at(day),
      updatedAt: at(day),
    });
    const plan = plans[n % 4];
    const canceled = n % 9 === 0;
    subscriptions.push({
      id: id(3, n),
      ...tenant,
      upstreamId: `sub_b${tag}${n}`,
      syncStatus: "synced",
      planId: plan.id,
      customerId: id(1, n),
      billingType: "PIX",
      valueCents: plan.valueCents,
      cycle: plan.cycle,
      nextDueDate: addDays(today, 5),
      status: canceled ? "CANCELED" : "ACTIVE",
      canceledAt: canceled ? at(addDays(day, 30)) : null,
      createdAt: at(day),
      updatedAt: at(canceled ? addDays(day, 30) : day),
    });
  }
  const payments = [];
  for (let n = 1; n <= charges; n++) {
    const c = 1 + Math.floor(rand() * 200);
    const valueCents = 1000 + Math.floor(rand() * 50_000);
    const pending = rand() < 0.03;
    const due = pending ? addDays(today, 1 + Math.floor(rand() * 40)) : addDays(start, Math.floor(rand() * 365));
    const created = pending ? addDays(today, -3) : addDays(due, -5) < start ? start : addDays(due, -5);
    payments.push({
      id: id(4, n),
      ...tenant,
      upstreamId: `pay_b${tag}${n}`,
      syncStatus: "synced",
      customerId: id(1, c),
      subscriptionId: id(3, c),
      billingType: "PIX",
      status: pending ? "PENDING" : "RECEIVED",
      valueCents,
      dueDate: due,
      paymentDate: pending ? null : due,
      netValueCents: pending ? null : valueCents - 99,
      createdAt: at(created),
      updatedAt: at(pending ? created : due),
    });
  }
  const cols = (names) => names.split(" ");
  const all = "1 = 1";
  return [
    `INSERT INTO workspaces (id, organization_id, name, created_at, updated_at) VALUES (${sqlString(workspaceId)}, ${sqlString(DEMO.organizationId)}, ${sqlString(`bench ${charges} charges`)}, ${sqlString(at(start))}, ${sqlString(at(start))});`,
    insertAll("plans", cols("id organizationId workspaceId name valueCents cycle status createdAt updatedAt"), plans, all),
    insertAll(
      "customers",
      cols("id organizationId workspaceId upstreamId syncStatus name cpfCnpj personType createdAt updatedAt"),
      customers,
      all,
    ),
    insertAll(
      "subscriptions",
      cols(
        "id organizationId workspaceId upstreamId syncStatus planId customerId billingType valueCents cycle nextDueDate status canceledAt createdAt updatedAt",
      ),
      subscriptions,
      all,
    ),
    insertAll(
      "payments",
      cols(
        "id organizationId workspaceId upstreamId syncStatus customerId subscriptionId billingType status valueCents dueDate paymentDate netValueCents createdAt updatedAt",
      ),
      payments,
      all,
      200,
    ),
  ].join("\n");
}

const { seed } = await import("../scripts/seed.mjs");
step("seeding");
const demo = await seed();
step("bulk-inserting the two workspaces");
const today = localDay(new Date());
const workspaces = { charges1k: "01900000-0000-7000-9000-0000000b0001", charges100k: "01900000-0000-7000-9000-0000000b0002" };
let t0 = performance.now();
executeSql(
  [
    workspaceSql(workspaces.charges1k, "a", SIZES.charges1k, today),
    workspaceSql(workspaces.charges100k, "b", SIZES.charges100k, today),
  ].join("\n"),
);
const insertSeconds = (performance.now() - t0) / 1000;

step(`inserted in ${insertSeconds.toFixed(1)} s; starting the API`);
const ponte = await startWrangler(["-c", "wrangler.toml", "-c", "sim/wrangler.toml", "--env", "local", "--persist-to", state], {
  readyPath: "/api/v1/health",
});
try {
  const headers = (ws) => ({ Authorization: `Bearer ${demo.apiKey}`, "X-Workspace-Id": ws });
  step("rebuilding the rollups");
  const rebuildSeconds = {};
  for (const [name, ws] of Object.entries(workspaces)) {
    t0 = performance.now();
    const res = await fetch(`${ponte.base}/api/v1/metrics/rebuild`, { method: "POST", headers: headers(ws) });
    const body = await res.json();
    if (!res.ok || body.data.records.payments !== SIZES[name]) throw new Error(`rebuild ${name}: ${res.status} ${JSON.stringify(body)}`);
    rebuildSeconds[name] = +fmt((performance.now() - t0) / 1000, 1);
  }
  const from = addDays(today, -364);
  const targets = {};
  for (const [name, ws] of Object.entries(workspaces)) {
    targets[`${name}.series`] = () =>
      fetch(`${ponte.base}/api/v1/metrics/revenue?from=${from}&to=${today}&interval=day`, { headers: headers(ws) });
    targets[`${name}.dashboard`] = () => fetch(`${ponte.base}/api/v1/dashboard?period=30d`, { headers: headers(ws) });
  }
  // The same answer shape on both sides, and the large one really holds 100× the revenue rows' charges.
  for (const [name, ws] of Object.entries(workspaces)) {
    const d = await (await fetch(`${ponte.base}/api/v1/dashboard`, { headers: headers(ws) })).json();
    if (d.data?.object !== "dashboard" || d.data.nextChargesDue.length !== 10)
      throw new Error(`dashboard ${name}: ${JSON.stringify(d).slice(0, 300)}`);
  }
  step("measuring");
  await compareAll(targets, { requests: 10, concurrency: 1, seconds: 0, throughputOf: [] }); // warm-up
  const measured = await compareAll(targets, { requests: load.requests, concurrency: 1, seconds: 0, throughputOf: [] });
  const s = Object.fromEntries(Object.entries(measured).map(([k, v]) => [k, summary(v)]));
  const result = {
    requests: {
      series: `GET /api/v1/metrics/revenue?from=${from}&to=${today}&interval=day (365 daily points)`,
      dashboard: "GET /api/v1/dashboard?period=30d",
    },
    sizes: SIZES,
    setup: { insertSeconds: +fmt(insertSeconds, 1), rebuildSeconds },
    latency: s,
    load: { requests: load.requests, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage() },
  };
  console.log(JSON.stringify(result, null, 2));
  for (const [k, v] of Object.entries(s)) console.log(`${k.padEnd(22)} p50 ${v.p50Ms} ms, p99 ${v.p99Ms} ms`);
  const pick = (name) => ({ seriesP50Ms: s[`${name}.series`].p50Ms, dashboardP50Ms: s[`${name}.dashboard`].p50Ms });
  const small = pick("charges1k");
  const large = pick("charges100k");
  printSummary({ bench: "metrics", charges1k: small, charges100k: large, growth: +fmt(large.dashboardP50Ms / small.dashboardP50Ms, 2) });
} finally {
  await ponte.stop();
}
