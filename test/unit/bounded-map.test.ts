// The in-isolate caches' eviction rule (src/lib/bounded-map.ts): key cache, presented-key hashes,
// gateway credentials and the router's memo all bound themselves with it.
import { describe, expect, it } from "vitest";
import { setBounded } from "../../src/lib/bounded-map";

describe("setBounded", () => {
  it("keeps at most `limit` entries, dropping the oldest for a new key", () => {
    const map = new Map<string, number>();
    for (const [i, key] of ["a", "b", "c", "d"].entries()) setBounded(map, key, i, 3);
    expect([...map]).toEqual([
      ["b", 1],
      ["c", 2],
      ["d", 3],
    ]);
  });

  it("updates a key already there without evicting another", () => {
    const map = new Map([
      ["a", 1],
      ["b", 2],
    ]);
    setBounded(map, "a", 10, 2);
    expect([...map]).toEqual([
      ["a", 10],
      ["b", 2],
    ]);
  });
});
