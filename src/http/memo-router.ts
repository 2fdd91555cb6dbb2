// Hono's TrieRouter behind a small memo of recent matches. The catalogue's 1,500-odd routes make a
// trie search cost tens of microseconds on some paths (it explores every parameter branch), and the
// hot paths of an integration repeat (`/finance/balance`, `/organizations/current`, a list), so the
// isolate answers them from the memo. Bounded: the oldest entry leaves when it is full, so paths
// with ever-new ids cannot grow it. A match is the same for the same method and path, and Hono
// treats the result as read-only.
import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";
import { setBounded } from "../lib/bounded-map";

const MEMO_ENTRIES = 512;

export class MemoTrieRouter<T> implements Router<T> {
  readonly name = "MemoTrieRouter";
  private readonly trie = new TrieRouter<T>();
  private readonly memo = new Map<string, Result<T>>();

  add(method: string, path: string, handler: T): void {
    this.memo.clear();
    this.trie.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    const known = this.memo.get(key);
    if (known) return known;
    const result = this.trie.match(method, path);
    setBounded(this.memo, key, result, MEMO_ENTRIES);
    return result;
  }
}
