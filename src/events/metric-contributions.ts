// One truth for every number: what a record, as it stands, contributes to the daily metrics, per
// metric and local day in a time zone. Both ways of keeping metric_daily are built on it:
//   rebuild      = Σ contributions(record) over every record (metrics-rebuild.ts);
//   incremental  = contributions(after) − contributions(before) for the record a change touches
//                  (metric-rollups.ts), for every supported zone at once, so the write needs no read.
// The two cannot disagree, since they are sums of the same function (test/unit/metric-one-truth.test.ts
// checks it on random histories). Flows are the day's amount; levels (pending and overdue amounts, MRR,
// active subscriptions) are a +value on the day they start and a −value on the day they stop.
// Revenue received by party (party.received.customer.<id>, party.payment_fees.plan.<id>, …: the dashboard's rankings and
// profitability by customer or plan) is a flow on the charge's payment date, a local date the same in every zone.
import { addDays, isDay, localDay } from "../lib/time-zones";

export type StoredMetricName = string;

/** An amount (cents or a count) on a local day. */
export interface DayAmount {
  metric: StoredMetricName;
  day: string;
  value: number;
}

/** What a payment carries for the metrics (a PaymentRow has all of it). */
export interface PaymentFacts {
  status: string;
  valueCents: number;
  refundedCents: number;
  netValueCents?: number | null;
  paymentDate: string | null;
  /** The due date (a local date): a charge is overdue from the next day. */
  dueDate?: string | null;
  createdAt: string;
  /** The last change: when a canceled or failed charge closed, or a charge paid without a payment date was paid. */
  updatedAt: string;
  /** Only charges the upstream knows count (a refused card that never reached it counts nothing). */
  upstreamId: string | null;
  /** The parties its revenue is received by (a PaymentRow has them; without a customer there are no party metrics). */
  customerId?: string | null;
  subscriptionId?: string | null;
}

export interface SubscriptionFacts {
  id: string;
  customerId: string;
  status: string;
  valueCents: number;
  cycle: string;
  createdAt: string;
  updatedAt: string;
  canceledAt?: string | null;
  upstreamId: string | null;
}

/** A refund record (Ponte's or the upstream's); only `done` ones count, on the day they were done. */
export interface RefundFacts {
  valueCents: number;
  status: string;
  updatedAt: string;
}

export interface CustomerFacts {
  createdAt: string;
  upstreamId: string | null;
}

/** What an expense carries for the metrics (an expense row has all of it). */
export interface ExpenseFacts {
  amountBrlCents: number;
  incurredOn: string;
  status: string;
  source: string;
  costCategoryId: string;
}

/** Statuses in which a charge has been paid (REFUNDED was paid first: its refund is a separate metric). */
export const PAID_STATUSES: readonly string[] = ["CONFIRMED", "RECEIVED", "RECEIVED_IN_CASH", "REFUNDED"];

const MONTHS_PER_CYCLE: Record<string, [number, number]> = {
  WEEKLY: [52, 12],
  BIWEEKLY: [26, 12],
  MONTHLY: [1, 1],
  BIMONTHLY: [1, 2],
  QUARTERLY: [1, 3],
  SEMIANNUALLY: [1, 6],
  YEARLY: [1, 12],
};

/** A subscription's value normalised to a month, in whole cents (half-even), the same every time. */
export function monthlyCents(valueCents: number, cycle: string): number {
  const [num, den] = MONTHS_PER_CYCLE[cycle] ?? [1, 1];
  const scaled = valueCents * num;
  const q = Math.floor(scaled / den);
  const r = scaled - q * den;
  if (r * 2 > den || (r * 2 === den && q % 2 !== 0)) return q + 1;
  return q;
}

/** What a party received (value) and paid in fees on a charge, per customer and per plan. */
export const PARTY_METRICS = ["received", "payment_fees"] as const;
export type PartyMetric = (typeof PARTY_METRICS)[number];
export type Party = "customer" | "plan";

/**
 * Every party row's metric starts with this (metric_daily_party_idx holds those rows only, its condition
 * `substr(metric, 1, 6) = 'party.'`, which a query names word for word to read through it).
 */
export const PARTY_PREFIX = "party.";

/** The stored metric of a party's figure: `party.received.customer.<customerId>`, `party.payment_fees.plan.<planId>`. */
export const partyMetric = (metric: PartyMetric, by: Party, id: string) => `${PARTY_PREFIX}${metric}.${by}.${id}`;

/** The first and past-the-last metric names of every party of a kind (a range read of metric_daily). */
export const partyMetricRange = (metric: PartyMetric, by: Party): [string, string] => [
  `${PARTY_PREFIX}${metric}.${by}.`,
  `${PARTY_PREFIX}${metric}.${by}/`,
];

/**
 * A charge counts by plan under its subscription's plan, which the charge does not carry: its contributions name the
 * subscription (`party.received.subscription.<id>`) and whoever stores them names the plan instead (the rollup write looks
 * it up in SQL, the rebuild in the subscriptions it read), or drops them when the subscription has no Ponte plan.
 */
const BY_SUBSCRIPTION = /^party\.(received|payment_fees)\.subscription\.(.+)$/;
export function bySubscription(metric: string): { metric: PartyMetric; subscriptionId: string } | null {
  const m = BY_SUBSCRIPTION.exec(metric);
  return m ? { metric: m[1] as PartyMetric, subscriptionId: m[2] as string } : null;
}

/**
 * The charge-based rule of "received in a period" (issue 14): a charge paid (PAID_STATUSES), known upstream, counts its
 * value — and its fee, value − net value when the upstream reported a net value — on its payment date (none: it
 * counts nothing by party), under its customer and its subscription's plan.
 */
export function partyContributions(p: PaymentFacts): DayAmount[] {
  if (p.upstreamId === null || !PAID_STATUSES.includes(p.status) || p.paymentDate == null || !p.customerId) return [];
  const day = p.paymentDate;
  const fee = typeof p.netValueCents === "number" ? p.valueCents - p.netValueCents : 0;
  const out: DayAmount[] = [];
  const add = (metric: string, value: number) => {
    if (value !== 0) out.push({ metric, day, value });
  };
  add(partyMetric("received", "customer", p.customerId), p.valueCents);
  add(partyMetric("payment_fees", "customer", p.customerId), fee);
  if (p.subscriptionId) {
    add(`${PARTY_PREFIX}received.subscription.${p.subscriptionId}`, p.valueCents);
    add(`${PARTY_PREFIX}payment_fees.subscription.${p.subscriptionId}`, fee);
  }
  return out;
}

/**
 * The day a charge was paid, for every metric its payment moves (revenue, fees, and the open amount it
 * leaves): its payment date when it has one (a local date, what the upstream reports), else the local
 * day of its last change (when Ponte learned of it).
 */
export function paidDay(p: Pick<PaymentFacts, "paymentDate" | "updatedAt">, zone: string): string {
  return isDay(p.paymentDate) ? p.paymentDate : localDay(p.updatedAt, zone);
}

/**
 * A charge: billed on its creation day; open (PENDING) from then; OVERDUE from the day after its due
 * date (never before its creation day) if it is OVERDUE now, or closed after that day other than by a
 * refused card; revenue and fees on its paid day; the open amount leaves on the day it was paid, or,
 * canceled or failed, on the day of its last change.
 */
export function paymentContributions(p: PaymentFacts | null, zone: string): DayAmount[] {
  if (!p || p.upstreamId === null) return [];
  const out: DayAmount[] = [];
  const add = (metric: string, day: string, value: number) => {
    if (value !== 0) out.push({ metric, day, value });
  };
  const v = p.valueCents;
  const created = localDay(p.createdAt, zone);
  add("billed", created, v);
  add("pending_amount", created, v);
  const dueNext = isDay(p.dueDate) ? addDays(p.dueDate, 1) : localDay(p.updatedAt, zone);
  const overdueOn = dueNext > created ? dueNext : created;
  let leftOn: string | null = null;
  if (PAID_STATUSES.includes(p.status)) {
    leftOn = paidDay(p, zone);
    add("revenue", leftOn, v);
    if (typeof p.netValueCents === "number") add("payment_fees", leftOn, v - p.netValueCents);
  } else if (p.status === "CANCELED" || p.status === "FAILED") leftOn = localDay(p.updatedAt, zone);
  const wentOverdue = p.status === "OVERDUE" || (leftOn !== null && p.status !== "FAILED" && leftOn > overdueOn);
  if (wentOverdue) {
    add("pending_amount", overdueOn, -v);
    add("overdue_amount", overdueOn, v);
    if (leftOn !== null) add("overdue_amount", leftOn, -v);
  } else if (leftOn !== null) add("pending_amount", leftOn, -v);
  out.push(...partyContributions(p));
  return out;
}

export function refundContributions(r: RefundFacts | null, zone: string): DayAmount[] {
  if (r === null || r.status !== "done" || r.valueCents === 0) return [];
  return [{ metric: "refunds", day: localDay(r.updatedAt, zone), value: r.valueCents }];
}

/** The day a subscription stopped being active (canceledAt, else its last change), or null while ACTIVE. */
export function subscriptionEnd(s: SubscriptionFacts, zone: string): string | null {
  return s.status === "ACTIVE" ? null : localDay(s.canceledAt ?? s.updatedAt, zone);
}

/** A subscription: new and active with its MRR from its creation day until the day it stopped being active. */
export function subscriptionContributions(s: SubscriptionFacts | null, zone: string): DayAmount[] {
  if (!s || s.upstreamId === null) return [];
  const start = localDay(s.createdAt, zone);
  const mrr = monthlyCents(s.valueCents, s.cycle);
  const out: DayAmount[] = [
    { metric: "new_subscriptions", day: start, value: 1 },
    { metric: "active_subscriptions", day: start, value: 1 },
  ];
  if (mrr !== 0) out.push({ metric: "mrr", day: start, value: mrr });
  const end = subscriptionEnd(s, zone);
  if (end !== null) {
    out.push({ metric: "canceled_subscriptions", day: end, value: 1 }, { metric: "active_subscriptions", day: end, value: -1 });
    if (mrr !== 0) out.push({ metric: "mrr", day: end, value: -mrr });
  }
  return out;
}

/**
 * Paying customers from one customer's subscriptions: +1 on the day its count of active subscriptions
 * goes from 0 to some, −1 on the day it goes back (a day's ends counted before its starts).
 */
export function payingCustomerContributions(subs: readonly SubscriptionFacts[], zone: string): DayAmount[] {
  const changes: [string, number][] = [];
  for (const s of subs) {
    if (s.upstreamId === null) continue;
    changes.push([localDay(s.createdAt, zone), 1]);
    const end = subscriptionEnd(s, zone);
    if (end !== null) changes.push([end, -1]);
  }
  changes.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  const out: DayAmount[] = [];
  let active = 0;
  for (const [day, d] of changes) {
    const was = active > 0;
    active += d;
    if (!was && active > 0) out.push({ metric: "paying_customers", day, value: 1 });
    if (was && active <= 0) out.push({ metric: "paying_customers", day, value: -1 });
  }
  return out;
}

export function customerContributions(c: CustomerFacts | null, zone: string): DayAmount[] {
  return c && c.upstreamId !== null ? [{ metric: "new_customers", day: localDay(c.createdAt, zone), value: 1 }] : [];
}

/** An expense by its `incurredOn` (a local date: the same in every zone); CANCELED counts nothing. */
export function expenseContributions(e: ExpenseFacts | null): DayAmount[] {
  if (!e || e.status === "CANCELED" || !isDay(e.incurredOn)) return [];
  const v = e.amountBrlCents;
  const out: DayAmount[] = [
    { metric: "expenses", day: e.incurredOn, value: v },
    { metric: `expenses.category.${e.costCategoryId}`, day: e.incurredOn, value: v },
  ];
  if (e.source === "AWS") out.push({ metric: "aws_costs", day: e.incurredOn, value: v });
  return out;
}

/** after − before, netted per metric and day (zero amounts dropped), in a stable order. */
export function difference(after: readonly DayAmount[], before: readonly DayAmount[]): DayAmount[] {
  const sums = new Map<string, DayAmount>();
  const add = (a: DayAmount, sign: 1 | -1) => {
    const k = `${a.metric}\u0000${a.day}`;
    const prev = sums.get(k);
    sums.set(k, { metric: a.metric, day: a.day, value: (prev?.value ?? 0) + sign * a.value });
  };
  for (const a of after) add(a, 1);
  for (const b of before) add(b, -1);
  return [...sums.values()].filter((a) => a.value !== 0);
}
