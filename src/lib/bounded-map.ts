// The in-isolate caches' one eviction rule: a Map bounded by entry count, oldest entry out first.

/** Sets `key` in `map`; a new key that would take it past `limit` entries first drops the oldest. */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  if (!map.has(key) && map.size >= limit) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
