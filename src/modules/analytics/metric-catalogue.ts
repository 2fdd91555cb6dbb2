// The metric catalogue (PLATFORM.md "metrics") and how each metric is computed from the daily rollups,
// pure: given the stored rows of a range (and the opening levels), the value of a period.
import { Dec, type Decimal, type Value } from "./formula-engine";
import { addDays } from "../../lib/time-zones";
import type { StoredMetric } from "../../events/metric-rollups";

export type Unit = "BRL" | "COUNT" | "PERCENT";

interface MetricDefinition {
  key: string;
  name: string;
  unit: Unit;
  description: string;
  /** The stored metrics it reads (flows summed over the period; levels taken at a day's end). */
  reads: readonly StoredMetric[];
  /** Whether a total over the whole range makes sense (flows and rates over the range do; levels do not). */
  hasTotal: boolean;
}

const BRL_CENTS = (cents: number): Decimal => new Dec(cents).div(100);

export const METRICS: readonly MetricDefinition[] = [
  {
    key: "revenue",
    name: "Revenue",
    unit: "BRL",
    reads: ["revenue"],
    hasTotal: true,
    description: "Value of charges paid in the period (CONFIRMED, RECEIVED or RECEIVED_IN_CASH), dated by their payment date.",
  },
  { key: "billed", name: "Billed", unit: "BRL", reads: ["billed"], hasTotal: true, description: "Value of charges created in the period." },
  {
    key: "refunds",
    name: "Refunds",
    unit: "BRL",
    reads: ["refunds"],
    hasTotal: true,
    description: "Value refunded in the period (partial and full refunds, Ponte's and the upstream's).",
  },
  {
    key: "payment_fees",
    name: "Payment fees",
    unit: "BRL",
    reads: ["payment_fees"],
    hasTotal: true,
    description: "Value − net value of the charges paid in the period, as the upstream reports the net value.",
  },
  {
    key: "net_revenue",
    name: "Net revenue",
    unit: "BRL",
    reads: ["revenue", "refunds", "payment_fees"],
    hasTotal: true,
    description: "revenue − refunds − payment_fees.",
  },
  {
    key: "expenses",
    name: "Expenses",
    unit: "BRL",
    reads: ["expenses"],
    hasTotal: true,
    description: "Expenses (BRL amount) by incurredOn, CANCELED excluded.",
  },
  {
    key: "aws_costs",
    name: "AWS costs",
    unit: "BRL",
    reads: ["aws_costs"],
    hasTotal: true,
    description: "Expenses imported from AWS connections (source AWS), by incurredOn.",
  },
  {
    key: "gross_profit",
    name: "Gross profit",
    unit: "BRL",
    reads: ["revenue", "refunds", "payment_fees", "expenses"],
    hasTotal: true,
    description: "net_revenue − expenses.",
  },
  {
    key: "mrr",
    name: "MRR",
    unit: "BRL",
    reads: ["mrr"],
    hasTotal: false,
    description: "Active subscriptions' value normalised to a month (weekly × 52/12, yearly ÷ 12, …), at the end of each period.",
  },
  { key: "arr", name: "ARR", unit: "BRL", reads: ["mrr"], hasTotal: false, description: "mrr × 12, at the end of each period." },
  {
    key: "active_subscriptions",
    name: "Active subscriptions",
    unit: "COUNT",
    reads: ["active_subscriptions"],
    hasTotal: false,
    description: "Subscriptions ACTIVE at the end of each period.",
  },
  {
    key: "new_subscriptions",
    name: "New subscriptions",
    unit: "COUNT",
    reads: ["new_subscriptions"],
    hasTotal: true,
    description: "Subscriptions created in the period.",
  },
  {
    key: "canceled_subscriptions",
    name: "Canceled subscriptions",
    unit: "COUNT",
    reads: ["canceled_subscriptions"],
    hasTotal: true,
    description: "Subscriptions that stopped being ACTIVE in the period.",
  },
  {
    key: "churn_rate",
    name: "Churn rate",
    unit: "PERCENT",
    reads: ["canceled_subscriptions", "active_subscriptions"],
    hasTotal: true,
    description: "canceled_subscriptions in the period ÷ active_subscriptions at its start × 100; null when none were active.",
  },
  {
    key: "arpu",
    name: "ARPU",
    unit: "BRL",
    reads: ["mrr", "paying_customers"],
    hasTotal: false,
    description:
      "mrr ÷ paying customers (customers with at least one ACTIVE subscription) at the end of each period; null when there are none.",
  },
  {
    key: "new_customers",
    name: "New customers",
    unit: "COUNT",
    reads: ["new_customers"],
    hasTotal: true,
    description: "Customers created (known to the upstream) in the period.",
  },
  {
    key: "pending_amount",
    name: "Pending amount",
    unit: "BRL",
    reads: ["pending_amount"],
    hasTotal: false,
    description: "Value of charges PENDING at the end of each period.",
  },
  {
    key: "overdue_amount",
    name: "Overdue amount",
    unit: "BRL",
    reads: ["overdue_amount"],
    hasTotal: false,
    description: "Value of charges OVERDUE at the end of each period.",
  },
];

export const METRIC_KEYS: ReadonlySet<string> = new Set(METRICS.map((m) => m.key));
export const metricDefinition = (key: string) => METRICS.find((m) => m.key === key);

const LEVELS: ReadonlySet<string> = new Set(["mrr", "active_subscriptions", "pending_amount", "overdue_amount", "paying_customers"]);
const CENTS: ReadonlySet<string> = new Set([
  "revenue",
  "billed",
  "refunds",
  "payment_fees",
  "expenses",
  "aws_costs",
  "mrr",
  "pending_amount",
  "overdue_amount",
]);
export const isLevel = (stored: string) => LEVELS.has(stored);
export const isCents = (stored: string) => CENTS.has(stored) || stored.startsWith("expenses.category.");

/** The stored rows of a range, by metric and day, plus each level's value before the range. */
export interface DailyData {
  from: string;
  rows: Map<string, Map<string, number>>;
  opening: Map<string, number>;
}

export interface Period {
  start: string;
  end: string;
}

/** Sum of a flow over [start, end]; a level at the end of `end` (opening + changes through it). */
export function storedValue(data: DailyData, metric: string, period: Period): number {
  const days = data.rows.get(metric);
  let sum = 0;
  if (isLevel(metric)) {
    sum = data.opening.get(metric) ?? 0;
    if (days) for (const [day, v] of days) if (day <= period.end) sum += v;
    return sum;
  }
  if (days) for (const [day, v] of days) if (day >= period.start && day <= period.end) sum += v;
  return sum;
}

function unitValue(data: DailyData, metric: string, period: Period): Decimal {
  const v = storedValue(data, metric, period);
  return isCents(metric) ? BRL_CENTS(v) : new Dec(v);
}

/** A catalogue metric's value over one period (exact; null where it divides by zero). */
export function metricValue(key: string, data: DailyData, period: Period): Value {
  const v = (m: string) => unitValue(data, m, period);
  switch (key) {
    case "net_revenue":
      return v("revenue").minus(v("refunds")).minus(v("payment_fees"));
    case "gross_profit":
      return v("revenue").minus(v("refunds")).minus(v("payment_fees")).minus(v("expenses"));
    case "arr":
      return v("mrr").times(12);
    case "churn_rate": {
      // Active at the start of the period: the level at the end of the day before it.
      const before = unitValue(data, "active_subscriptions", { start: period.start, end: addDays(period.start, -1) });
      return before.eq(0) ? null : v("canceled_subscriptions").div(before).times(100);
    }
    case "arpu": {
      const paying = v("paying_customers");
      return paying.eq(0) ? null : v("mrr").div(paying);
    }
    default:
      return metricDefinition(key) ? v(key) : null;
  }
}

/** Sum of the per-category expense rows of `categoryIds` (a category and its children). */
export function categoryExpenses(data: DailyData, categoryIds: readonly string[], period: Period): Decimal {
  let sum = new Dec(0);
  for (const id of categoryIds) sum = sum.plus(unitValue(data, `expenses.category.${id}`, period));
  return sum;
}
