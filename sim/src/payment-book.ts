// The carnê (payment book): the upstream answers these GETs with a PDF, not JSON — one line per
// charge, by due date. Subscriptions are simulated, so their book lists their real charges; installments are
// not, so theirs names the installment only.
import type { Handler } from "./context";
import { pdfDocument } from "./pdf";
import { filterPayments } from "./payment-records";
import { findSubscription } from "./subscriptions";

function pdfResponse(bytes: Uint8Array, filename: string): Response {
  return new Response(bytes, {
    headers: { "content-type": "application/pdf", "content-disposition": `attachment; filename="${filename}"` },
  });
}

export const subscriptionPaymentBook: Handler = ({ account, params }) => {
  const subscription = findSubscription(account, params.id);
  const charges = filterPayments(account, new URLSearchParams({ subscription: subscription.id })).sort((a, b) =>
    a.dueDate.localeCompare(b.dueDate),
  );
  const lines = charges.map(
    (p, i) =>
      `Parcela ${i + 1} de ${charges.length}  vencimento ${p.dueDate}  R$ ${p.value.toFixed(2)}  ${p.billingType}  ${p.status}  nosso numero ${p.nossoNumero}`,
  );
  return pdfResponse(
    pdfDocument(`Carne da assinatura ${subscription.id}`, lines.length > 0 ? lines : ["Nenhuma cobranca gerada ainda."]),
    `carne-${subscription.id}.pdf`,
  );
};

export const installmentPaymentBook: Handler = ({ params }) =>
  pdfResponse(pdfDocument(`Carne do parcelamento ${params.id}`, []), `carne-${params.id}.pdf`);
