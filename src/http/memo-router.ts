// Hono's TrieRouter behind a small memo of recent matches. The catalogue's 1,500-odd routes make a
// trie search cost tens of microseconds on some paths (it explores every parameter branch), and the
// hot paths of an integration repeat (`/finance/balance`, `/organizations/current`, a list), so the
// isolate answers them from the memo. Bounded per method: the oldest entry leaves when it is full, so paths
// with ever-new ids cannot grow it. A match is the same for the same method and path, and Hono
// treats the result as read-only.
import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";
import { setBounded } from "../lib/bounded-map";

const MEMO_ENTRIES = 512;
/** Methods memoised at once (a client may send any method name; the standard ones are nine). */
const MEMO_METHODS = 16;

export class MemoTrieRouter<T> implements Router<T> {
  readonly name = "MemoTrieRouter";
  private readonly trie = new TrieRouter<T>();
  /** Method → path → match: two lookups instead of building a "METHOD path" key per request. */
  private readonly memo = new Map<string, Map<string, Result<T>>>();

  add(method: string, path: string, handler: T): void {
    this.memo.clear();
    this.trie.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    let byPath = this.memo.get(method);
    if (!byPath) {
      byPath = new Map();
      setBounded(this.memo, method, byPath, MEMO_METHODS);
    }
    const known = byPath.get(path);
    if (known) return known;
    const result = this.trie.match(method, path);
    setBounded(byPath, path, result, MEMO_ENTRIES);
    return result;
  }
}
