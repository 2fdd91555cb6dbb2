// The API-key cache (src/access/key-cache.ts): what memory answers synchronously (freshKeyRow, the
// authenticated hot path), when a background re-read starts, what forgetting a key drops, and that one
// key's variants (X-Workspace-Id values) cannot grow without bound.
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/config";
import { cachedKeyLookup, forgetApiKey, freshKeyRow } from "../../src/access/key-cache";

const FRESH = LIMITS.apiKeyCacheFreshMs;

function lookup(keyHash: string, variant: string, now: number, load: () => Promise<{ id: string } | null>) {
  const background: Promise<unknown>[] = [];
  const row = cachedKeyLookup({ keyHash, variant, load, waitUntil: (p) => background.push(p), now });
  return { row, background };
}

describe("API-key cache", () => {
  it("serves a row read within the fresh window synchronously, and only for its key and variant", async () => {
    const keyHash = `h-${crypto.randomUUID()}`;
    const t0 = 1_000_000;
    expect(freshKeyRow(keyHash, "", t0)).toBeUndefined();
    expect(await lookup(keyHash, "", t0, async () => ({ id: "key-1" })).row).toEqual({ id: "key-1" });
    expect(freshKeyRow(keyHash, "", t0 + FRESH - 1)).toEqual({ id: "key-1" });
    expect(freshKeyRow(keyHash, "ws-other", t0)).toBeUndefined();
    expect(freshKeyRow(`h-${crypto.randomUUID()}`, "", t0)).toBeUndefined();
    // Past the fresh window memory no longer answers outright: the lookup serves it and re-reads it once.
    expect(freshKeyRow(keyHash, "", t0 + FRESH)).toBeUndefined();
    const stale = lookup(keyHash, "", t0 + FRESH, async () => ({ id: "key-1b" }));
    expect(await stale.row).toEqual({ id: "key-1" });
    expect(stale.background).toHaveLength(1);
    await Promise.all(stale.background);
    const now = Date.now(); // the re-read stamps its own time
    expect(freshKeyRow(keyHash, "", now)).toEqual({ id: "key-1b" });
  });

  it("a re-read that finds the key gone drops it; forgetting a key drops every variant", async () => {
    const keyHash = `h-${crypto.randomUUID()}`;
    const t0 = 2_000_000;
    await lookup(keyHash, "", t0, async () => ({ id: "k" })).row;
    await lookup(keyHash, "ws-1", t0, async () => ({ id: "k" })).row;
    forgetApiKey(keyHash);
    expect(freshKeyRow(keyHash, "", t0)).toBeUndefined();
    expect(freshKeyRow(keyHash, "ws-1", t0)).toBeUndefined();

    await lookup(keyHash, "", t0, async () => ({ id: "k" })).row;
    const gone = lookup(keyHash, "", t0 + FRESH, async () => null);
    await Promise.all([gone.row, ...gone.background]);
    let reads = 0;
    const after = lookup(keyHash, "", t0 + FRESH + 1, async () => {
      reads++;
      return null;
    });
    expect(await after.row).toBeNull();
    expect(reads).toBe(1);
  });

  it("keeps a bounded number of variants per key, dropping the oldest", async () => {
    const keyHash = `h-${crypto.randomUUID()}`;
    const t0 = 3_000_000;
    for (let i = 0; i <= 64; i++) await lookup(keyHash, `ws-${i}`, t0, async () => ({ id: `k${i}` })).row;
    expect(freshKeyRow(keyHash, "ws-0", t0)).toBeUndefined();
    expect(freshKeyRow(keyHash, "ws-1", t0)).toEqual({ id: "k1" });
    expect(freshKeyRow(keyHash, "ws-64", t0)).toEqual({ id: "k64" });
  });
});
