#!/usr/bin/env node
// Issue 28 #3, the next step on paper: business records sharded by organization over several D1 databases,
// with a routing directory (organization → database) that places each new organization on the shard with the
// most room. This replays synthetic months of N merchants of mixed sizes against that layout and reports, per
// shard, its size after the months replayed and its writes per second (average, and at the busiest hour), against
// D1's 10 GB per database and a single database's write rate. Logs are not in the shards: they live in
// per-organization stores (Durable Objects), so they are reported apart.
// Bytes per record are bench:scale's measurements (dbstat, table + indexes); pass a bench:scale JSON line to use
// another run's: `npm run scale:simulate -- '{"bench":"scale",…}'`.
//   npm run scale:simulate     (MERCHANTS=5000 SHARDS=4 MONTHS=12 WRITE_CEILING=500 SEED=1)
const env = (name, fallback) => Number(process.env[name] ?? fallback);
const MERCHANTS = env("MERCHANTS", 5000);
const SHARDS = env("SHARDS", 4);
const MONTHS = env("MONTHS", 12);
/** Writes per second one D1 database sustains: one writer, ~1–2 ms per small write statement. */
const WRITE_CEILING = env("WRITE_CEILING", 500);
const SHARD_BYTES = 10 * 1e9;

// Bytes per row (table + indexes), bench:scale at 100× on 2026-11-27 (docs/operating.md "Scale and capacity"); a JSON line overrides.
// Webhook delivery and attempt rows (~300 B each) are not in bench:scale's data: an estimate from their columns.
const measured = JSON.parse(process.argv[2] ?? "{}").bytesPerRow ?? {};
const B = {
  payments: measured.payments ?? 940,
  customers: measured.customers ?? 649,
  subscriptions: measured.subscriptions ?? 699,
  expenses: measured.expenses ?? 1017,
  events: measured.events ?? 693,
  gateway_api_logs: measured.gateway_api_logs ?? 446,
};
// One charge over its life in the shard: the record, its events (created + received), the delivery and attempt
// rows of one webhook endpoint per event (~300 B each, kept 30 days: a month's worth stays), and its rollups.
const BYTES_PER_CHARGE = B.payments + 2 * B.events + 4 * 300 + 60;
// Row writes per charge: create (record, customer lookup-or-insert, idempotency, event, rollups ≈ 6), the
// payment's settlement (record, event, rollups ≈ 5), fan-out and delivery (4).
const WRITES_PER_CHARGE = 15;
const API_CALLS_PER_CHARGE = 8; // creates, reads, lists and passthrough calls a merchant makes per charge

/** Merchant sizes (charges a month) and their share of merchants: mostly small, a few large. */
const SIZES = [
  { name: "small", charges: 200, share: 0.7 },
  { name: "medium", charges: 2_000, share: 0.25 },
  { name: "large", charges: 20_000, share: 0.045 },
  { name: "very large", charges: 200_000, share: 0.005 },
];

let seed = env("SEED", 1);
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const sizeOf = () => {
  const r = rand();
  let cumulative = 0;
  for (const s of SIZES) {
    cumulative += s.share;
    if (r <= cumulative) return s;
  }
  return SIZES[0];
};

const shards = Array.from({ length: SHARDS }, (_, i) => ({ id: i, bytes: 0, merchants: 0, chargesPerMonth: 0, peakWritesPerSecond: 0 }));
/** The routing directory: organization → shard, decided once at signup (the shard with the most room by expected size). */
const directory = new Map();
const merchants = [];
for (let m = 0; m < MERCHANTS; m++) {
  const size = sizeOf();
  const monthly = Math.round(size.charges * (0.6 + rand() * 0.8));
  const shard = shards.reduce((a, b) => (a.chargesPerMonth <= b.chargesPerMonth ? a : b));
  directory.set(m, shard.id);
  shard.merchants++;
  shard.chargesPerMonth += monthly;
  merchants.push({ id: m, size: size.name, monthly, customers: Math.round(monthly / 4), subscriptions: Math.round(monthly / 5) });
}

// Replay: each month each merchant bills its charges; writes spread over the month, with a busy hour at 4× the
// average (charges cluster around due dates and business hours).
const SECONDS_PER_MONTH = 30 * 86_400;
const logs = { rowsPerMonth: 0, largestOrgRowsPerMonth: 0 };
for (let month = 0; month < MONTHS; month++) {
  const writes = new Array(SHARDS).fill(0);
  for (const m of merchants) {
    const shard = shards[directory.get(m.id)];
    shard.bytes += m.monthly * BYTES_PER_CHARGE + (month === 0 ? m.customers * B.customers + m.subscriptions * B.subscriptions : 0);
    shard.bytes += 30 * B.expenses;
    writes[shard.id] += m.monthly * WRITES_PER_CHARGE;
    const logRows = m.monthly * API_CALLS_PER_CHARGE;
    logs.rowsPerMonth += logRows;
    logs.largestOrgRowsPerMonth = Math.max(logs.largestOrgRowsPerMonth, logRows);
  }
  for (const s of shards) {
    s.averageWritesPerSecond = writes[s.id] / SECONDS_PER_MONTH;
    s.peakWritesPerSecond = Math.max(s.peakWritesPerSecond, (4 * writes[s.id]) / SECONDS_PER_MONTH);
  }
}

const gb = (b) => (b / 1e9).toFixed(2);
console.log(
  `${MERCHANTS} merchants (${SIZES.map((s) => `${Math.round(s.share * 100)}% ${s.name} ~${s.charges}/month`).join(", ")}) over ${SHARDS} D1 shards, ${MONTHS} months`,
);
console.log(
  `bytes per charge in a shard (record, 2 events, deliveries, rollups): ${BYTES_PER_CHARGE}; row writes per charge: ${WRITES_PER_CHARGE}`,
);
console.log("shard  merchants  charges/month  size after       avg writes/s  busy-hour writes/s  room (10 GB; write ceiling)");
for (const s of shards)
  console.log(
    `${String(s.id).padEnd(6)} ${String(s.merchants).padStart(9)} ${String(s.chargesPerMonth).padStart(14)}  ${gb(s.bytes).padStart(7)} GB   ${s.averageWritesPerSecond.toFixed(1).padStart(12)} ${s.peakWritesPerSecond.toFixed(1).padStart(19)}   ${(100 * (s.bytes / SHARD_BYTES)).toFixed(0)}% ; ${(100 * (s.peakWritesPerSecond / WRITE_CEILING)).toFixed(0)}%`,
  );
console.log(
  `logs (per-organization Durable Objects, outside the shards): ${gb(logs.rowsPerMonth * B.gateway_api_logs)} GB a month in all, the largest organization ${gb(logs.largestOrgRowsPerMonth * B.gateway_api_logs)} GB a month`,
);
const worst = shards.reduce((a, b) => (a.bytes >= b.bytes ? a : b));
const total = shards.reduce((n, s) => n + s.bytes, 0);
// Shards to plan for: every one kept under 80 % of 10 GB after the months replayed, and under 80 % of the write ceiling.
const peakTotal = shards.reduce((n, s) => n + s.peakWritesPerSecond, 0);
const needed = Math.max(Math.ceil(total / (0.8 * SHARD_BYTES)), Math.ceil(peakTotal / (0.8 * WRITE_CEILING)));
console.log(`shards needed for these merchants over ${MONTHS} months (each under 80 % of 10 GB and of the write ceiling): ${needed}`);
const bytesPerMerchantYear = Object.fromEntries(
  SIZES.map((s) => [
    s.name,
    +gb(12 * (s.charges * BYTES_PER_CHARGE + 30 * B.expenses) + (s.charges / 4) * B.customers + (s.charges / 5) * B.subscriptions),
  ]),
);
console.log(`GB per merchant-year by size: ${JSON.stringify(bytesPerMerchantYear)}`);
console.log(
  JSON.stringify({
    bench: "scale-simulate",
    merchants: MERCHANTS,
    shards: SHARDS,
    months: MONTHS,
    largestShardGB: +gb(worst.bytes),
    busiestShardPeakWritesPerSecond: +Math.max(...shards.map((s) => s.peakWritesPerSecond)).toFixed(1),
    fits: shards.every((s) => s.bytes < SHARD_BYTES && s.peakWritesPerSecond < WRITE_CEILING),
    shardsNeeded: needed,
  }),
);
