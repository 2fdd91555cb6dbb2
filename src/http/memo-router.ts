// Hono's TrieRouter behind a small memo of recent matches. The catalogue's 1,500-odd routes make a
// trie search cost tens of microseconds on some paths (it explores every parameter branch), and the
// hot paths of an integration repeat (`/finance/balance`, `/organizations/current`, a list), so the
// isolate answers them from the memo. Bounded per method: the oldest entry leaves when it is full, so paths
// with ever-new ids cannot grow it. A match is the same for the same method and path, and Hono
// treats the result as read-only.
//
// A match of exactly two handlers whose first is the app's first middleware (provideDeps) may be
// fused into one (`fuse`): Hono runs a lone handler directly, without its compose (an async dispatch
// frame per layer, their `next` closures and the chain's own promise), and the fused handler runs the
// two as compose would (src/http/provide-deps.ts, `withRoute`). The fused entry carries the route's own
// parameters and route, so `c.req.param()` and `c.req.routePath` answer as in the route's layer.
import type { ParamIndexMap, Params, Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";
import { setBounded } from "../lib/bounded-map";

const MEMO_ENTRIES = 512;
/** Methods memoised at once (a client may send any method name; the standard ones are nine). */
const MEMO_METHODS = 16;

/** The handlers `first` and `second` as one, or undefined when they stay two. */
export type Fuse<T> = (first: T, second: T) => T | undefined;

export class MemoTrieRouter<T> implements Router<T> {
  readonly name = "MemoTrieRouter";
  private readonly trie = new TrieRouter<T>();
  /** Method → path → match: two lookups instead of building a "METHOD path" key per request. */
  private readonly memo = new Map<string, Map<string, Result<T>>>();

  constructor(private readonly fuse?: Fuse<T>) {}

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
    const result = this.fused(this.trie.match(method, path));
    setBounded(byPath, path, result, MEMO_ENTRIES);
    return result;
  }

  /** A two-handler match as one handler when `fuse` joins them (the route's parameters kept); any other as it is. */
  private fused(result: Result<T>): Result<T> {
    const handlers = result[0] as [T, Params | ParamIndexMap][];
    if (!this.fuse || handlers.length !== 2 || result.length !== 1) return result;
    const [[first], [second, params]] = handlers as [[T, Params], [T, Params]];
    const one = this.fuse(first, second);
    return one === undefined ? result : [[[one, params]]];
  }
}
