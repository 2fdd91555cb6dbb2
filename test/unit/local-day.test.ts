// localDay keeps each zone's last local day as a span of instants: it must answer what Intl answers,
// call by call, in every supported zone, including the days a clock moves (DST starts and ends) and in
// any order of instants.
import { describe, expect, it } from "vitest";
import { addDays, localDay, TIME_ZONES } from "../../src/lib/time-zones";

const reference = new Map(
  TIME_ZONES.map((zone) => [zone, new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" })]),
);
const intlDay = (ms: number, zone: string) => reference.get(zone as (typeof TIME_ZONES)[number])?.format(new Date(ms));

const HOUR = 3_600_000;

describe("localDay", () => {
  it("answers Intl's local date in every zone, hour by hour across clock changes and midnights", () => {
    // São Paulo's last DST (ended 2019-02-17 at local midnight, started 2018-11-04 skipping midnight),
    // New York's, London's and Lisbon's 2026 changes, Santiago's: each window spans the change.
    const starts = [
      "2018-11-03T00:00:00Z",
      "2019-02-15T00:00:00Z",
      "2026-03-07T00:00:00Z",
      "2026-03-28T00:00:00Z",
      "2026-04-03T00:00:00Z",
      "2026-10-24T00:00:00Z",
      "2026-11-01T00:00:00Z",
      "2026-09-05T00:00:00Z",
    ];
    const mismatches: string[] = [];
    for (const start of starts) {
      const t0 = Date.parse(start);
      for (let t = t0; t < t0 + 4 * 24 * HOUR; t += HOUR / 2 + 7_013) {
        for (const zone of TIME_ZONES) {
          const want = intlDay(t, zone);
          for (const at of [new Date(t).toISOString(), new Date(t)]) {
            const got = localDay(at, zone);
            if (got !== want) mismatches.push(`${zone} ${new Date(t).toISOString()}: ${got} ≠ ${want}`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("answers the same for instants out of order (a cached day never leaks into another)", () => {
    const base = Date.parse("2026-11-27T02:30:00Z");
    const offsets = [0, -86_400_000, 3 * HOUR, -1, 1, 26 * HOUR, -30 * HOUR, 2 * HOUR + 59 * 60_000, 400 * 86_400_000, -5];
    for (const zone of TIME_ZONES) {
      for (const d of offsets) expect(localDay(new Date(base + d), zone)).toBe(intlDay(base + d, zone));
    }
  });

  it("refuses an invalid instant or zone as Intl does", () => {
    expect(() => localDay("not a date", "UTC")).toThrow(RangeError);
    expect(() => localDay("2026-11-27T00:00:00Z", "Mars/Olympus")).toThrow(RangeError);
  });

  it("addDays answers calendar arithmetic, the same when asked again (its last answer is remembered)", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-12-31", -365)).toBe("2025-12-31");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(() => addDays("not-a-day", 1)).toThrow(RangeError);
  });
});
