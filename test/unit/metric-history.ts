// A model of a workspace's records for the one-truth property (metric-one-truth.test.ts): a history of
// changes is applied to plain records, each change also applied to "live" rollups the way the write
// path does (metricDeltas / expenseDeltas / newCustomerDeltas, each delta on its day in the zone, a
// paying-customer delta skipped when the customer has another ACTIVE subscription); the rebuild is the
// sum of the final records' contributions, as metrics-rebuild.ts sums them.
import { fc } from "@fast-check/vitest";
import {
  customerContributions,
  type DayAmount,
  expenseContributions,
  type ExpenseFacts,
  type PaymentFacts,
  paymentContributions,
  payingCustomerContributions,
  type RefundFacts,
  refundContributions,
  type SubscriptionFacts,
  subscriptionContributions,
} from "../../src/events/metric-contributions";
import { dayIn, expenseDeltas, type MetricDelta, metricDeltas, newCustomerDeltas } from "../../src/events/metric-rollups";
import { addDays, localDay, TIME_ZONES } from "../../src/lib/time-zones";

export type Step =
  | { op: "charge"; value: number; dueIn: number; linked: boolean }
  | { op: "adopt"; value: number; dueIn: number; status: "CONFIRMED" | "RECEIVED" | "OVERDUE" | "CANCELED" }
  | { op: "refuse"; pick: number }
  | { op: "pay"; pick: number; status: "CONFIRMED" | "RECEIVED" | "RECEIVED_IN_CASH"; dated: boolean; fee: number }
  | { op: "overdue"; pick: number }
  | { op: "refund"; pick: number; part: number }
  | { op: "cancel"; pick: number }
  | { op: "restore"; pick: number; overdue: boolean }
  | { op: "value"; pick: number; value: number }
  | { op: "undo"; pick: number; overdue: boolean }
  | { op: "expense"; value: number; onIn: number; aws: boolean; category: number }
  | { op: "expense-edit"; pick: number; value: number; onIn: number }
  | { op: "expense-cancel"; pick: number }
  | { op: "expense-delete"; pick: number }
  | { op: "subscription"; customer: number; value: number; cycle: "WEEKLY" | "MONTHLY" | "YEARLY" }
  | { op: "subscription-cancel"; pick: number }
  | { op: "subscription-value"; pick: number; value: number }
  | { op: "customer" };

/** Minutes to the next step: often a few, sometimes across a local midnight or several days. */
const gap = fc.constantFrom(1, 7, 59, 61, 170, 180, 181, 600, 1260, 1439, 1441, 2880, 10_080);
const cents = fc.integer({ min: 1, max: 2_000_000 });
const pick = fc.nat({ max: 50 });

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant("charge"), value: cents, dueIn: fc.integer({ min: -3, max: 5 }), linked: fc.boolean() }),
  fc.record({
    op: fc.constant("adopt"),
    value: cents,
    dueIn: fc.integer({ min: -5, max: 5 }),
    status: fc.constantFrom("CONFIRMED", "RECEIVED", "OVERDUE", "CANCELED"),
  }),
  fc.record({ op: fc.constant("refuse"), pick }),
  fc.record({
    op: fc.constant("pay"),
    pick,
    status: fc.constantFrom("CONFIRMED", "RECEIVED", "RECEIVED_IN_CASH"),
    dated: fc.boolean(),
    fee: fc.nat({ max: 500 }),
  }),
  fc.record({ op: fc.constant("overdue"), pick }),
  fc.record({ op: fc.constant("refund"), pick, part: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ op: fc.constant("cancel"), pick }),
  fc.record({ op: fc.constant("restore"), pick, overdue: fc.boolean() }),
  fc.record({ op: fc.constant("value"), pick, value: cents }),
  fc.record({ op: fc.constant("undo"), pick, overdue: fc.boolean() }),
  fc.record({
    op: fc.constant("expense"),
    value: cents,
    onIn: fc.integer({ min: -3, max: 3 }),
    aws: fc.boolean(),
    category: fc.nat({ max: 2 }),
  }),
  fc.record({ op: fc.constant("expense-edit"), pick, value: cents, onIn: fc.integer({ min: -3, max: 3 }) }),
  fc.record({ op: fc.constant("expense-cancel"), pick }),
  fc.record({ op: fc.constant("expense-delete"), pick }),
  fc.record({
    op: fc.constant("subscription"),
    customer: fc.nat({ max: 2 }),
    value: cents,
    cycle: fc.constantFrom("WEEKLY", "MONTHLY", "YEARLY"),
  }),
  fc.record({ op: fc.constant("subscription-cancel"), pick }),
  fc.record({ op: fc.constant("subscription-value"), pick, value: cents }),
  fc.record({ op: fc.constant("customer") }),
) as fc.Arbitrary<Step>;

export const historyArb = fc.record({
  zone: fc.constantFrom(...TIME_ZONES),
  // Around local midnight in the Americas and in Europe (02:50 UTC is 23:50 in São Paulo).
  start: fc.constantFrom("2026-11-25T02:50:00.000Z", "2026-11-24T23:30:00.000Z", "2026-03-31T22:59:00.000Z"),
  steps: fc.array(fc.tuple(gap, stepArb), { minLength: 1, maxLength: 25 }),
});
export type History = { zone: string; start: string; steps: [number, Step][] };

type Totals = Map<string, number>;
const key = (metric: string, day: string) => `${metric} ${day}`;
const addTo = (totals: Totals, amounts: readonly DayAmount[]) => {
  for (const a of amounts) totals.set(key(a.metric, a.day), (totals.get(key(a.metric, a.day)) ?? 0) + a.value);
};
/** The non-zero entries, sorted: what metric_daily holds once zero rows are ignored. */
export const rows = (totals: Totals) =>
  [...totals]
    .filter(([, v]) => v !== 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k} ${v}`);

/** Applies `history`; returns the live rollups and the rebuild of the final records. */
export function replay(history: History): { live: string[]; rebuilt: string[] } {
  const { zone } = history;
  const live: Totals = new Map();
  const payments: PaymentFacts[] = [];
  const refunds: RefundFacts[] = [];
  const subs: SubscriptionFacts[] = [];
  const expenses: (ExpenseFacts | null)[] = [];
  const customers: string[] = [];
  let now = Date.parse(history.start);
  const iso = () => new Date(now).toISOString();
  const today = () => localDay(iso(), zone);
  const apply = (deltas: readonly MetricDelta[]) => {
    for (const d of deltas) {
      const day = dayIn(d, zone);
      if (!day) continue;
      const other = d.unlessOtherActive;
      if (other && subs.some((s) => s.customerId === other.customerId && s.id !== other.subscriptionId && s.status === "ACTIVE")) continue;
      live.set(key(d.metric, day), (live.get(key(d.metric, day)) ?? 0) + d.value);
    }
  };
  const change = (i: number, next: PaymentFacts, refund?: RefundFacts) => {
    const before = payments[i] ?? null;
    payments[i] = next;
    apply(metricDeltas({ payment: { before, after: next, ...(refund ? { refund } : {}) } }));
  };
  const pickOf = <T>(list: T[], n: number, ok: (t: T) => boolean) => {
    const candidates = list.map((t, i) => [t, i] as const).filter(([t]) => ok(t));
    return candidates.length ? candidates[n % candidates.length]?.[1] : undefined;
  };
  const open = (p: PaymentFacts) => p.status === "PENDING" || p.status === "OVERDUE";

  for (const [minutes, step] of history.steps) {
    now += minutes * 60_000;
    const at = iso();
    switch (step.op) {
      case "charge":
      case "adopt": {
        const linked = step.op === "adopt" || step.linked;
        const row: PaymentFacts = {
          status: "PENDING",
          valueCents: step.value,
          refundedCents: 0,
          netValueCents: null,
          paymentDate: null,
          dueDate: addDays(today(), step.dueIn),
          createdAt: at,
          updatedAt: at,
          upstreamId: linked ? `pay_${payments.length}` : null,
        };
        const i = payments.length;
        change(i, row);
        if (step.op === "adopt") {
          const paid = step.status === "CONFIRMED" || step.status === "RECEIVED";
          change(i, {
            ...row,
            status: step.status,
            paymentDate: step.status === "RECEIVED" ? today() : null,
            netValueCents: paid ? row.valueCents - 99 : null,
          });
        }
        break;
      }
      case "refuse": {
        const i = pickOf(payments, step.pick, (p) => p.status === "PENDING");
        const p = i === undefined ? undefined : payments[i];
        if (i !== undefined && p) change(i, { ...p, status: "FAILED", updatedAt: at });
        break;
      }
      case "pay": {
        const i = pickOf(payments, step.pick, (p) => open(p) || (p.status === "CONFIRMED" && step.status === "RECEIVED"));
        const p = i === undefined ? undefined : payments[i];
        if (i === undefined || !p) break;
        const paymentDate = step.dated ? today() : p.paymentDate;
        change(i, { ...p, status: step.status, paymentDate, netValueCents: Math.max(0, p.valueCents - step.fee), updatedAt: at });
        break;
      }
      case "overdue": {
        const i = pickOf(payments, step.pick, (p) => p.status === "PENDING" && p.upstreamId !== null);
        const p = i === undefined ? undefined : payments[i];
        if (i !== undefined && p) change(i, { ...p, status: "OVERDUE", updatedAt: at });
        break;
      }
      case "refund": {
        const i = pickOf(payments, step.pick, (p) => ["CONFIRMED", "RECEIVED", "RECEIVED_IN_CASH"].includes(p.status));
        const p = i === undefined ? undefined : payments[i];
        if (i === undefined || !p) break;
        const amount = Math.max(1, Math.floor(((p.valueCents - p.refundedCents) * step.part) / 100));
        if (p.refundedCents + amount > p.valueCents) break;
        const refundedCents = p.refundedCents + amount;
        const refund: RefundFacts = { valueCents: amount, status: "done", updatedAt: at };
        refunds.push(refund);
        change(i, { ...p, refundedCents, status: refundedCents === p.valueCents ? "REFUNDED" : p.status, updatedAt: at }, refund);
        break;
      }
      case "cancel": {
        const i = pickOf(payments, step.pick, open);
        const p = i === undefined ? undefined : payments[i];
        if (i !== undefined && p) change(i, { ...p, status: "CANCELED", updatedAt: at });
        break;
      }
      case "restore":
      case "undo": {
        const from = step.op === "restore" ? "CANCELED" : "RECEIVED_IN_CASH";
        const i = pickOf(payments, step.pick, (p) => p.status === from && p.refundedCents === 0);
        const p = i === undefined ? undefined : payments[i];
        if (i === undefined || !p) break;
        const status = step.overdue ? "OVERDUE" : "PENDING";
        change(i, { ...p, status, updatedAt: at, ...(step.op === "undo" ? { paymentDate: null } : {}) });
        break;
      }
      case "value": {
        const i = pickOf(payments, step.pick, (p) => p.refundedCents <= step.value);
        const p = i === undefined ? undefined : payments[i];
        if (i !== undefined && p) change(i, { ...p, valueCents: step.value, updatedAt: at });
        break;
      }
      case "expense": {
        const e: ExpenseFacts = {
          amountBrlCents: step.value,
          incurredOn: addDays(today(), step.onIn),
          status: "PAID",
          source: step.aws ? "AWS" : "MANUAL",
          costCategoryId: `k${step.category}`,
        };
        expenses.push(e);
        apply(expenseDeltas(null, e));
        break;
      }
      case "expense-edit":
      case "expense-cancel":
      case "expense-delete": {
        const i = pickOf(expenses, step.pick, (e) => e !== null);
        const e = i === undefined ? null : (expenses[i] ?? null);
        if (i === undefined || !e) break;
        const next =
          step.op === "expense-delete"
            ? null
            : step.op === "expense-cancel"
              ? { ...e, status: "CANCELED" }
              : { ...e, amountBrlCents: step.value, incurredOn: addDays(today(), step.onIn) };
        expenses[i] = next;
        apply(expenseDeltas(e, next));
        break;
      }
      case "subscription": {
        const s: SubscriptionFacts = {
          id: `sub_${subs.length}`,
          customerId: `cus_${step.customer}`,
          status: "ACTIVE",
          valueCents: step.value,
          cycle: step.cycle,
          createdAt: at,
          updatedAt: at,
          canceledAt: null,
          upstreamId: `sub_${subs.length}`,
        };
        subs.push(s);
        apply(metricDeltas({ subscription: { before: null, after: s } }));
        break;
      }
      case "subscription-cancel":
      case "subscription-value": {
        const i = pickOf(subs, step.pick, (s) => s.status === "ACTIVE");
        const s = i === undefined ? undefined : subs[i];
        if (i === undefined || !s) break;
        const next: SubscriptionFacts =
          step.op === "subscription-cancel"
            ? { ...s, status: "CANCELED", canceledAt: at, updatedAt: at }
            : { ...s, valueCents: step.value, updatedAt: at };
        subs[i] = next;
        apply(metricDeltas({ subscription: { before: s, after: next } }));
        break;
      }
      case "customer":
        customers.push(at);
        apply(newCustomerDeltas(at));
        break;
    }
  }

  const rebuilt: Totals = new Map();
  for (const p of payments) addTo(rebuilt, paymentContributions(p, zone));
  for (const r of refunds) addTo(rebuilt, refundContributions(r, zone));
  for (const s of subs) addTo(rebuilt, subscriptionContributions(s, zone));
  for (const c of new Set(subs.map((s) => s.customerId)))
    addTo(
      rebuilt,
      payingCustomerContributions(
        subs.filter((s) => s.customerId === c),
        zone,
      ),
    );
  for (const at of customers) addTo(rebuilt, customerContributions({ createdAt: at, upstreamId: "linked" }, zone));
  for (const e of expenses) addTo(rebuilt, expenseContributions(e));
  return { live: rows(live), rebuilt: rows(rebuilt) };
}
