// The formula dependency graph (formula key → the formula keys its expression uses): finding a cycle in memory
// (when saving, when evaluating, when deleting), and the SQL condition that makes "this save closes no cycle"
// part of the write itself, so two concurrent edits (A starts using B while B starts using A) cannot both land.
import { type SQL, sql } from "drizzle-orm";
import { formulas } from "../../db/schema";
import type { Tenant } from "../../lib/tenant";

/**
 * The first cycle reachable from `start` in the formula dependency graph (formula key → the formula
 * keys it uses), as the path `[start, …, start]`; null when there is none.
 */
export function findCycle(start: string, dependsOn: (key: string) => readonly string[]): string[] | null {
  const onPath = new Set<string>();
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (key: string): string[] | null => {
    if (onPath.has(key)) return [...path.slice(path.indexOf(key)), key];
    if (done.has(key)) return null;
    onPath.add(key);
    path.push(key);
    for (const next of dependsOn(key)) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    onPath.delete(key);
    done.add(key);
    return null;
  };
  return visit(start);
}

/** Whether `target` can be reached from `from` (at least one step) following the dependencies. */
export function reaches(from: string, target: string, dependsOn: (key: string) => readonly string[]): boolean {
  const seen = new Set<string>();
  const queue = [...dependsOn(from)];
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    if (key === target) return true;
    if (seen.has(key)) continue;
    seen.add(key);
    queue.push(...dependsOn(key));
  }
  return false;
}

/**
 * An SQL condition for the INSERT or UPDATE that stores formula `self` (its id and, after the write, its key) with
 * the formula keys `refs`: true only when none of those keys leads back to `self.key` through the workspace's
 * stored formulas other than `self` (whose old row the write replaces). Evaluated by D1 with the write, so it sees
 * every write committed before it.
 */
export function closesNoCycle(tenant: Tenant, self: { id: string; key: string }, refs: readonly string[]): SQL {
  return sql`NOT EXISTS (
    WITH RECURSIVE reach(key) AS (
      SELECT value FROM json_each(${JSON.stringify(refs)})
      UNION
      SELECT j.value FROM reach
        JOIN ${formulas} f ON f.organization_id = ${tenant.organizationId} AND f.workspace_id = ${tenant.workspaceId}
                         AND f.key = reach.key AND f.id <> ${self.id}
        JOIN json_each(f.formula_refs) j
    )
    SELECT 1 FROM reach WHERE reach.key = ${self.key})`;
}
