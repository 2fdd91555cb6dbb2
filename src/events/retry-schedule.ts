// The one retry schedule: six attempts in all, waiting 10, 20, 40, 80, 160 s between them.
import { LIMITS } from "../config";

/** Seconds to wait after automatic attempt n (1-based) fails before attempt n + 1. */
export const RETRY_DELAYS_SECONDS: readonly number[] = Array.from(
  { length: LIMITS.webhookAttempts - 1 },
  (_, i) => LIMITS.webhookFirstBackoffSeconds * 2 ** i,
);

/** When the next automatic attempt is due after `attemptsMade` failed ones, or null when none remain. */
export function nextAttemptAt(attemptsMade: number, failedAt: Date): Date | null {
  const delay = RETRY_DELAYS_SECONDS[attemptsMade - 1];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay * 1000);
}
