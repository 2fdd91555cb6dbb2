import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/http/errors";
import {
  assertPaymentAction,
  canTransition,
  CANCELABLE_STATUSES,
  REFUNDABLE_STATUSES,
  statusesThatMayBecome,
} from "../../src/modules/payments/status-rules";
import { upstreamEffect } from "../../src/modules/upstream-webhooks/mapping";

describe("payment transition table", () => {
  it.each([
    ["PENDING", "RECEIVED", true],
    ["PENDING", "FAILED", true],
    ["OVERDUE", "RECEIVED", true],
    ["OVERDUE", "FAILED", false],
    ["CONFIRMED", "RECEIVED", true],
    ["RECEIVED", "CONFIRMED", false],
    ["RECEIVED", "CANCELED", false],
    ["PENDING", "REFUNDED", false],
    ["REFUNDED", "RECEIVED", false],
    ["CANCELED", "PENDING", false],
    ["NOT_A_STATUS", "RECEIVED", false],
  ] as const)("%s → %s: %s", (from, to, legal) => {
    expect(canTransition(from, to)).toBe(legal);
  });

  it("refunds only from paid statuses, cancel only from open ones", () => {
    expect(REFUNDABLE_STATUSES.sort()).toEqual(["CONFIRMED", "RECEIVED", "RECEIVED_IN_CASH"]);
    expect(CANCELABLE_STATUSES.sort()).toEqual(["OVERDUE", "PENDING"]);
    expect(statusesThatMayBecome("RECEIVED").sort()).toEqual(["CONFIRMED", "OVERDUE", "PENDING"]);
  });

  it("an illegal action is 409 INVALID_STATE naming the status", () => {
    try {
      assertPaymentAction("PENDING", "refund", "c1");
      throw new Error("should throw");
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      const e = err as ApiError;
      expect(e.status).toBe(409);
      expect(e.code).toBe("INVALID_STATE");
      expect(e.message).toContain("PENDING");
      expect(e.details.status).toBe("PENDING");
    }
    expect(() => assertPaymentAction("RECEIVED", "refund", "c1")).not.toThrow();
    expect(() => assertPaymentAction("RECEIVED", "cancel", "c1")).toThrow(/RECEIVED/);
  });
});

describe("upstream event mapping", () => {
  it.each([
    ["PAYMENT_RECEIVED", "payment.received"],
    ["PAYMENT_PARTIALLY_REFUNDED", "payment.refunded"],
    ["PAYMENT_DELETED", "payment.canceled"],
    ["PAYMENT_REPROVED_BY_RISK_ANALYSIS", "payment.failed"],
    ["SUBSCRIPTION_INACTIVATED", "subscription.canceled"],
    ["PAYMENT_UPDATED", "payment.updated"],
    ["PAYMENT_RESTORED", "payment.restored"],
    ["PAYMENT_AWAITING_RISK_ANALYSIS", "upstream.PAYMENT_AWAITING_RISK_ANALYSIS"],
    ["TRANSFER_DONE", "upstream.TRANSFER_DONE"],
  ])("%s → %s", (event, kind) => {
    expect(upstreamEffect(event).kind).toBe(kind);
  });
});
