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

const entries = new Map<string, Entry<unknown>>();

export interface CachedLookupOptions<Row> {
  keyHash: string;
  /** Anything else the row depends on (the X-Workspace-Id header). */
  variant: string;
  load: () => Promise<Row | null>;
  /** Where a background re-read may run after the response. */
  waitUntil: (p: Promise<unknown>) => void;
  now?: number;
}

export async function cachedKeyLookup<Row>(options: CachedLookupOptions<Row>): Promise<Row | null> {
  const id = `${options.keyHash}|${options.variant}`;
  const now = options.now ?? Date.now();
  const hit = entries.get(id) as Entry<Row> | undefined;
  if (hit && now - hit.fetchedAt < LIMITS.apiKeyCacheMaxAgeMs) {
    if (now - hit.fetchedAt >= LIMITS.apiKeyCacheFreshMs && !hit.refreshing) {
      hit.refreshing = true;
      options.waitUntil(
        options.load().then(
          (row) => (row === null ? entries.delete(id) : entries.set(id, { row, fetchedAt: Date.now(), refreshing: false })),
          () => (hit.refreshing = false),
        ),
      );
    }
    return hit.row;
  }
  const row = await options.load();
  if (row === null) entries.delete(id);
  else setBounded(entries, id, { row, fetchedAt: now, refreshing: false }, LIMITS.apiKeyCacheEntries);
  return row;
}

/** Drops every cached lookup of this key in this isolate (after a revoke or rotate). */
export function forgetApiKey(keyHash: string): void {
  for (const id of entries.keys()) if (id.startsWith(`${keyHash}|`)) entries.delete(id);
}
