// Full scans in SQLite query plans: the one rule shared by the plan test (test/workers/query-plans.test.ts)
// and bench:scale. A statement full-scans a tenant table (one whose rows carry organization_id) when a
// line of its `EXPLAIN QUERY PLAN` reads `SCAN <table>` — with or without `USING [COVERING] INDEX`: an index
// walked end to end still reads every tenant's rows — instead of `SEARCH <table> USING … (<column>=?…)`.
// Plan lines name a table by its alias when the SQL gives one, so aliases are resolved from the SQL.

const SCAN = /^SCAN (?:TABLE )?"?([\w$]+)"?/;

/** alias → table, for every `FROM t a` / `JOIN t AS a` in the SQL (a table without an alias maps to itself). */
export function aliasesOf(sql) {
  const out = new Map();
  const re = /\b(?:from|join)\s+["`]?([\w$]+)["`]?(?:\s+(?:as\s+)?["`]?([\w$]+)["`]?)?/gi;
  const keywords = new Set([
    "where",
    "on",
    "left",
    "inner",
    "join",
    "group",
    "order",
    "limit",
    "union",
    "cross",
    "natural",
    "using",
    "set",
  ]);
  for (const m of sql.matchAll(re)) {
    const [, table, alias] = m;
    out.set(table, table);
    if (alias && !keywords.has(alias.toLowerCase())) out.set(alias, table);
  }
  return out;
}

/**
 * The tenant tables a statement full-scans, from its plan rows (`{ detail }` as SQLite answers EXPLAIN QUERY PLAN).
 * `tenantTables`: the tables to guard (a Set of names).
 */
export function fullScansOf(sql, planRows, tenantTables) {
  const aliases = aliasesOf(sql);
  const scanned = new Set();
  const searchedById = new Set();
  for (const row of planRows) {
    const detail = String(row.detail ?? "");
    const search = SEARCH_BY_ID.exec(detail);
    if (search) searchedById.add(aliases.get(search[1]) ?? search[1]);
    const m = SCAN.exec(detail);
    if (!m) continue;
    const table = aliases.get(m[1]) ?? m[1];
    if (tenantTables.has(table)) scanned.add(table);
  }
  // A lookup by a set of ids that the planner serves from the tenant's index instead of the primary key
  // walks every row of the tenant: as costly as a scan once the tenant is large (issue 28's bench:scale:
  // seconds per statement at 100× the demo), though its plan line reads SEARCH.
  for (const m of sql.matchAll(ID_LOOKUP)) {
    const table = aliases.get(m[1]) ?? m[1];
    if (tenantTables.has(table) && !searchedById.has(table)) scanned.add(table);
  }
  return [...scanned];
}

/** `"t"."id" in (` / `"t"."id" = ?` in the SQL drizzle writes: a lookup by primary key. */
const ID_LOOKUP = /"([\w$]+)"\."id"\s+(?:in\s*\(|=\s*\?)/gi;
/** A plan line that reaches the table through its primary key (`… (id=?)`, rowid or the autoindex). */
const SEARCH_BY_ID = /^SEARCH (?:TABLE )?"?([\w$]+)"?.*\((?:id|rowid)=\?\)/;

/** The statements worth explaining: reads and writes of rows, not PRAGMAs, transactions or schema changes. */
export const explainable = (sql) => /^\s*(with|select|insert|update|delete)\b/i.test(sql);
