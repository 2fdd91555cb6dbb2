// The one table that decides every charge status change, wherever it comes from (API, webhook, sweeper).
import { ApiError } from "../../http/errors";

export const CHARGE_STATUSES = ["PENDING", "CONFIRMED", "RECEIVED", "OVERDUE", "RECEIVED_IN_CASH", "REFUNDED", "CANCELED", "FAILED"] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** from → the statuses it may move to. Partial refunds keep the status (they raise refundedValue). */
export const CHARGE_TRANSITIONS: Readonly<Record<ChargeStatus, readonly ChargeStatus[]>> = {
  PENDING: ["CONFIRMED", "RECEIVED", "OVERDUE", "RECEIVED_IN_CASH", "CANCELED", "FAILED"],
  OVERDUE: ["CONFIRMED", "RECEIVED", "RECEIVED_IN_CASH", "CANCELED"],
  CONFIRMED: ["RECEIVED", "REFUNDED"],
  RECEIVED: ["REFUNDED"],
  RECEIVED_IN_CASH: ["REFUNDED"],
  REFUNDED: [],
  CANCELED: [],
  FAILED: [],
};

export function isChargeStatus(value: string): value is ChargeStatus {
  return (CHARGE_STATUSES as readonly string[]).includes(value);
}

export function canTransition(from: string, to: ChargeStatus): boolean {
  return isChargeStatus(from) && CHARGE_TRANSITIONS[from].includes(to);
}

/** Every status that may move to `to`: the guard of the conditional UPDATE that applies it. */
export function statusesThatMayBecome(to: ChargeStatus): ChargeStatus[] {
  return CHARGE_STATUSES.filter((from) => CHARGE_TRANSITIONS[from].includes(to));
}

/** Refunds (full or partial) are allowed exactly where a full refund would be. */
export const REFUNDABLE_STATUSES = statusesThatMayBecome("REFUNDED");
export const CANCELABLE_STATUSES = statusesThatMayBecome("CANCELED");

const ACTION_TARGET = { refund: "REFUNDED", cancel: "CANCELED" } as const;

/** 409 INVALID_STATE naming the current status, unless `action` is legal from it. */
export function assertChargeAction(status: string, action: keyof typeof ACTION_TARGET, chargeId: string): void {
  const to = ACTION_TARGET[action];
  if (canTransition(status, to)) return;
  const allowedFrom = statusesThatMayBecome(to);
  throw new ApiError("INVALID_STATE", `Cannot ${action} charge '${chargeId}': its status is ${status}; ${action} is allowed only from ${allowedFrom.join(", ")}.`, {
    chargeId,
    status,
    action,
    allowedFrom,
  });
}

/** The native status an upstream payment status stands for (null: not one Ponte tracks, e.g. chargebacks). */
export function chargeStatusFromUpstream(upstreamStatus: unknown, deleted = false): ChargeStatus | null {
  if (deleted) return "CANCELED";
  if (typeof upstreamStatus !== "string") return null;
  if (isChargeStatus(upstreamStatus)) return upstreamStatus;
  return null;
}
