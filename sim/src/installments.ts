// Installment plans ("parcelamentos"): POST /v3/payments with installmentCount creates one payment
// per instalment, linked by an `installment` id, due one month apart, each with its PAYMENT_CREATED.
import type { ChargedCard } from "./cards";
import type { SimContext } from "./context";
import { addMonths, asNumber, badRequest, money } from "./http";
import { createPaymentRecord } from "./payments";
import type { BillingType, Payment } from "./state";

export const MAX_INSTALLMENTS = { CREDIT_CARD: 21, OTHER: 60 } as const;

export interface InstallmentRequest {
  customer: string;
  billingType: BillingType;
  dueDate: string;
  description?: unknown;
  externalReference?: unknown;
  card?: ChargedCard;
  installmentCount: unknown;
  installmentValue: unknown;
  totalValue: unknown;
  paymentLink?: string | null;
  checkoutSession?: string | null;
}

const newInstallmentId = () => `ins_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;

/** Each instalment's value in cents: `installmentValue` each, or `totalValue` split evenly with the leftover cents on the first. */
export function instalmentCents(count: number, installmentValue: unknown, totalValue: unknown): number[] {
  const each = asNumber(installmentValue);
  const total = asNumber(totalValue);
  if ((each === undefined) === (total === undefined)) {
    throw badRequest("invalid_value", "Informe installmentValue ou totalValue para o parcelamento.");
  }
  if (each !== undefined) {
    if (each <= 0) throw badRequest("invalid_value", "O valor da parcela deve ser maior que zero.");
    return Array.from({ length: count }, () => Math.round(money(each) * 100));
  }
  const totalCents = Math.round(money(total ?? 0) * 100);
  if (totalCents < count) throw badRequest("invalid_value", "O valor total deve ser maior que zero.");
  const base = Math.floor(totalCents / count);
  return Array.from({ length: count }, (_, i) => base + (i === 0 ? totalCents - base * count : 0));
}

/** Creates the plan's payments; answers the first, as the upstream does. */
export function createInstallment(ctx: SimContext, req: InstallmentRequest): Payment {
  const count = asNumber(req.installmentCount);
  const max = req.billingType === "CREDIT_CARD" ? MAX_INSTALLMENTS.CREDIT_CARD : MAX_INSTALLMENTS.OTHER;
  if (count === undefined || !Number.isInteger(count) || count < 2 || count > max) {
    throw badRequest("invalid_installmentCount", `O número de parcelas deve ser entre 2 e ${max}.`);
  }
  const cents = instalmentCents(count, req.installmentValue, req.totalValue);
  const installment = newInstallmentId();
  const created = cents.map((c, i) => {
    const payment = createPaymentRecord(ctx, {
      customer: req.customer,
      billingType: req.billingType,
      value: c / 100,
      dueDate: addMonths(req.dueDate, i),
      description: `Parcela ${i + 1} de ${count}.${typeof req.description === "string" ? ` ${req.description}` : ""}`,
      externalReference: req.externalReference,
      card: req.card,
      installment: { id: installment, number: i + 1 },
      paymentLink: req.paymentLink ?? null,
      checkoutSession: req.checkoutSession ?? null,
    });
    return payment;
  });
  const [first] = created;
  if (!first) throw badRequest("invalid_installmentCount", "Nenhuma parcela criada.");
  return first;
}
