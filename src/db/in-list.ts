// "Id in this set" queries under D1's limit: a statement binds at most 100 parameters. A set that comes
// from a caller or from data (a page of ids, a batch of events) may be any size, so it is split into
// parts small enough that each statement, with everything else it binds (tenant ids, statuses, a set
// named in several UNION ALL branches), stays within the limit; the parts run in one D1 batch (one
// round trip) and their rows are merged. Every `inArray`/`notInArray` over a non-constant array in src/
// is inside a `build` callback given to this module (test/unit/in-list-usage.test.ts holds src/ to that).
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "./client";

/** D1's limit on bound parameters per statement. */
export const D1_MAX_BOUND_PARAMETERS = 100;

/** A statement built for one part of the set: drizzle can print it (to count what it binds) and run it. */
export interface InListStatement<Row> extends PromiseLike<Row[]> {
  toSQL(): { params: unknown[] };
}

const bound = (statement: { toSQL(): { params: unknown[] } }) => statement.toSQL().params.length;

/**
 * The statements that together cover `values` (duplicates dropped): `build(part)` is called with parts
 * such that each statement binds at most 100 parameters. What a statement binds besides the part, and
 * how many times it names the part, is measured on the statement itself (with one value and with two),
 * so the caller never counts by hand. An empty set gives no statement.
 */
export function inListStatements<V, S extends InListStatement<unknown>>(values: Iterable<V>, build: (part: V[]) => S): S[] {
  const all = [...new Set(values)];
  if (all.length === 0) return [];
  const whole = build(all);
  if (bound(whole) <= D1_MAX_BOUND_PARAMETERS) return [whole];
  const withOne = bound(build(all.slice(0, 1)));
  const perValue = bound(build(all.slice(0, 2))) - withOne;
  const fixed = withOne - perValue;
  const size = Math.floor((D1_MAX_BOUND_PARAMETERS - fixed) / perValue);
  if (perValue < 1 || size < 1)
    throw new Error(
      `in-list: a statement binds ${fixed} parameters besides its set (${perValue} per value); D1 allows ${D1_MAX_BOUND_PARAMETERS}`,
    );
  const out: S[] = [];
  for (let i = 0; i < all.length; i += size) out.push(build(all.slice(i, i + size)));
  return out;
}

type RowsOf<S> = S extends InListStatement<infer Row> ? Row[] : never;

/**
 * Runs several sets' statements (from inListStatements) in one D1 batch, or directly when there is one
 * statement, and answers each set's rows merged, in the order given. No statement, no query.
 */
export async function selectInLists<G extends readonly (readonly InListStatement<unknown>[])[]>(
  db: Db,
  groups: G,
): Promise<{ [K in keyof G]: RowsOf<G[K][number]> }> {
  const statements = groups.flat();
  let results: unknown[][] = [];
  if (statements.length === 1) results = [(await statements[0]) as unknown[]];
  else if (statements.length > 1)
    results = (await db.batch(statements as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown as unknown[][];
  let at = 0;
  return groups.map((group) => {
    const rows = results.slice(at, at + group.length).flat();
    at += group.length;
    return rows;
  }) as { [K in keyof G]: RowsOf<G[K][number]> };
}

/** Runs the statements covering `values` (one D1 batch when there are several) and returns all their rows. */
export async function selectInList<V, Row>(db: Db, values: Iterable<V>, build: (part: V[]) => InListStatement<Row>): Promise<Row[]> {
  const [rows] = await selectInLists(db, [inListStatements(values, build)] as const);
  return rows as Row[];
}
