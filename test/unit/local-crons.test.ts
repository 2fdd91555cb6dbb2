// npm start fires wrangler.toml's cron triggers on schedule (wrangler dev does not): the schedules come from the
// environment's [triggers], each fires at its due minute through /cdn-cgi/local/scheduled, and stop() ends it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { cronsOf, startCrons } from "../../scripts/lib/local-crons.mjs";

afterEach(() => {
  vi.useRealTimers();
});

describe("local cron triggers", () => {
  it("reads each environment's schedules from wrangler.toml", () => {
    expect(cronsOf("local")).toEqual(["* * * * *"]);
    expect(cronsOf("sandbox")).toEqual(["* * * * *"]);
    expect(cronsOf("production")).toEqual(["* * * * *"]);
    const toml =
      '[triggers]\ncrons = ["0 3 * * *"]\n[env.local.triggers]\ncrons = ["*/15 * * * *", "0 0 1 * *"]\n[env.local]\nname = "x"\n';
    expect(cronsOf("local", toml)).toEqual(["*/15 * * * *", "0 0 1 * *"]);
    expect(() => cronsOf("sandbox", toml)).toThrow(/env.sandbox/);
  });

  it("fires each schedule at its due minute through /cdn-cgi/local/scheduled, and nothing after stop()", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-26T10:00:30Z"));
    const calls: { url: string; at: string }[] = [];
    const fetchImpl = async (url: string) => {
      calls.push({ url, at: new Date().toISOString() });
      return { status: 200 };
    };
    const runs: number[] = [];
    const crons = startCrons("http://127.0.0.1:9", ["* * * * *", "*/15 * * * *"], {
      fetchImpl,
      onRun: (r) => runs.push(r.status ?? 0),
    });
    await vi.advanceTimersByTimeAsync(29_000);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000); // 10:01:00
    expect(calls).toEqual([{ url: "http://127.0.0.1:9/cdn-cgi/local/scheduled?cron=*%20*%20*%20*%20*", at: "2026-11-26T10:01:00.000Z" }]);
    await vi.advanceTimersByTimeAsync(14 * 60_000); // 10:15:00: both are due
    const at1015 = calls.filter((c) => c.at === "2026-11-26T10:15:00.000Z").map((c) => c.url);
    expect(at1015.sort()).toEqual([
      "http://127.0.0.1:9/cdn-cgi/local/scheduled?cron=*%20*%20*%20*%20*",
      "http://127.0.0.1:9/cdn-cgi/local/scheduled?cron=*%2F15%20*%20*%20*%20*",
    ]);
    expect(calls).toHaveLength(16);
    expect(runs.every((s) => s === 200)).toBe(true);
    crons.stop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls).toHaveLength(16);
  });

  it("reports a failed run and keeps the schedule", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-26T10:00:59Z"));
    const errors: string[] = [];
    let n = 0;
    const crons = startCrons("http://127.0.0.1:9", ["* * * * *"], {
      fetchImpl: async () => {
        n++;
        if (n === 1) throw new Error("connection refused");
        return { status: 200 };
      },
      onRun: (r) => {
        if (r.error) errors.push((r.error as Error).message);
      },
    });
    await vi.advanceTimersByTimeAsync(61_000);
    expect(errors).toEqual(["connection refused"]);
    expect(n).toBe(2);
    crons.stop();
  });
});
