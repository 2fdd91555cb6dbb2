// Path matching against `{param}` patterns, and the table of natively simulated operations.
import { CATALOGUE, type CatalogueOperation } from "../../src/compat/catalogue";
import { approveAccount } from "./accounts";
import { tokenizeCreditCard } from "./cards";
import { bodyObject, type Handler } from "./context";
import * as customers from "./customers";
import * as actions from "./payment-actions";
import { installmentPaymentBook, subscriptionPaymentBook } from "./payment-book";
import * as links from "./payment-links";
import * as payments from "./payments";
import * as subscriptions from "./subscriptions";
import * as webhooks from "./webhooks";

const segmentsOf = (path: string) => path.replace(/\/+$/, "").split("/").filter(Boolean);

/** Matches a concrete path against a `{param}` pattern (trailing slash ignored); returns params or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = segmentsOf(pattern);
  const got = segmentsOf(path);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? "";
    const g = got[i] ?? "";
    if (w.startsWith("{") && w.endsWith("}")) params[w.slice(1, -1)] = decodeURIComponent(g);
    else if (w !== g) return null;
  }
  return params;
}

/** Literal segments beat parameters, earliest position first (`/payments/limits` over `/payments/{id}`). */
function specificity(pattern: string): string {
  return segmentsOf(pattern)
    .map((s) => (s.startsWith("{") ? "0" : "1"))
    .join("");
}

export interface NativeRoute {
  method: string;
  path: string;
  handler: Handler;
}

const route = (method: string, path: string, handler: Handler): NativeRoute => ({ method, path, handler });

export const NATIVE_ROUTES: readonly NativeRoute[] = [
  route("POST", "/v3/customers", customers.createCustomer),
  route("GET", "/v3/customers", customers.listCustomers),
  route("GET", "/v3/customers/{id}", customers.getCustomer),
  route("PUT", "/v3/customers/{id}", customers.updateCustomer),
  route("DELETE", "/v3/customers/{id}", customers.deleteCustomer),
  route("POST", "/v3/customers/{id}/restore", customers.restoreCustomer),
  route("POST", "/v3/payments", payments.createPayment),
  route("GET", "/v3/payments", payments.listPayments),
  route("GET", "/v3/payments/{id}", payments.getPayment),
  route("PUT", "/v3/payments/{id}", payments.updatePayment),
  route("DELETE", "/v3/payments/{id}", payments.deletePayment),
  route("POST", "/v3/payments/{id}/restore", payments.restorePayment),
  route("GET", "/v3/payments/{id}/status", payments.getPaymentStatus),
  // "Dados resumidos": the same payments, answered whole (a superset of the lean shape).
  route("POST", "/v3/lean/payments", payments.createPayment),
  route("GET", "/v3/lean/payments", payments.listPayments),
  route("GET", "/v3/lean/payments/{id}", payments.getPayment),
  route("PUT", "/v3/lean/payments/{id}", payments.updatePayment),
  route("DELETE", "/v3/lean/payments/{id}", payments.deletePayment),
  route("POST", "/v3/lean/payments/{id}/restore", payments.restorePayment),
  route("GET", "/v3/payments/{id}/identificationField", actions.getIdentificationField),
  route("GET", "/v3/payments/{id}/pixQrCode", actions.getPixQrCode),
  route("POST", "/v3/payments/{id}/refund", actions.refundPayment),
  route("GET", "/v3/payments/{id}/refunds", actions.listPaymentRefunds),
  route("POST", "/v3/creditCard/tokenizeCreditCard", (ctx) => tokenizeCreditCard(ctx.account, bodyObject(ctx))),
  route("POST", "/v3/subscriptions", subscriptions.createSubscription),
  route("GET", "/v3/subscriptions", subscriptions.listSubscriptions),
  route("GET", "/v3/subscriptions/{id}", subscriptions.getSubscription),
  route("PUT", "/v3/subscriptions/{id}", subscriptions.updateSubscription),
  route("DELETE", "/v3/subscriptions/{id}", subscriptions.deleteSubscription),
  route("PUT", "/v3/subscriptions/{id}/creditCard", subscriptions.updateSubscriptionCard),
  route("GET", "/v3/subscriptions/{id}/payments", subscriptions.listSubscriptionPayments),
  route("GET", "/v3/subscriptions/{id}/paymentBook", subscriptionPaymentBook),
  route("GET", "/v3/installments/{id}/paymentBook", installmentPaymentBook),
  route("POST", "/v3/paymentLinks", links.createPaymentLink),
  route("GET", "/v3/paymentLinks", links.listPaymentLinks),
  route("GET", "/v3/paymentLinks/{id}", links.getPaymentLink),
  route("PUT", "/v3/paymentLinks/{id}", links.updatePaymentLink),
  route("DELETE", "/v3/paymentLinks/{id}", links.deletePaymentLink),
  route("POST", "/v3/paymentLinks/{id}/restore", links.restorePaymentLink),
  route("POST", "/v3/checkouts", links.createCheckout),
  route("POST", "/v3/checkouts/{id}/cancel", links.cancelCheckout),
  route("POST", "/v3/sandbox/payment/{id}/confirm", actions.sandboxConfirm),
  route("POST", "/v3/sandbox/payment/{id}/overdue", actions.sandboxOverdue),
  route("POST", "/v3/sandbox/myAccount/approve", approveAccount),
  route("POST", "/v3/webhooks", webhooks.createWebhookConfig),
  route("GET", "/v3/webhooks", webhooks.listWebhookConfigs),
  route("GET", "/v3/webhooks/{id}", webhooks.getWebhookConfig),
  route("PUT", "/v3/webhooks/{id}", webhooks.updateWebhookConfig),
  route("DELETE", "/v3/webhooks/{id}", webhooks.deleteWebhookConfig),
  route("POST", "/v3/webhooks/{id}/removeBackoff", webhooks.removeWebhookBackoff),
];

export type Resolved =
  | { kind: "native"; route: NativeRoute; params: Record<string, string> }
  | { kind: "catalogue"; operation: CatalogueOperation; params: Record<string, string> }
  | { kind: "none" };

/** Finds the most specific native route or catalogue operation for a request. */
export function resolve(method: string, path: string): Resolved {
  let best: Resolved = { kind: "none" };
  let bestScore = "";
  const consider = (pattern: string, make: (params: Record<string, string>) => Resolved) => {
    const params = matchPath(pattern, path);
    if (!params) return;
    const score = specificity(pattern);
    if (best.kind === "none" || score > bestScore) {
      best = make(params);
      bestScore = score;
    }
  };
  for (const r of NATIVE_ROUTES) if (r.method === method) consider(r.path, (params) => ({ kind: "native", route: r, params }));
  for (const op of CATALOGUE) {
    if (op.upstreamMethod === method) consider(op.upstreamPath, (params) => ({ kind: "catalogue", operation: op, params }));
  }
  return best;
}
