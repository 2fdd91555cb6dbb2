// The carnê (payment book): the upstream answers these GETs with a PDF, not JSON — one line per
// charge of the subscription or installment plan, by due date.
import type { Handler } from "./context";
import { pdfDocument } from "./pdf";
import { findInstallment, planPayments } from "./installments";
import { filterPayments } from "./payment-records";
import type { Payment } from "./state";
import { findSubscription } from "./subscriptions";

function pdfResponse(bytes: Uint8Array, filename: string): Response {
  return new Response(bytes, {
    headers: { "content-type": "application/pdf", "content-disposition": `attachment; filename="${filename}"` },
  });
}

const lineOf = (p: Payment, i: number, count: number) =>
  `Parcela ${i + 1} de ${count}  vencimento ${p.dueDate}  R$ ${p.value.toFixed(2)}  ${p.billingType}  ${p.status}  nosso numero ${p.nossoNumero}`;

export const subscriptionPaymentBook: Handler = ({ account, params }) => {
  const subscription = findSubscription(account, params.id);
  const charges = filterPayments(account, new URLSearchParams({ subscription: subscription.id })).sort((a, b) =>
    a.dueDate.localeCompare(b.dueDate),
  );
  const lines = charges.map((p, i) => lineOf(p, i, charges.length));
  return pdfResponse(
    pdfDocument(`Carne da assinatura ${subscription.id}`, lines.length > 0 ? lines : ["Nenhuma cobranca gerada ainda."]),
    `carne-${subscription.id}.pdf`,
  );
};

export const installmentPaymentBook: Handler = (ctx) => {
  const plan = findInstallment(ctx);
  const charges = planPayments(ctx, String(plan.id));
  const lines = charges.map((p, i) => lineOf(p, i, charges.length));
  return pdfResponse(
    pdfDocument(`Carne do parcelamento ${String(plan.id)}`, lines.length > 0 ? lines : ["Nenhuma parcela em aberto."]),
    `carne-${String(plan.id)}.pdf`,
  );
};
