// Issue 27 #5: incremental rollups == rebuild, for every metric and day, on random histories of charges
// (created, refused, paid, overdue, refunded, canceled, restored, adopted, value changed, received in cash
// and undone), expenses (created, edited, canceled, deleted) and subscriptions (created, canceled, value
// changed), across time zones and local midnights. The model is test/unit/metric-history.ts.
import { test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { historyArb, replay } from "./metric-history";

describe("one truth: live rollups equal the rebuild", () => {
  test.prop([historyArb], { numRuns: 60 })("for any history, in any supported zone", (history) => {
    const { live, rebuilt } = replay(history);
    expect(live).toEqual(rebuilt);
  });

  // Named histories: the issues' cases, kept fixed whatever the random runs draw.
  const at = "2026-11-25T02:50:00.000Z"; // 23:50 on the 24th in São Paulo
  it.each([
    [
      "issue 27: a refused card after a pending charge",
      [
        [1, { op: "charge", value: 1_583_390, dueIn: 2, linked: true }],
        [5, { op: "charge", value: 3_300, dueIn: 2, linked: false }],
        [1, { op: "refuse", pick: 1 }],
      ],
    ],
    [
      "issue 25: received in cash before midnight, undone after it, then canceled",
      [
        [1, { op: "charge", value: 10_000, dueIn: 0, linked: true }],
        [5, { op: "pay", pick: 0, status: "RECEIVED_IN_CASH", dated: true, fee: 0 }],
        [20, { op: "undo", pick: 0, overdue: true }],
        [1441, { op: "cancel", pick: 0 }],
      ],
    ],
    [
      "a customer's second subscription starts the minute after local midnight, the first ends then",
      [
        [1, { op: "subscription", customer: 0, value: 5_000, cycle: "MONTHLY" }],
        [11, { op: "subscription", customer: 0, value: 7_000, cycle: "WEEKLY" }],
        [1, { op: "subscription-cancel", pick: 0 }],
        [1, { op: "subscription-value", pick: 0, value: 9_000 }],
      ],
    ],
  ] as const)("%s", (_name, steps) => {
    for (const zone of ["America/Sao_Paulo", "UTC", "America/Noronha", "Europe/Lisbon"]) {
      const { live, rebuilt } = replay({ zone, start: at, steps: steps.map(([m, s]) => [m, { ...s }]) });
      expect(live).toEqual(rebuilt);
    }
  });

  it("the property can fail: a rebuild over other records disagrees", () => {
    const a = replay({
      zone: "UTC",
      start: "2026-11-25T02:50:00.000Z",
      steps: [[1, { op: "charge", value: 100, dueIn: 1, linked: true }]],
    });
    const b = replay({
      zone: "UTC",
      start: "2026-11-25T02:50:00.000Z",
      steps: [[1, { op: "charge", value: 200, dueIn: 1, linked: true }]],
    });
    expect(a.live).toEqual(a.rebuilt);
    expect(a.live).not.toEqual(b.rebuilt);
  });
});
