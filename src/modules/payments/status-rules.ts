// The one table that decides every payment status change, wherever it comes from (API, webhook, sweeper).
import { ApiError } from "../../http/errors";

export const PAYMENT_STATUSES = [
  "PENDING",
  "CONFIRMED",
  "RECEIVED",
  "OVERDUE",
  "RECEIVED_IN_CASH",
  "REFUNDED",
  "CANCELED",
  "FAILED",
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** from → the statuses it may move to. Partial refunds keep the status (they raise refundedValue). */
export const PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  PENDING: ["CONFIRMED", "RECEIVED", "OVERDUE", "RECEIVED_IN_CASH", "CANCELED", "FAILED"],
  OVERDUE: ["CONFIRMED", "RECEIVED", "RECEIVED_IN_CASH", "CANCELED"],
  CONFIRMED: ["RECEIVED", "REFUNDED"],
  RECEIVED: ["REFUNDED"],
  RECEIVED_IN_CASH: ["REFUNDED"],
  REFUNDED: [],
  CANCELED: [],
  FAILED: [],
};

export function isPaymentStatus(value: string): value is PaymentStatus {
  return (PAYMENT_STATUSES as readonly string[]).includes(value);
}

export function canTransition(from: string, to: PaymentStatus): boolean {
  return isPaymentStatus(from) && PAYMENT_TRANSITIONS[from].includes(to);
}

/** Every status that may move to `to`: the guard of the conditional UPDATE that applies it. */
export function statusesThatMayBecome(to: PaymentStatus): PaymentStatus[] {
  return PAYMENT_STATUSES.filter((from) => PAYMENT_TRANSITIONS[from].includes(to));
}

/** to → statusesThatMayBecome(to), computed once: a constant set for the guarded UPDATE's IN list. */
export const PAYMENT_PREDECESSORS = Object.fromEntries(
  PAYMENT_STATUSES.map((to) => [to, statusesThatMayBecome(to)]),
) as unknown as Readonly<Record<PaymentStatus, readonly PaymentStatus[]>>;

/**
 * Reopening is outside the table on purpose: CANCELED and the paid statuses are final for every other
 * signal. Only the upstream's restore (its operation's answer or PAYMENT_RESTORED) reopens a canceled
 * charge, and only its undo of a cash receipt (undoReceivedInCash or PAYMENT_RECEIVED_IN_CASH_UNDONE)
 * reopens one RECEIVED_IN_CASH, to the open status it reports.
 */
export function reopenedStatus(upstreamStatus: unknown): "PENDING" | "OVERDUE" | null {
  return upstreamStatus === "PENDING" || upstreamStatus === "OVERDUE" ? upstreamStatus : null;
}

/** Refunds (full or partial) are allowed exactly where a full refund would be. */
export const REFUNDABLE_STATUSES = statusesThatMayBecome("REFUNDED");
export const CANCELABLE_STATUSES = statusesThatMayBecome("CANCELED");

const ACTION_TARGET = { refund: "REFUNDED", cancel: "CANCELED" } as const;

/** 409 INVALID_STATE naming the current status, unless `action` is legal from it. */
export function assertPaymentAction(status: string, action: keyof typeof ACTION_TARGET, paymentId: string): void {
  const to = ACTION_TARGET[action];
  if (canTransition(status, to)) return;
  const allowedFrom = statusesThatMayBecome(to);
  throw new ApiError(
    "INVALID_STATE",
    `Cannot ${action} payment '${paymentId}': its status is ${status}; ${action} is allowed only from ${allowedFrom.join(", ")}.`,
    {
      paymentId,
      status,
      action,
      allowedFrom,
    },
  );
}

/** The native status an upstream payment status stands for (null: not one Ponte tracks, e.g. chargebacks). */
export function paymentStatusFromUpstream(upstreamStatus: unknown, deleted = false): PaymentStatus | null {
  if (deleted) return "CANCELED";
  if (typeof upstreamStatus !== "string") return null;
  if (isPaymentStatus(upstreamStatus)) return upstreamStatus;
  return null;
}
