// Which upstream webhook events change native records, and the event kind each re-emits as.
import type { EventKind, ProductEventKind } from "../../events/kinds";
import type { PaymentStatus } from "../payments/status-rules";

export type UpstreamEffect =
  | { entity: "payment"; action: "created"; kind: ProductEventKind }
  | { entity: "payment"; action: "updated"; kind: ProductEventKind }
  | { entity: "payment"; action: "restored"; kind: ProductEventKind }
  | { entity: "payment"; action: "cash-undone"; kind: ProductEventKind }
  | { entity: "payment"; action: "status"; to: PaymentStatus | "FROM_PAYLOAD"; kind: ProductEventKind }
  | { entity: "payment"; action: "refund"; kind: ProductEventKind }
  | { entity: "subscription"; action: "created"; kind: ProductEventKind }
  | { entity: "subscription"; action: "updated"; kind: ProductEventKind }
  | { entity: "subscription"; action: "canceled"; kind: ProductEventKind }
  | { entity: "other"; kind: EventKind };

const EFFECTS: Record<string, UpstreamEffect> = {
  PAYMENT_CREATED: { entity: "payment", action: "created", kind: "payment.created" },
  PAYMENT_UPDATED: { entity: "payment", action: "updated", kind: "payment.updated" },
  PAYMENT_RESTORED: { entity: "payment", action: "restored", kind: "payment.restored" },
  PAYMENT_RECEIVED_IN_CASH_UNDONE: { entity: "payment", action: "cash-undone", kind: "payment.updated" },
  PAYMENT_CONFIRMED: { entity: "payment", action: "status", to: "CONFIRMED", kind: "payment.confirmed" },
  // RECEIVED or RECEIVED_IN_CASH, as the payload says.
  PAYMENT_RECEIVED: { entity: "payment", action: "status", to: "FROM_PAYLOAD", kind: "payment.received" },
  PAYMENT_OVERDUE: { entity: "payment", action: "status", to: "OVERDUE", kind: "payment.overdue" },
  PAYMENT_DELETED: { entity: "payment", action: "status", to: "CANCELED", kind: "payment.canceled" },
  PAYMENT_CREDIT_CARD_CAPTURE_REFUSED: { entity: "payment", action: "status", to: "FAILED", kind: "payment.failed" },
  PAYMENT_REPROVED_BY_RISK_ANALYSIS: { entity: "payment", action: "status", to: "FAILED", kind: "payment.failed" },
  PAYMENT_REFUNDED: { entity: "payment", action: "refund", kind: "payment.refunded" },
  PAYMENT_PARTIALLY_REFUNDED: { entity: "payment", action: "refund", kind: "payment.refunded" },
  SUBSCRIPTION_CREATED: { entity: "subscription", action: "created", kind: "subscription.created" },
  SUBSCRIPTION_UPDATED: { entity: "subscription", action: "updated", kind: "subscription.updated" },
  SUBSCRIPTION_DELETED: { entity: "subscription", action: "canceled", kind: "subscription.canceled" },
  SUBSCRIPTION_INACTIVATED: { entity: "subscription", action: "canceled", kind: "subscription.canceled" },
};

export function upstreamEffect(event: string): UpstreamEffect {
  return EFFECTS[event] ?? { entity: "other", kind: upstreamKind(event) };
}

/** `upstream.<EVENT>`; names outside [A-Z0-9_] are folded so the kind stays well-formed. */
export function upstreamKind(event: string): EventKind {
  return `upstream.${
    event
      .toUpperCase()
      .replace(/[^A-Z0-9_]/g, "_")
      .slice(0, 100) || "UNKNOWN"
  }`;
}
