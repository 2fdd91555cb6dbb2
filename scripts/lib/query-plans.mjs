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
  for (const row of planRows) {
    const m = SCAN.exec(String(row.detail ?? ""));
    if (!m) continue;
    const table = aliases.get(m[1]) ?? m[1];
    if (tenantTables.has(table)) scanned.add(table);
  }
  return [...scanned];
}

/** The statements worth explaining: reads and writes of rows, not PRAGMAs, transactions or schema changes. */
export const explainable = (sql) => /^\s*(with|select|insert|update|delete)\b/i.test(sql);
