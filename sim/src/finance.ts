// Money views derived from the account's records: the statement (financialTransactions) with a running balance,
// the balance, payment and split statistics. Amounts are summed in integer cents.
import type { Handler, SimContext } from "./context";
import { applyFilters } from "./engine";
import { isDateString, listBody, readPage, badRequest, type Json } from "./http";
import { collection, sumMoney } from "./records";
import type { Account } from "./state";

interface Entry {
  id: string;
  type: string;
  date: string;
  cents: number;
  description: string;
  paymentId?: string;
  transferId?: string;
  billId?: string;
}

const cents = (v: unknown) => Math.round(Number(v ?? 0) * 100);
const day = (v: unknown) => String(v ?? "").slice(0, 10);
const CREDITED = new Set(["RECEIVED", "REFUNDED", "REFUND_REQUESTED"]);
const MONEY_OUT_VOID = new Set(["CANCELLED", "FAILED", "REFUNDED"]);

/** Every balance movement, oldest first: received payments (and their fees and refunds), transfers, bills, top-ups. */
export function ledger(account: Account): Entry[] {
  const out: Entry[] = [];
  for (const p of account.payments.values()) {
    if (!CREDITED.has(p.status) || !p.paymentDate) continue;
    const slug = p.id.slice(4);
    out.push({
      id: `ftn_${slug}_r`,
      type: "PAYMENT_RECEIVED",
      date: p.paymentDate,
      cents: cents(p.value),
      description: `Cobrança recebida ${p.id}`,
      paymentId: p.id,
    });
    const fee = cents(p.value) - cents(p.netValue);
    if (fee > 0)
      out.push({
        id: `ftn_${slug}_f`,
        type: "PAYMENT_FEE",
        date: p.paymentDate,
        cents: -fee,
        description: `Taxa da cobrança ${p.id}`,
        paymentId: p.id,
      });
    (p.refunds ?? []).forEach((r, i) => {
      out.push({
        id: `ftn_${slug}_e${i}`,
        type: "PAYMENT_REFUND",
        date: day(r.dateCreated),
        cents: -cents(r.value),
        description: `Estorno da cobrança ${p.id}`,
        paymentId: p.id,
      });
    });
  }
  for (const t of collection(account, "transfers").values()) {
    if (MONEY_OUT_VOID.has(String(t.status))) continue;
    const id = String(t.id);
    out.push({
      id: `ftn_${id.slice(4)}_t`,
      type: "TRANSFER",
      date: day(t.dateCreated),
      cents: -cents(t.value),
      description: `Transferência ${id}`,
      transferId: id,
    });
    if (cents(t.transferFee) > 0) {
      out.push({
        id: `ftn_${id.slice(4)}_tf`,
        type: "TRANSFER_FEE",
        date: day(t.dateCreated),
        cents: -cents(t.transferFee),
        description: `Taxa da transferência ${id}`,
        transferId: id,
      });
    }
  }
  for (const b of collection(account, "bills").values()) {
    if (MONEY_OUT_VOID.has(String(b.status))) continue;
    out.push({
      id: `ftn_${String(b.id).slice(4)}_b`,
      type: "BILL_PAYMENT",
      date: day(b.scheduleDate),
      cents: -cents(b.value),
      description: `Pagamento de conta ${String(b.id)}`,
      billId: String(b.id),
    });
  }
  for (const m of collection(account, "mobilePhoneRecharges").values()) {
    if (MONEY_OUT_VOID.has(String(m.status))) continue;
    out.push({
      id: `ftn_${String(m.id).slice(4)}_m`,
      type: "MOBILE_PHONE_RECHARGE",
      date: day(m.dateCreated),
      cents: -cents(m.value),
      description: `Recarga de celular ${String(m.phoneNumber)}`,
    });
  }
  return out.sort((a, b) => a.date.localeCompare(b.date));
}

export function balanceCents(account: Account): number {
  return ledger(account).reduce((sum, e) => sum + e.cents, 0);
}

/** `GET /finance/balance`. */
export const financeBalance: Handler = ({ account }) => ({ balance: balanceCents(account) / 100 });

/** `GET /financialTransactions`: the statement with the balance after each entry; startDate/finishDate, order asc|desc. */
export const financialTransactions: Handler = ({ account, query }) => {
  const start = query.get("startDate") || undefined;
  const finish = query.get("finishDate") || undefined;
  for (const [name, v] of [
    ["startDate", start],
    ["finishDate", finish],
  ] as const) {
    if (v !== undefined && !isDateString(v)) throw badRequest(`invalid_${name}`, `${name} deve ser uma data YYYY-MM-DD.`);
  }
  let running = 0;
  const rows: Json[] = ledger(account).map((e) => {
    running += e.cents;
    return {
      object: "financialTransaction",
      id: e.id,
      value: e.cents / 100,
      balance: running / 100,
      type: e.type,
      date: e.date,
      description: e.description,
      paymentId: e.paymentId ?? null,
      splitId: null,
      transferId: e.transferId ?? null,
      anticipationId: null,
      billId: e.billId ?? null,
      invoiceId: null,
      paymentDunningId: null,
      creditBureauReportId: null,
    };
  });
  const inRange = rows.filter((r) => (!start || String(r.date) >= start) && (!finish || String(r.date) <= finish));
  if (query.get("order") === "desc") inRange.reverse();
  return listBody(inRange, readPage(query));
};

/** `GET /finance/payment/statistics`: count, value and net value of the payments matching the filters (not deleted). */
export const paymentStatistics: Handler = (ctx: SimContext) => {
  const payments = applyFilters(
    ctx,
    "PaymentGetResponse",
    [...ctx.account.payments.values()].filter((p) => !p.deleted),
  );
  return { quantity: payments.length, value: sumMoney(payments.map((p) => p.value)), netValue: sumMoney(payments.map((p) => p.netValue)) };
};

/** `GET /finance/split/statistics`: splits still to receive (income) and to send (value). */
export const splitStatistics: Handler = ({ account }) => {
  const open = (s: Json) => s.status === "PENDING" || s.status === "AWAITING_CREDIT";
  return {
    income: sumMoney([...collection(account, "receivedSplits").values()].filter(open).map((s) => s.totalValue)),
    value: sumMoney([...collection(account, "paidSplits").values()].filter(open).map((s) => s.totalValue)),
  };
};
