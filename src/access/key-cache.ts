// A warm isolate answers repeat API-key lookups from memory, so an authenticated request usually
// costs no D1 query for auth, and never more than one. Staleness is bounded: an entry is served for
// at most LIMITS.apiKeyCacheMaxAgeMs, and one older than LIMITS.apiKeyCacheFreshMs is re-read in the
// background while it is served. So after a key is revoked (or its workspace archived) elsewhere, an
// isolate that used it recently accepts it for at most one more request before the re-read lands;
// an isolate that revokes a key forgets it at once. Unknown keys are never cached.
import { LIMITS } from "../config";
import { setBounded } from "../lib/bounded-map";

interface Entry<Row> {
  row: Row;
  fetchedAt: number;
  refreshing: boolean;
}

/** Key hash → variant → entry: the presented hash is one string per key (api-key-secret.ts remembers it), so no per-request id is built. */
const entries = new Map<string, Map<string, Entry<unknown>>>();
/** Variants kept per key (X-Workspace-Id values): bounded, so ever-new header values cannot grow one key's map. */
const VARIANTS_PER_KEY = 64;

export interface CachedLookupOptions<Row> {
  keyHash: string;
  /** Anything else the row depends on (the X-Workspace-Id header). */
  variant: string;
  load: () => Promise<Row | null>;
  /** Where a background re-read may run after the response. */
  waitUntil: (p: Promise<unknown>) => void;
  now?: number;
}

/**
 * The row when memory answers it outright: an entry younger than LIMITS.apiKeyCacheFreshMs, which
 * needs no re-read. Synchronous, so the hot path builds no options, closure or promise; anything
 * else (a miss, an entry to re-read in the background or too old to serve) is cachedKeyLookup's.
 */
export function freshKeyRow<Row>(keyHash: string, variant: string, now: number): Row | undefined {
  const hit = entries.get(keyHash)?.get(variant);
  return hit && now - hit.fetchedAt < LIMITS.apiKeyCacheFreshMs ? (hit.row as Row) : undefined;
}

function store(keyHash: string, variant: string, entry: Entry<unknown>): void {
  let variants = entries.get(keyHash);
  if (!variants) {
    variants = new Map();
    setBounded(entries, keyHash, variants, LIMITS.apiKeyCacheEntries);
  }
  setBounded(variants, variant, entry, VARIANTS_PER_KEY);
}

function drop(keyHash: string, variant: string): void {
  const variants = entries.get(keyHash);
  if (!variants) return;
  variants.delete(variant);
  if (variants.size === 0) entries.delete(keyHash);
}

export async function cachedKeyLookup<Row>(options: CachedLookupOptions<Row>): Promise<Row | null> {
  const { keyHash, variant } = options;
  const now = options.now ?? Date.now();
  const hit = entries.get(keyHash)?.get(variant) as Entry<Row> | undefined;
  if (hit && now - hit.fetchedAt < LIMITS.apiKeyCacheMaxAgeMs) {
    if (now - hit.fetchedAt >= LIMITS.apiKeyCacheFreshMs && !hit.refreshing) {
      hit.refreshing = true;
      options.waitUntil(
        options.load().then(
          (row) => (row === null ? drop(keyHash, variant) : store(keyHash, variant, { row, fetchedAt: Date.now(), refreshing: false })),
          () => (hit.refreshing = false),
        ),
      );
    }
    return hit.row;
  }
  const row = await options.load();
  if (row === null) drop(keyHash, variant);
  else store(keyHash, variant, { row, fetchedAt: now, refreshing: false });
  return row;
}

/** Drops every cached lookup of this key in this isolate (after a revoke or rotate). */
export function forgetApiKey(keyHash: string): void {
  entries.delete(keyHash);
}
